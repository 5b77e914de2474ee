// The receipt mail states the invoice's amounts line by line (item, coupon, taxable value, GST,
// total paid), in its HTML and its plain text, with the very figures the invoice prints.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { formatInvoiceAmount } from "../../common/format.ts";
import { receiptView } from "../../app/routes/account/receipt.server.ts";
import type { Catalog } from "../../server/catalog/index.ts";
import { createHostingOrder, createOrder, type Order } from "../../server/commerce/index.ts";
import { listMailbox } from "../../server/mail/outbox.ts";
import type { Payments } from "../../server/payments/index.ts";
import { createCoupon, type Actor } from "../../server/staff/index.ts";
import { startWebsite } from "../../server/websites/index.ts";
import { catalogWithFreeCourse, databaseKinds, identitySuite, payInTestSandbox, startTestPayments } from "./helpers.ts";

let catalog: Catalog;
beforeAll(async () => {
  catalog = await catalogWithFreeCourse();
});

const key = () => randomBytes(12).toString("hex");
const finance: Actor = { id: null, name: "Meena Finance <meena@example.com>", roles: ["finance"], address: "203.0.113.8" };
const couponFor = (appliesTo: "courses" | "hosting") => ({
  code: `SAVE-${randomBytes(3).toString("hex").toUpperCase()}`,
  kind: "percent" as const,
  value: 20,
  appliesTo,
  startsAt: null,
  endsAt: null,
  maxUses: null,
  perPersonLimit: 1,
});

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The amounts table of a mail's HTML: each row's header and amount, as a reader sees them. */
function htmlRows(html: string): string[][] {
  const table = /<table width="100%"[^>]*><caption[^>]*>(Amounts on invoice [^<]+)<\/caption>(.*?)<\/table>/.exec(html);
  const rows = [...(table?.[2] ?? "").matchAll(/<tr><th scope="row"[^>]*>(.*?)<\/th><td[^>]*>(.*?)<\/td><\/tr>/g)].map((m) => [m[1] ?? "", m[2] ?? ""]);
  return [[table?.[1] ?? ""], ...rows];
}

describe.each(databaseKinds)("the receipt mail's amounts on $name", ({ open }) => {
  const suite = identitySuite(open, () => catalog);
  let payments$: Payments;
  beforeAll(() => {
    payments$ = startTestPayments(suite.db, catalog, suite.identity);
  });

  /** Pays the order and returns its receipt mail and the invoice the buyer's receipt page shows. */
  async function paid(buyer: { id: string; email: string }, order: Order) {
    await payInTestSandbox(payments$, order);
    const mail = (await listMailbox(suite.db, buyer.email)).find((m) => m.subject.startsWith("Your receipt for"));
    if (!mail) throw new Error("No receipt mail was queued.");
    return { mail, invoice: await receiptView(suite.db, catalog, { id: buyer.id }, order.id) };
  }

  it("lists the course at its listed price, the coupon, the taxable value, CGST and SGST and the total paid, as the invoice does", async () => {
    const coupon = await createCoupon(suite.db, finance, couponFor("courses"));
    const buyer = await suite.signUp("Ishaan Mehta");
    const order = (await createOrder(payments$.shop, { userId: buyer.id, courseId: "react-fundamentals", idempotencyKey: key(), couponCode: coupon.code })) as Order;
    const { mail, invoice } = await paid(buyer, order);
    // ₹6,999 less 20% is ₹5,599.20; GST at 18% inside it is ₹854.12 (₹427.06 each), leaving ₹4,745.08 taxable, ₹1,186.28 less than ₹5,931.36.
    expect(invoice).toMatchObject({ amount: 559_920, taxableAmount: 474_508, cgst: 42_706, sgst: 42_706, igst: 0, discount: { code: coupon.code, amount: 118_628 } });
    const expected = [
      ["React from Fundamentals to Production", "₹5,931.36"],
      [`Discount (coupon ${coupon.code})`, "-₹1,186.28"],
      ["Taxable value", "₹4,745.08"],
      ["CGST @ 9%", "₹427.06"],
      ["SGST @ 9%", "₹427.06"],
      ["Total paid", "₹5,599.20"],
    ];
    expect(htmlRows(mail.html)).toEqual([[`Amounts on invoice ${invoice.number}`], ...expected]);
    const lines = mail.text.split("\n");
    const start = lines.indexOf(`Amounts on invoice ${invoice.number}:`);
    expect(start).toBeGreaterThan(0);
    const textRows = lines
      .slice(start + 1, start + 8)
      .filter((line) => !/^-+$/.test(line))
      .map((line) => line.split(/\s{2,}/));
    expect(textRows).toEqual(expected);
    expect(formatInvoiceAmount(invoice.amount)).toBe("₹5,599.20");
    expect(mail.text).not.toContain("includes GST of");
  });

  it("states IGST alone for a business in another state, and no discount line without a coupon", async () => {
    const buyer = await suite.signUp("Acme Traders");
    const order = (await createOrder(payments$.shop, { userId: buyer.id, courseId: "react-fundamentals", idempotencyKey: key(), buyerGstin: "27AAACA1234A1Z5" })) as Order;
    const { mail, invoice } = await paid(buyer, order);
    expect(invoice.igst).toBe(order.taxAmount);
    expect(htmlRows(mail.html).slice(1)).toEqual([
      ["React from Fundamentals to Production", formatInvoiceAmount(order.taxableAmount)],
      ["Taxable value", formatInvoiceAmount(order.taxableAmount)],
      ["IGST @ 18%", formatInvoiceAmount(order.taxAmount)],
      ["Total paid", "₹6,999.00"],
    ]);
    expect(mail.text).toMatch(/IGST @ 18% +₹1,067\.64\n/);
    expect(mail.text).not.toMatch(/CGST|SGST|Discount/);
  });

  it("puts the same table in a hosting receipt", async () => {
    const coupon = await createCoupon(suite.db, finance, couponFor("hosting"));
    const owner = await suite.signUp("Tara Sen");
    const site = await startWebsite(suite.db, catalog, { userId: owner.id, serviceId: "website-hosting", planId: "starter-monthly", domain: `tara-${randomBytes(3).toString("hex")}.example.in` });
    const order = await createHostingOrder(payments$.shop, { userId: owner.id, websiteId: site.id, planId: "starter-monthly", idempotencyKey: key(), couponCode: coupon.code });
    const { mail, invoice } = await paid(owner, order);
    const rows = htmlRows(mail.html);
    expect(rows[1]).toEqual([order.title, formatInvoiceAmount(order.taxableAmount + order.discountAmount)]);
    expect(rows.slice(2)).toEqual([
      [`Discount (coupon ${coupon.code})`, formatInvoiceAmount(-order.discountAmount)],
      ["Taxable value", formatInvoiceAmount(invoice.taxableAmount)],
      ["CGST @ 9%", formatInvoiceAmount(invoice.cgst)],
      ["SGST @ 9%", formatInvoiceAmount(invoice.sgst)],
      ["Total paid", formatInvoiceAmount(invoice.amount)],
    ]);
    for (const [label, amount] of rows.slice(1)) expect(mail.text.split("\n")).toContainEqual(expect.stringMatching(new RegExp(`^${escapeRegExp(label ?? "")} +${escapeRegExp(amount ?? "")}$`)));
  });
});
