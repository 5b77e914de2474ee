import { randomBytes } from "node:crypto";
import { cp, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { and, eq, like } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { beforeAll, describe, expect, it } from "vitest";
import { receiptView } from "../../app/routes/account/receipt.server.ts";
import type { Catalog } from "../../server/catalog/index.ts";
import { createOrder, type Order } from "../../server/commerce/index.ts";
import { migrationsFolder } from "../../server/db/client.ts";
import * as schema from "../../server/db/schema.ts";
import { mailOutbox, orders, user } from "../../server/db/schema.ts";
import type { Payments } from "../../server/payments/index.ts";
import { catalogWithFreeCourse, databaseKinds, identitySuite, payInTestSandbox, startTestPayments } from "./helpers.ts";

let catalog: Catalog;
beforeAll(async () => {
  catalog = await catalogWithFreeCourse();
});

const key = () => randomBytes(12).toString("hex");
const course = "react-fundamentals";

describe.each(databaseKinds)("invoice billing details on $name", ({ open }) => {
  const suite = identitySuite(open, () => catalog);
  let payments$: Payments;
  beforeAll(() => {
    payments$ = startTestPayments(suite.db, catalog, suite.identity);
  });
  const db = () => suite.db;

  /** What the profile form does to the account: a new name (and here a new address too). */
  const rename = (id: string, name: string, email = `renamed-${key()}@example.com`) => db().update(user).set({ name, email }).where(eq(user.id, id));

  async function paidOrder(name = "Asha Verma") {
    const buyer = await suite.signUp(name);
    const order = (await createOrder(payments$.shop, { userId: buyer.id, courseId: course, idempotencyKey: key() })) as Order;
    await payInTestSandbox(payments$, order);
    return { ...buyer, order };
  }

  async function orderRow(id: string) {
    const [row] = await db().select().from(orders).where(eq(orders.id, id));
    return row as Order;
  }

  it("bills the buyer as they were when they paid: renaming the profile later changes no invoice", async () => {
    const { id, email, order } = await paidOrder("Asha Verma");
    await rename(id, "Asha Verma-Rao");
    const invoice = await receiptView(db(), catalog, { id }, order.id);
    expect(invoice.buyer).toEqual({ name: "Asha Verma", email, gstin: null });
    const [receipt] = await db()
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.to, email), like(mailOutbox.subject, "Your receipt for%")));
    expect(receipt?.text).toContain("Hi Asha Verma,");
  });

  it("charges a business registered in another state IGST, with its state as the place of supply", async () => {
    const buyer = await suite.signUp("Acme Traders");
    const order = (await createOrder(payments$.shop, { userId: buyer.id, courseId: course, idempotencyKey: key(), buyerGstin: "27AAACA1234A1Z5" })) as Order;
    await payInTestSandbox(payments$, order);
    const invoice = await receiptView(db(), catalog, { id: buyer.id }, order.id);
    expect(invoice).toMatchObject({ placeOfSupply: "Maharashtra (27)", cgst: 0, sgst: 0, igst: order.taxAmount });
    const local = await paidOrder("Asha Verma");
    expect(await receiptView(db(), catalog, { id: local.id }, local.order.id)).toMatchObject({ placeOfSupply: "Karnataka (29)", igst: 0, cgst: local.order.taxAmount / 2 });
  });

  it("records the name at payment, not when the order was started", async () => {
    const buyer = await suite.signUp("Ravi Kumar");
    const order = (await createOrder(payments$.shop, { userId: buyer.id, courseId: course, idempotencyKey: key() })) as Order;
    expect(await orderRow(order.id)).toMatchObject({ billingName: null, billingEmail: null });
    await rename(buyer.id, "Ravi Kumar Iyer", buyer.email);
    await payInTestSandbox(payments$, order);
    expect(await orderRow(order.id)).toMatchObject({ billingName: "Ravi Kumar Iyer", billingEmail: buyer.email });
  });

  it("bills a free enrolment too", async () => {
    const buyer = await suite.signUp("Neha Singh");
    const order = await createOrder(payments$.shop, { userId: buyer.id, courseId: "free-intro", idempotencyKey: key() });
    await rename(buyer.id, "Neha S.");
    expect((await receiptView(db(), catalog, { id: buyer.id }, order.id)).buyer).toMatchObject({ name: "Neha Singh", email: buyer.email });
  });

  it("keeps the recorded details once written, whatever later writes the order", async () => {
    const { order } = await paidOrder("Kiran Das");
    await db().update(orders).set({ billingName: "Someone Else", billingEmail: "else@example.com", status: "refunded" }).where(eq(orders.id, order.id));
    expect(await orderRow(order.id)).toMatchObject({ status: "refunded", billingName: "Kiran Das" });
  });

  it("removes the name and e-mail from the kept invoice when the buyer deletes their account", async () => {
    const { id, order } = await paidOrder("Meera Nair");
    await db().delete(user).where(eq(user.id, id));
    expect(await orderRow(order.id)).toMatchObject({ userId: null, status: "paid", billingName: null, billingEmail: null });
  });
});

describe("the billing details migration", () => {
  it("fills in orders paid before it from the account as it is then, and leaves unpaid ones empty", async () => {
    // Migrate a database to just before 0013, put orders in it, then apply the rest.
    const earlier = await mkdtemp(path.join(tmpdir(), "academy-migrations-"));
    await cp(migrationsFolder, earlier, { recursive: true });
    const journalPath = path.join(earlier, "meta", "_journal.json");
    const journal = JSON.parse(await readFile(journalPath, "utf8")) as { entries: { tag: string }[] };
    const upTo = journal.entries.findIndex((entry) => entry.tag.startsWith("0013_"));
    await writeFile(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, upTo) }));
    const client = await PGlite.create();
    const db = drizzle({ client, schema });
    await migrate(db, { migrationsFolder: earlier });

    await client.query(`insert into "user" (id, name, email) values ('u1', 'Old Buyer', 'old@example.com')`);
    const columns = `(user_id, title, currency, amount, taxable_amount, tax_amount, tax_rate_percent, tax_mode, provider, idempotency_key, status)`;
    for (const status of ["paid", "refunded", "created", "failed"]) {
      await client.query(`insert into orders ${columns} values ('u1', 'React', 'INR', 100, 85, 15, 18, 'inclusive', 'sandbox', $1, $2)`, [key(), status]);
    }

    await migrate(db, { migrationsFolder });
    const rows = await client.query<{ status: string; billing_name: string | null; billing_email: string | null }>(
      "select status, billing_name, billing_email from orders order by number",
    );
    expect(rows.rows).toEqual([
      { status: "paid", billing_name: "Old Buyer", billing_email: "old@example.com" },
      { status: "refunded", billing_name: "Old Buyer", billing_email: "old@example.com" },
      { status: "created", billing_name: null, billing_email: null },
      { status: "failed", billing_name: null, billing_email: null },
    ]);
    await client.close();
  });
});
