// Coupons (issue 27): finance makes a code; a buyer types it at a course's checkout; the order's price
// is the list price less the discount, with GST worked out on what is left, and the invoice shows the
// discount before GST. A coupon outside its window, turned off, used up or already used by the person
// is refused in words, and two buyers racing for its last use cannot both have it.
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { receiptView } from "../../app/routes/account/receipt.server.ts";
import type { Catalog } from "../../server/catalog/index.ts";
import { createHostingOrder, createOrder, isEnrolled, type Order } from "../../server/commerce/index.ts";
import { coupons, orders } from "../../server/db/schema.ts";
import type { Payments } from "../../server/payments/index.ts";
import { createCoupon, disableCoupon, listAudit, listCoupons, type Actor, type CouponInput } from "../../server/staff/index.ts";
import { startWebsite } from "../../server/websites/index.ts";
import { catalogWithFreeCourse, databaseKinds, identitySuite, payInTestSandbox, startTestPayments } from "./helpers.ts";

let catalog: Catalog;
beforeAll(async () => {
  catalog = await catalogWithFreeCourse();
});

const key = () => randomBytes(12).toString("hex");
const finance: Actor = { id: null, name: "Meena Finance <meena@example.com>", roles: ["finance"], address: "203.0.113.8" };
const day = 86_400_000;
const code = (prefix: string) => `${prefix}-${randomBytes(3).toString("hex").toUpperCase()}`;
const coupon = (input: Partial<CouponInput> & { code: string }): CouponInput => ({ kind: "percent", value: 20, appliesTo: "courses", startsAt: null, endsAt: null, maxUses: null, perPersonLimit: 1, ...input });

