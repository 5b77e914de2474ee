// Finance's reports (issue 27): the month's GST sales register matches the invoices and credit
// notes to the paisa, in India's calendar month, read in batches; the payments export; both audited.
import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { formatCreditNoteNumber, formatOrderNumber } from "../../common/format.ts";
import { loadCatalog, type Catalog } from "../../server/catalog/index.ts";
import { orders, payments, refunds, websites } from "../../server/db/schema.ts";
import { dailyFigures, dashboardFigures, gstRegisterCsv, indiaDayStartOf, listAudit, monthIn, paymentsCsv, type Actor, type Takings } from "../../server/staff/index.ts";
import { contentDir, databaseKinds, identitySuite } from "./helpers.ts";

/** A CSV cell in rupees, as paise. */
const inPaise = (cell: string | undefined) => Math.round(Number(cell) * 100);

let catalog: Catalog;
beforeAll(async () => {
  catalog = await loadCatalog(contentDir);
});

const finance: Actor = { id: null, name: "Meena Finance <meena@example.com>", roles: ["finance"], address: "203.0.113.8" };
const reportedAt = new Date("2026-11-27T09:00:00+05:30");

/** The rows of a CSV text (RFC 4180: quoted cells may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(cell);
      cell = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += c;
  }
  return rows;
}

const text = (body: ReadableStream<Uint8Array>) => new Response(body).text();
const delta = (a: Takings, b: Takings) => ({ gross: a.gross - b.gross, refunded: a.refunded - b.refunded, net: a.net - b.net, gst: a.gst - b.gst });

describe.each(databaseKinds)("finance reports on $name", ({ open }) => {
  const suite = identitySuite(open, () => catalog);

  /** A course order of ₹6,999 (GST included), paid at `paidAt` (India time as written), by `userId`. */
  async function paidOrder(userId: string, paidAt: string, fields: Partial<typeof orders.$inferInsert> = {}) {
    const [order] = await suite.db
      .insert(orders)
      .values({ userId, title: "React from Fundamentals to Production", courseId: "react-fundamentals", currency: "INR", amount: 699_900, taxableAmount: 593_136, taxAmount: 106_764, taxRatePercent: 18, taxMode: "inclusive", provider: "sandbox", idempotencyKey: randomBytes(8).toString("hex"), ...fields })
      .returning();
    if (!order) throw new Error("no order");
    // Paid as every path pays one, so the trigger records "Billed to" from the account.
    const [paid] = await suite.db.update(orders).set({ status: "paid", paidAt: new Date(paidAt) }).where(eq(orders.id, order.id)).returning();
    const [payment] = await suite.db
      .insert(payments)
      .values({ orderId: order.id, userId, providerPaymentId: `pay_${randomBytes(7).toString("hex")}`, amount: order.amount, currency: "INR", status: "captured", method: "upi", createdAt: new Date(paidAt) })
      .returning();
    return { order: paid ?? order, payment: payment as typeof payments.$inferSelect };
  }

  async function refund(order: { id: string; userId: string | null; amount: number; taxableAmount: number; taxAmount: number }, paymentId: string, processedAt: string) {
    const [made] = await suite.db
      .insert(refunds)
      .values({
        orderId: order.id,
        paymentId,
        userId: order.userId,
        amount: order.amount,
        taxableAmount: order.taxableAmount,
        taxAmount: order.taxAmount,
        currency: "INR",
        status: "processed",
        processedAt: new Date(processedAt),
        creditNoteNumber: sql`nextval('credit_note_numbers')`,
      })
      .returning();
    await suite.db.update(orders).set({ status: "refunded", refundedAt: new Date(processedAt) }).where(eq(orders.id, order.id));
    return made?.creditNoteNumber as number;
  }

  it("lists October's invoices and credit notes in India's calendar month, matching them to the paisa, in batches", async () => {
    const consumer = await suite.signUp("Asha Verma");
    const business = await suite.signUp("=Acme Traders, \"Pvt\" Ltd");
    const b2c = await paidOrder(consumer.id, "2026-10-05T10:00:00+05:30");
    // Just after midnight on 1 October in India: still 30 September in UTC.
    const b2b = await paidOrder(business.id, "2026-10-01T00:10:00+05:30", { buyerGstin: "27AAACA1234A1Z5" });
    await paidOrder(consumer.id, "2026-11-01T00:05:00+05:30");
    await paidOrder(consumer.id, "2026-10-06T10:00:00+05:30", { amount: 0, taxableAmount: 0, taxAmount: 0, provider: "free" });
    const september = await paidOrder(consumer.id, "2026-09-20T12:00:00+05:30");
    const septemberNote = await refund(september.order, september.payment.id, "2026-10-10T15:00:00+05:30");
    const refundedInMonth = await paidOrder(consumer.id, "2026-10-12T09:00:00+05:30");
    const octoberNote = await refund(refundedInMonth.order, refundedInMonth.payment.id, "2026-10-20T15:00:00+05:30");

    const file = await gstRegisterCsv({ db: suite.db, site: catalog.site, batchSize: 2 }, finance, "2026-10", reportedAt);
    expect(file.filename).toBe("gst-sales-register-2026-10.csv");
    const [header, ...rows] = parseCsv(await text(file.body));
    expect(header).toEqual([
      "Document type", "Document number", "Document date", "Original invoice", "Original invoice date", "Supply type", "Buyer GSTIN", "Buyer name",
      "Buyer state", "Place of supply", "Description", "GST rate %", "Taxable value", "CGST", "SGST", "IGST", "Total",
    ]);
    const invoices = [b2b.order, b2c.order, refundedInMonth.order].toSorted((a, b) => a.number - b.number);
    const place = "Karnataka (29)";
    const invoiceRow = (order: typeof b2c.order, date: string) => {
      const b2bRow = order.buyerGstin !== null;
      // A business registered in Maharashtra buys from Karnataka: the supply is in Maharashtra, its GST is IGST.
      const gst = b2bRow ? ["0.00", "0.00", "1067.64"] : ["533.82", "533.82", "0.00"];
      return ["Invoice", formatOrderNumber(order.number), date, "", "", b2bRow ? "B2B" : "B2C", order.buyerGstin ?? "", b2bRow ? "'=Acme Traders, \"Pvt\" Ltd" : "", b2bRow ? "Maharashtra (27)" : "", b2bRow ? "Maharashtra (27)" : place, "React from Fundamentals to Production", "18", "5931.36", ...gst, "6999.00"];
    };
    const dates = new Map([
      [b2b.order.id, "2026-10-01"],
      [b2c.order.id, "2026-10-05"],
      [refundedInMonth.order.id, "2026-10-12"],
    ]);
    expect(rows).toEqual([
      ...invoices.map((order) => invoiceRow(order, dates.get(order.id) as string)),
      ["Credit note", formatCreditNoteNumber(septemberNote), "2026-10-10", formatOrderNumber(september.order.number), "2026-09-20", "B2C", "", "", "", place, "React from Fundamentals to Production", "18", "-5931.36", "-533.82", "-533.82", "0.00", "-6999.00"],
      ["Credit note", formatCreditNoteNumber(octoberNote), "2026-10-20", formatOrderNumber(refundedInMonth.order.number), "2026-10-12", "B2C", "", "", "", place, "React from Fundamentals to Production", "18", "-5931.36", "-533.82", "-533.82", "0.00", "-6999.00"],
    ]);
    // Each row adds up: taxable value and GST make the total, to the paisa.
    for (const row of rows) expect(inPaise(row[12]) + inPaise(row[13]) + inPaise(row[14]) + inPaise(row[15])).toBe(inPaise(row[16]));

    const [entry] = (await listAudit(suite.db, { action: "report.gst-register" })).entries;
    expect(entry).toMatchObject({ actor: finance.name, actorRoles: ["finance"], subjectKind: "report", subjectId: "2026-10" });
  });

  it("exports the month's payments by when they were made, without names or e-mails, in batches", async () => {
    const buyer = await suite.signUp("Kiran Rao");
    const first = await paidOrder(buyer.id, "2026-08-03T10:00:00+05:30");
    const second = await paidOrder(buyer.id, "2026-08-03T10:00:00+05:30");
    const third = await paidOrder(buyer.id, "2026-08-31T23:59:00+05:30");
    await paidOrder(buyer.id, "2026-09-01T00:01:00+05:30");

    const file = await paymentsCsv({ db: suite.db, batchSize: 2 }, finance, "2026-08", reportedAt);
    const csv = await text(file.body);
    expect(csv).not.toContain(buyer.email);
    expect(csv).not.toContain("Kiran");
    const [header, ...rows] = parseCsv(csv);
    expect(header).toEqual(["Date", "Payment id", "Order number", "Method", "Status", "Amount", "Refunded", "Currency", "Failure"]);
    expect(rows.map((row) => row[2]).toSorted()).toEqual([first, second, third].map((p) => formatOrderNumber(p.order.number)).toSorted());
    expect(rows.at(-1)).toEqual(["2026-08-31T18:29:00.000Z", third.payment.providerPaymentId, formatOrderNumber(third.order.number), "upi", "captured", "6999.00", "0.00", "INR", ""]);
    expect((await listAudit(suite.db, { action: "report.payments" })).entries[0]).toMatchObject({ subjectId: "2026-08" });
  });

  it("refuses a month that is not one, or has not begun, with a sentence, and writes nothing", async () => {
    const before = (await listAudit(suite.db)).entries.length;
    for (const [month, message] of [
      ["2026-13", "Choose a month as YYYY-MM, such as 2026-11; “2026-13” is not one."],
      ["October", "Choose a month as YYYY-MM, such as 2026-11; “October” is not one."],
      ["2026-12", "2026-12 has not begun yet: there is nothing to report."],
    ] as const) {
      await expect(gstRegisterCsv({ db: suite.db, site: catalog.site }, finance, month, reportedAt)).rejects.toThrow(message);
    }
    expect((await listAudit(suite.db)).entries.length).toBe(before);
    expect(monthIn("2026-12", new Date("2026-12-01T00:00:00+05:30"))).toEqual({ month: "2026-12", from: new Date("2026-11-30T18:30:00Z"), to: new Date("2026-12-31T18:30:00Z") });
  });
  it("counts the dashboard's figures in India's days: takings net of refunds with GST apart, people, courses, websites and backlogs", async () => {
    const now = new Date();
    const before = await dashboardFigures(suite.db, now);
    const daysBefore = await dailyFigures(suite.db, now);
    const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3_600_000).toISOString();
    const buyer = await suite.signUp("Dev Malhotra");
    const today = await paidOrder(buyer.id, indiaDayStartOf(now).toISOString());
    await paidOrder(buyer.id, hoursAgo(24 * 4));
    const monthAgo = await paidOrder(buyer.id, hoursAgo(24 * 20));
    await paidOrder(buyer.id, hoursAgo(24 * 45));
    await refund(monthAgo.order, monthAgo.payment.id, hoursAgo(24 * 2));
    await suite.db.insert(payments).values({ orderId: today.order.id, userId: buyer.id, providerPaymentId: `pay_failed_${randomBytes(4).toString("hex")}`, amount: 699_900, currency: "INR", status: "failed", method: "card", createdAt: new Date(hoursAgo(3)) });
    await suite.db.insert(orders).values({ userId: buyer.id, title: "Waiting", courseId: "react-fundamentals", currency: "INR", amount: 699_900, taxableAmount: 593_136, taxAmount: 106_764, taxRatePercent: 18, taxMode: "inclusive", provider: "sandbox", idempotencyKey: randomBytes(8).toString("hex"), createdAt: new Date(hoursAgo(2)) });
    await suite.db.insert(websites).values([
      { userId: buyer.id, serviceId: "website-hosting", domain: `dash-${randomBytes(3).toString("hex")}.example.in`, planId: "starter-monthly", billingInterval: "month", startedAt: new Date(hoursAgo(24 * 10)), expiresAt: new Date(now.getTime() + 10 * 86_400_000) },
      { userId: buyer.id, serviceId: "website-hosting", domain: `dash-${randomBytes(3).toString("hex")}.example.in`, planId: "starter-yearly", billingInterval: "year", startedAt: new Date(hoursAgo(24 * 10)), expiresAt: new Date(now.getTime() + 300 * 86_400_000) },
    ]);
    const after = await dashboardFigures(suite.db, now);

    expect(delta(after.takings.today, before.takings.today)).toEqual({ gross: 699_900, refunded: 0, net: 699_900, gst: 106_764 });
    expect(delta(after.takings.week, before.takings.week)).toEqual({ gross: 1_399_800, refunded: 699_900, net: 699_900, gst: 106_764 });
    expect(delta(after.takings.month, before.takings.month)).toEqual({ gross: 2_099_700, refunded: 699_900, net: 1_399_800, gst: 213_528 });
    expect(after.payingCustomers - before.payingCustomers).toBe(1);
    expect(after.signUps.week - before.signUps.week).toBe(1);
    expect(after.failedPayments - before.failedPayments).toBe(1);
    expect(after.waitingOrders - before.waitingOrders).toBe(1);
    expect(after.websites).toEqual({ active: before.websites.active + 2, expiringSoon: before.websites.expiringSoon + 1 });

    const days = await dailyFigures(suite.db, now);
    expect(days).toHaveLength(90);
    expect(days.at(-1)?.day).toBe(new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Kolkata" }).format(now));
    const change = days.map((day, index) => day.net - (daysBefore[index]?.net ?? 0));
    expect(change.at(-1)).toBe(699_900);
    expect(change.at(-3)).toBe(-699_900);
    expect(change.at(-21)).toBe(699_900);
    expect(change.reduce((sum, paise) => sum + paise, 0)).toBe(699_900 * 4 - 699_900);
    expect((days.at(-1)?.signUps ?? 0) - (daysBefore.at(-1)?.signUps ?? 0)).toBe(1);
  });
});