describe.each(databaseKinds)("coupons on $name", ({ open }) => {
  const suite = identitySuite(open, () => catalog);
  let payments$: Payments;
  beforeAll(() => {
    payments$ = startTestPayments(suite.db, catalog, suite.identity);
  });
  const buy = (userId: string, courseId: string, couponCode: string | null, idempotencyKey = key()) =>
    createOrder(payments$.shop, { userId, courseId, idempotencyKey, couponCode });

  it("refuses a coupon finance cannot make, in words, and makes the rest once, in the audit log", async () => {
    const refused = async (input: CouponInput) => (await createCoupon(suite.db, finance, input).catch((error: Error) => error)) as Error;
    expect((await refused(coupon({ code: "x" }))).message).toBe("A code is 3 to 32 letters, digits and hyphens, such as DIWALI20.");
    expect((await refused(coupon({ code: "HALF OFF" }))).message).toBe("A code is 3 to 32 letters, digits and hyphens, such as DIWALI20.");
    expect((await refused(coupon({ code: code("PCT"), value: 120 }))).message).toBe("A percentage off is a whole number from 1 to 100.");
    expect((await refused(coupon({ code: code("AMT"), kind: "amount", value: 50 }))).message).toBe("An amount off is at least ₹1.");
    expect((await refused(coupon({ code: code("WIN"), startsAt: new Date(Date.now() + day), endsAt: new Date() }))).message).toBe("The coupon must end after it starts.");
    expect((await refused(coupon({ code: code("USE"), perPersonLimit: 0 }))).message).toBe("Uses per person are a whole number of at least 1.");

    const typed = code("diwali").toLowerCase();
    const made = await createCoupon(suite.db, finance, coupon({ code: ` ${typed} ` }));
    expect(made.code).toBe(typed.toUpperCase());
    expect((await refused(coupon({ code: typed }))).message).toBe(`There is a coupon ${typed.toUpperCase()} already: choose another code.`);
    const [entry] = (await listAudit(suite.db, { subjectId: made.id })).entries;
    expect(entry).toMatchObject({ action: "coupon.create", actor: finance.name, after: { code: made.code, discount: "20% off" } });
  });

  it("takes the discount off the list price before GST, and the invoice shows it", async () => {
    const made = await createCoupon(suite.db, finance, coupon({ code: code("TWENTY") }));
    const buyer = await suite.signUp("Ishaan Mehta");
    const order = (await buy(buyer.id, "react-fundamentals", made.code.toLowerCase())) as Order;
    // ₹6,999 less 20% is ₹5,599.20; GST at 18% inside it is ₹854.12, leaving ₹4,745.08 taxable, ₹1,186.28 less than ₹5,931.36.
    expect(order).toMatchObject({ amount: 559_920, taxableAmount: 474_508, taxAmount: 85_412, discountAmount: 118_628, couponId: made.id });
    expect((await buy(buyer.id, "react-fundamentals", made.code, order.idempotencyKey)).id).toBe(order.id);
    await payInTestSandbox(payments$, order);
    const invoice = await receiptView(suite.db, catalog, { id: buyer.id }, order.id);
    expect(invoice).toMatchObject({ amount: 559_920, taxableAmount: 474_508, discount: { code: made.code, amount: 118_628 } });
    expect((await listCoupons(suite.db)).find((c) => c.id === made.id)).toMatchObject({ paidUses: 1, label: "20% off" });
  });

  it("enrols at once when the coupon takes the whole price, with no payment and no invoice", async () => {
    const made = await createCoupon(suite.db, finance, coupon({ code: code("FREE"), kind: "amount", value: 10_000_000 }));
    const buyer = await suite.signUp("Farah Khan");
    const order = await buy(buyer.id, "react-fundamentals", made.code);
    expect(order).toMatchObject({ amount: 0, status: "paid", provider: "free", couponId: made.id });
    expect(await isEnrolled(suite.db, buyer.id, "react-fundamentals")).toBe(true);
  });

  it("refuses a coupon before its first day, after its last, or once turned off, and changes nothing", async () => {
    const buyer = await suite.signUp("Leela Nair");
    const later = await createCoupon(suite.db, finance, coupon({ code: code("LATER"), startsAt: new Date(Date.now() + 2 * day) }));
    const over = await createCoupon(suite.db, finance, coupon({ code: code("OVER"), startsAt: new Date(Date.now() - 3 * day), endsAt: new Date(Date.now() - day) }));
    const off = await createCoupon(suite.db, finance, coupon({ code: code("OFF") }));
    expect(await disableCoupon(suite.db, finance, off.id)).toBe(`${off.code} is off: checkout refuses it from now on.`);
    expect(await disableCoupon(suite.db, finance, off.id)).toBe(`${off.code} is off already.`);
    await expect(buy(buyer.id, "react-fundamentals", later.code)).rejects.toThrow(new RegExp(`^The coupon ${later.code} can be used from \\d{1,2} \\w+ \\d{4}\\.$`));
    await expect(buy(buyer.id, "react-fundamentals", over.code)).rejects.toThrow(new RegExp(`^The coupon ${over.code} expired on \\d{1,2} \\w+ \\d{4}\\.$`));
    await expect(buy(buyer.id, "react-fundamentals", off.code)).rejects.toThrow(`There is no coupon ${off.code}. Check the code, or pay the full price.`);
    await expect(buy(buyer.id, "react-fundamentals", "NO-SUCH-CODE")).rejects.toThrow("There is no coupon NO-SUCH-CODE. Check the code, or pay the full price.");
    expect(await suite.db.select().from(orders).where(eq(orders.userId, buyer.id))).toEqual([]);
  });

  it("counts a person's uses: a paid order uses it, coming back to pay the same course again does not", async () => {
    const made = await createCoupon(suite.db, finance, coupon({ code: code("ONCE") }));
    const buyer = await suite.signUp("Rahul Dev");
    const first = (await buy(buyer.id, "react-fundamentals", made.code)) as Order;
    // The checkout was closed; a new visit to the same course's page takes the coupon again.
    const again = (await buy(buyer.id, "react-fundamentals", made.code)) as Order;
    expect(again.id).toBe(first.id);
    await payInTestSandbox(payments$, again);
    await expect(buy(buyer.id, "node-backend", made.code)).rejects.toThrow(`You have used the coupon ${made.code} already.`);
  });

  it("gives a coupon's last use to one of two buyers at the same moment", async () => {
    const made = await createCoupon(suite.db, finance, coupon({ code: code("LAST"), maxUses: 1 }));
    const [a, b] = await Promise.all([suite.signUp("First Buyer"), suite.signUp("Second Buyer")]);
    const results = await Promise.allSettled([buy(a.id, "react-fundamentals", made.code), buy(b.id, "react-fundamentals", made.code)]);
    expect(results.map((r) => r.status).toSorted()).toEqual(["fulfilled", "rejected"]);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect((refused.reason as Error).message).toBe(`The coupon ${made.code} has been used up.`);
    expect(await suite.db.select({ id: orders.id }).from(orders).where(eq(orders.couponId, made.id))).toHaveLength(1);
    expect(await suite.db.select({ id: coupons.id }).from(coupons).where(eq(coupons.id, made.id))).toHaveLength(1);
  });

  it("takes a hosting coupon off a website's period, and keeps each coupon to what it is for", async () => {
    const hosting = await createCoupon(suite.db, finance, coupon({ code: code("HOST"), kind: "amount", value: 20_000, appliesTo: "hosting" }));
    const courses = await createCoupon(suite.db, finance, coupon({ code: code("LEARN") }));
    const everything = await createCoupon(suite.db, finance, coupon({ code: code("ALL"), kind: "percent", value: 100, appliesTo: "both" }));
    const owner = await suite.signUp("Tara Sen");
    const site = await startWebsite(suite.db, catalog, { userId: owner.id, serviceId: "website-hosting", planId: "starter-monthly", domain: `tara-${randomBytes(3).toString("hex")}.example.in` });
    const host = (couponCode: string) => createHostingOrder(payments$.shop, { userId: owner.id, websiteId: site.id, planId: "starter-monthly", idempotencyKey: key(), couponCode });

    await expect(host(courses.code)).rejects.toThrow(`The coupon ${courses.code} is for courses only.`);
    await expect(buy(owner.id, "react-fundamentals", hosting.code)).rejects.toThrow(`The coupon ${hosting.code} is for website hosting only.`);
    // A hosting period is always paid for: a coupon that takes the whole price is refused for it.
    await expect(host(everything.code)).rejects.toThrow(`The coupon ${everything.code} takes the whole price, and a hosting period cannot be free: write to us and we will sort it out.`);
    const order = await host(hosting.code);
    // ₹1,499 less ₹200 is ₹1,299, GST at 18% inside it.
    expect(order).toMatchObject({ amount: 129_900, taxableAmount: 110_085, taxAmount: 19_815, couponId: hosting.id, discountAmount: 127_034 - 110_085 });
  });
});
