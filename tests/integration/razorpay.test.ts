import { randomBytes } from "node:crypto";
import { formatCreditNoteNumber, formatOrderNumber } from "../../common/format.ts";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCatalog, type Catalog } from "../../server/catalog/index.ts";
import { completeCheckout } from "../../server/commerce/checkout.ts";
import { createOrder, type Order } from "../../server/commerce/orders.ts";
import { priceBreakdown } from "../../server/commerce/pricing.ts";
import { gstRegister, type RegisterRow } from "../../server/commerce/register.ts";
import { requestRefund } from "../../server/commerce/refunds.ts";
import type { Shop } from "../../server/commerce/shop.ts";
import { handleWebhook } from "../../server/commerce/webhooks.ts";
import { enrolments, orders, payments, refunds } from "../../server/db/schema.ts";
import { ServiceUnavailable, ValidationError } from "../../server/errors.ts";
import { createLogger } from "../../server/logger.ts";
import { listMailbox } from "../../server/mail/outbox.ts";
import { createRazorpayProvider } from "../../server/payments/razorpay.ts";
import { paymentSignature, webhookSignature } from "../../server/payments/signature.ts";
import { checkOrderWithProvider, listAudit, refundOrderOutsidePolicy, staffOrder, type Actor } from "../../server/staff/index.ts";
import { start, type FakeRazorpay } from "../support/razorpay-api.ts";
import { contentDir, databaseKinds, identitySuite } from "./helpers.ts";

const keyId = "rzp_test_Ac4dEmyT3stK3y";
const keySecret = "razorpay-key-secret-for-tests";
const webhookSecret = "razorpay-webhook-secret-for-tests";
const courseId = "react-fundamentals";

let catalog: Catalog;
beforeAll(async () => {
  catalog = await loadCatalog(contentDir);
});

const token = () => randomBytes(12).toString("hex");

describe.each(databaseKinds)("Razorpay checkout on $name", ({ open }) => {
  const suite = identitySuite(open, () => catalog);
  let fake: FakeRazorpay;
  let shop: Shop;

  const shopWith = (secret: string): Shop => ({
    db: suite.db,
    provider: createRazorpayProvider({ keyId, keySecret: secret, webhookSecret, apiUrl: fake.url }),
    catalog: () => catalog,
    publicUrl: "http://academy.test",
    logger: createLogger("silent"),
    mailQueued: () => {},
    now: () => new Date(),
  });

  beforeAll(async () => {
    fake = await start({ keyId, keySecret });
    shop = shopWith(keySecret);
  });
  afterAll(() => fake.close());

  const signUp = () => suite.signUp("Meera Iyer");

  async function newOrder(userId: string, on: Shop = shop): Promise<Order & { providerOrderId: string }> {
    const order = await createOrder(on, { userId, courseId, idempotencyKey: token() });
    expect(order.providerOrderId).toMatch(/^order_[A-Za-z0-9]{14}$/);
    return order as Order & { providerOrderId: string };
  }

  async function paidOrder(userId: string) {
    const order = await newOrder(userId);
    const payment = fake.pay(order.providerOrderId, { method: "card", outcome: "captured" });
    const signature = paymentSignature(keySecret, order.providerOrderId, payment.id);
    await completeCheckout(shop, { kind: "success", orderId: order.providerOrderId, paymentId: payment.id, signature });
    return { order, payment };
  }

  const orderRow = async (id: string) => (await suite.db.select().from(orders).where(eq(orders.id, id)))[0];
  const paymentRows = (orderId: string) => suite.db.select().from(payments).where(eq(payments.orderId, orderId));
  const enrolmentRows = (userId: string) =>
    suite.db.select().from(enrolments).where(and(eq(enrolments.userId, userId), eq(enrolments.courseId, courseId)));
  const mailsTo = async (email: string, subject: string) => (await listMailbox(suite.db, email)).filter((m) => m.subject.includes(subject));

  it("creates the Razorpay order with our key, the price from content and our order id as the receipt", async () => {
    const buyer = await signUp();
    const order = await newOrder(buyer.id);
    const course = catalog.courses.find((c) => c.id === courseId);
    const price = priceBreakdown(course?.price ?? { amount: 0, currency: "INR" }, catalog.site.tax);
    expect(price.total).toBeGreaterThan(0);

    const request = fake.requests.findLast((r) => r.method === "POST" && r.path === "/v1/orders");
    expect(request).toMatchObject({
      status: 200,
      authorization: `Basic ${Buffer.from(`${keyId}:${keySecret}`).toString("base64")}`,
      body: { amount: price.total, currency: price.currency, receipt: order.id, notes: { order_id: order.id, course_id: courseId } },
    });
    expect(order).toMatchObject({ status: "created", amount: price.total, provider: "razorpay" });
    expect(await orderRow(order.id)).toMatchObject({ providerOrderId: order.providerOrderId });
    const held = await fetch(`${fake.url}/v1/orders/${order.providerOrderId}`, { headers: { authorization: request?.authorization ?? "" } });
    expect(await held.json()).toMatchObject({ entity: "order", status: "created", amount: price.total, amount_due: price.total, receipt: order.id });
  });

  it("fails the order, says the provider could not be reached and enrols nobody when Razorpay refuses our key", async () => {
    const buyer = await signUp();
    const idempotencyKey = token();
    const attempt = createOrder(shopWith("not-the-key-secret"), { userId: buyer.id, courseId, idempotencyKey });
    await expect(attempt).rejects.toBeInstanceOf(ServiceUnavailable);
    expect(fake.requests.at(-1)).toMatchObject({ path: "/v1/orders", status: 401 });

    const [order] = await suite.db.select().from(orders).where(and(eq(orders.userId, buyer.id), eq(orders.idempotencyKey, idempotencyKey)));
    expect(order).toMatchObject({ status: "failed", providerOrderId: null, failureReason: expect.stringContaining("Nothing was charged") });
    expect(await enrolmentRows(buyer.id)).toEqual([]);
  });

  it("marks the order paid and enrols the buyer once the signed callback arrives", async () => {
    const buyer = await signUp();
    const order = await newOrder(buyer.id);
    const payment = fake.pay(order.providerOrderId, { method: "upi", outcome: "captured" });
    const result = await completeCheckout(shop, {
      kind: "success",
      orderId: order.providerOrderId,
      paymentId: payment.id,
      signature: paymentSignature(keySecret, order.providerOrderId, payment.id),
    });

    expect(result.outcome).toBe("fulfilled");
    expect(result.order).toMatchObject({ status: "paid", failureReason: null });
    expect(result.order.paidAt).toBeInstanceOf(Date);
    expect(fake.requests.at(-1)).toMatchObject({ method: "GET", path: `/v1/payments/${payment.id}`, status: 200 });
    expect(await paymentRows(order.id)).toEqual([
      expect.objectContaining({ providerPaymentId: payment.id, status: "captured", method: "upi", amount: order.amount, currency: "INR" }),
    ]);
    expect(await enrolmentRows(buyer.id)).toEqual([expect.objectContaining({ status: "active", orderId: order.id })]);
    const receipts = await mailsTo(buyer.email, "Your receipt for");
    expect(receipts).toHaveLength(1);
    expect(receipts[0]?.text).toContain(payment.id);
  });

  it("rejects a callback with a forged signature and changes nothing", async () => {
    const buyer = await signUp();
    const order = await newOrder(buyer.id);
    const payment = fake.pay(order.providerOrderId, { method: "card", outcome: "captured" });
    const forged = paymentSignature("a-guessed-secret", order.providerOrderId, payment.id);
    await expect(
      completeCheckout(shop, { kind: "success", orderId: order.providerOrderId, paymentId: payment.id, signature: forged }),
    ).rejects.toBeInstanceOf(ValidationError);

    expect(await orderRow(order.id)).toMatchObject({ status: "created", paidAt: null });
    expect(await paymentRows(order.id)).toEqual([]);
    expect(await enrolmentRows(buyer.id)).toEqual([]);
    expect(await mailsTo(buyer.email, "Your receipt for")).toEqual([]);
  });

  it("fails the order with the bank's reason in plain words when Razorpay confirms the payment failed", async () => {
    const buyer = await signUp();
    const order = await newOrder(buyer.id);
    const payment = fake.pay(order.providerOrderId, { method: "netbanking", outcome: "failed" });
    expect(payment.error_source).toBe("bank");
    const result = await completeCheckout(shop, { kind: "failure", orderId: order.providerOrderId, paymentId: payment.id });

    expect(result.outcome).toBe("failed");
    expect(result.order).toMatchObject({ status: "failed", failureReason: "Your bank declined the payment. Nothing was charged.", paidAt: null });
    expect(await paymentRows(order.id)).toEqual([
      expect.objectContaining({ providerPaymentId: payment.id, status: "failed", method: "netbanking", failureCode: "BAD_REQUEST_ERROR" }),
    ]);
    expect(await enrolmentRows(buyer.id)).toEqual([]);
  });

  it("completes an order whose browser never came back when the signed payment.captured webhook arrives, once", async () => {
    const buyer = await signUp();
    const order = await newOrder(buyer.id);
    const payment = fake.pay(order.providerOrderId, { method: "wallet", outcome: "captured" });
    const rawBody = fake.webhookBody("payment.captured", { payment });
    const delivery = { rawBody, signature: webhookSignature(webhookSecret, rawBody), eventId: `evt_${token()}` };

    expect(await handleWebhook(shop, delivery)).toEqual({ status: 200, message: "fulfilled" });
    expect(await orderRow(order.id)).toMatchObject({ status: "paid" });
    expect(await paymentRows(order.id)).toEqual([expect.objectContaining({ status: "captured", method: "wallet" })]);
    expect(await enrolmentRows(buyer.id)).toEqual([expect.objectContaining({ status: "active", orderId: order.id })]);

    expect(await handleWebhook(shop, delivery)).toEqual({ status: 200, message: "Already handled." });
    expect(await mailsTo(buyer.email, "Your receipt for")).toHaveLength(1);
  });

  it("refuses a payment.captured webhook signed with another secret", async () => {
    const buyer = await signUp();
    const order = await newOrder(buyer.id);
    const payment = fake.pay(order.providerOrderId, { method: "card", outcome: "captured" });
    const rawBody = fake.webhookBody("payment.captured", { payment });
    const answer = await handleWebhook(shop, { rawBody, signature: webhookSignature("another-secret", rawBody), eventId: `evt_${token()}` });

    expect(answer).toEqual({ status: 400, message: "Invalid webhook signature." });
    expect(await orderRow(order.id)).toMatchObject({ status: "created" });
  });

  it("asks Razorpay for a full refund, revokes access at once, and finishes the refund when refund.processed arrives", async () => {
    const buyer = await signUp();
    const { order, payment } = await paidOrder(buyer.id);

    const refund = await requestRefund(shop, buyer.id, order.id);
    const request = fake.requests.findLast((r) => r.method === "POST" && r.path === `/v1/payments/${payment.id}/refund`);
    expect(request).toMatchObject({ status: 200, body: { amount: order.amount, speed: "normal", notes: { refund_id: refund.id } } });
    expect(refund).toMatchObject({ status: "pending", amount: order.amount, providerRefundId: expect.stringMatching(/^rfnd_[A-Za-z0-9]{14}$/) });
    expect(await enrolmentRows(buyer.id)).toEqual([expect.objectContaining({ status: "revoked" })]);
    expect(await orderRow(order.id)).toMatchObject({ status: "paid" });
    expect(await mailsTo(buyer.email, "We have received your refund request")).toHaveLength(1);

    const processed = fake.processRefund(refund.providerRefundId ?? "");
    const refundedPayment = await shop.provider.fetchPayment(payment.id);
    expect(refundedPayment).toMatchObject({ status: "refunded", amount_refunded: order.amount });
    const rawBody = fake.webhookBody("refund.processed", { refund: processed, payment: refundedPayment });
    const answer = await handleWebhook(shop, { rawBody, signature: webhookSignature(webhookSecret, rawBody), eventId: `evt_${token()}` });

    expect(answer).toEqual({ status: 200, message: "processed" });
    expect(await orderRow(order.id)).toMatchObject({ status: "refunded", refundedAt: expect.any(Date) });
    expect(await paymentRows(order.id)).toEqual([expect.objectContaining({ status: "refunded", amountRefunded: order.amount })]);
    expect((await suite.db.select().from(refunds).where(eq(refunds.id, refund.id)))[0]).toMatchObject({
      status: "processed",
      processedAt: expect.any(Date),
    });
    expect(await enrolmentRows(buyer.id)).toEqual([expect.objectContaining({ status: "revoked" })]);
    const mails = await mailsTo(buyer.email, "has been processed");
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain(processed.id);
  });

  describe("staff checking an order with Razorpay", () => {
    const support: Actor = { id: null, name: "Ravi Support <ravi@example.com>", roles: ["support"], address: "203.0.113.7" };

    it("settles an order whose buyer never came back and whose webhooks never came, once however often it is checked", async () => {
      const buyer = await signUp();
      const order = await newOrder(buyer.id);
      const declined = fake.pay(order.providerOrderId, { method: "netbanking", outcome: "failed" });
      const taken = fake.pay(order.providerOrderId, { method: "upi", outcome: "captured" });
      expect(await orderRow(order.id)).toMatchObject({ status: "created" });

      expect(await checkOrderWithProvider(shop, support, order.id)).toBe("Razorpay took ₹6,999 by upi: the order is now paid and fulfilled, and the receipt is on its way.");
      expect(fake.requests.findLast((r) => r.path === `/v1/orders/${order.providerOrderId}/payments`)).toMatchObject({ method: "GET", status: 200 });
      expect(await orderRow(order.id)).toMatchObject({ status: "paid", paidAt: expect.any(Date) });
      expect((await paymentRows(order.id)).map((p) => [p.providerPaymentId, p.status]).toSorted()).toEqual(
        [
          [declined.id, "failed"],
          [taken.id, "captured"],
        ].toSorted(),
      );
      expect(await enrolmentRows(buyer.id)).toEqual([expect.objectContaining({ status: "active", orderId: order.id })]);

      // Asked again, and beside the late webhook: nothing more happens.
      const [again] = await Promise.all([
        checkOrderWithProvider(shop, support, order.id),
        handleWebhook(shop, (() => {
          const rawBody = fake.webhookBody("payment.captured", { payment: taken });
          return { rawBody, signature: webhookSignature(webhookSecret, rawBody), eventId: `evt_${token()}` };
        })()),
      ]);
      expect(again).toBe("Razorpay agrees with the order: it is paid. Nothing changed.");
      expect(await enrolmentRows(buyer.id)).toHaveLength(1);
      expect(await mailsTo(buyer.email, "Your receipt for")).toHaveLength(1);

      const { entries } = await listAudit(suite.db, { subjectId: order.id });
      expect(entries.map((e) => [e.action, e.actor, e.before, (e.after as { status: string }).status])).toEqual([
        ["order.check-provider", support.name, { status: "paid" }, "paid"],
        ["order.check-provider", support.name, { status: "created" }, "paid"],
      ]);
      const seen = await staffOrder(suite.db, order.id);
      expect(seen?.timeline.map((event) => event.what)).toEqual(
        expect.arrayContaining(["Order created", "Payment failed", "Payment captured", "Marked paid", "Course opened to the buyer", "Staff: order.check-provider"]),
      );
      expect(seen?.timeline[0]?.what).toBe("Order created");
      // The late webhook is on the timeline, with what handling it did (nothing more: the order was paid).
      expect(seen?.timeline.filter((event) => event.what.startsWith("Webhook"))).toEqual([{ at: expect.any(Date), what: "Webhook payment.captured received", detail: expect.stringMatching(/\S/) }]);
    });

    it("says when Razorpay has no payment or only failed ones, and changes nothing", async () => {
      const buyer = await signUp();
      const order = await newOrder(buyer.id);
      expect(await checkOrderWithProvider(shop, support, order.id)).toBe("Razorpay has no payment for this order: the buyer has not paid, or is paying now. Nothing changed.");
      expect(await orderRow(order.id)).toMatchObject({ status: "created" });
      fake.pay(order.providerOrderId, { method: "card", outcome: "failed" });
      expect(await checkOrderWithProvider(shop, support, order.id)).toBe("Razorpay shows 1 failed attempt and no money taken. Nothing to fulfil.");
      expect(await orderRow(order.id)).toMatchObject({ status: "failed" });
      expect(await enrolmentRows(buyer.id)).toEqual([]);
    });

    it("says the provider did not answer, and changes and records nothing, when Razorpay refuses our key", async () => {
      const buyer = await signUp();
      const order = await newOrder(buyer.id);
      fake.pay(order.providerOrderId, { method: "card", outcome: "captured" });
      const failing = checkOrderWithProvider(shopWith("a-wrong-secret"), support, order.id);
      await expect(failing).rejects.toThrow(ServiceUnavailable);
      await expect(failing).rejects.toThrow("The payment provider did not answer, so nothing changed. Try again in a minute.");
      expect(await orderRow(order.id)).toMatchObject({ status: "created" });
      expect((await listAudit(suite.db, { subjectId: order.id })).entries).toEqual([]);
    });

    it("refunds a whole order outside the policy for finance, with the reason in the audit log, once, and the credit note when Razorpay confirms it", async () => {
      const finance: Actor = { id: null, name: "Meena Finance <meena@example.com>", roles: ["finance"], address: "203.0.113.8" };
      const buyer = await signUp();
      const { order, payment } = await paidOrder(buyer.id);
      // Paid two months ago: the policy's window has closed, so the buyer cannot ask.
      await suite.db.update(orders).set({ paidAt: new Date(Date.now() - 60 * 86_400_000) }).where(eq(orders.id, order.id));
      await expect(requestRefund(shop, buyer.id, order.id)).rejects.toThrow(/the window for this order closed/);

      await expect(refundOrderOutsidePolicy(shop, finance, order.id, { reason: "  too short ", amount: null })).rejects.toThrow(
        "Say why this order is refunded outside the policy, in 10 to 500 characters.",
      );
      expect(await suite.db.select().from(refunds).where(eq(refunds.orderId, order.id))).toEqual([]);

      const reason = "The course's live sessions were cancelled; goodwill refund agreed by phone.";
      expect(await refundOrderOutsidePolicy(shop, finance, order.id, { reason, amount: null })).toBe(
        "The refund of ₹6,999 is on its way: the provider confirms it when the bank has made it, and the buyer is mailed then.",
      );
      expect(fake.requests.findLast((r) => r.method === "POST" && r.path === `/v1/payments/${payment.id}/refund`)).toMatchObject({ status: 200, body: { amount: order.amount } });
      expect(await enrolmentRows(buyer.id)).toEqual([expect.objectContaining({ status: "revoked" })]);
      expect(await mailsTo(buyer.email, `We are refunding order`)).toHaveLength(1);
      expect(await refundOrderOutsidePolicy(shop, finance, order.id, { reason, amount: null })).toBe("This order has a refund already (pending, ₹6,999); nothing more was done.");

      const [entry, ...others] = (await listAudit(suite.db, { subjectId: order.id, action: "order.refund" })).entries;
      expect(others).toEqual([]);
      expect(entry).toMatchObject({ actor: finance.name, actorRoles: ["finance"], reason, before: { status: "paid", paid: order.amount }, after: { refund: order.amount, whole: true, outsidePolicy: true } });

      const [refund] = await suite.db.select().from(refunds).where(eq(refunds.orderId, order.id));
      const processed = fake.processRefund(refund?.providerRefundId ?? "");
      const rawBody = fake.webhookBody("refund.processed", { refund: processed, payment: await shop.provider.fetchPayment(payment.id) });
      expect(await handleWebhook(shop, { rawBody, signature: webhookSignature(webhookSecret, rawBody), eventId: `evt_${token()}` })).toEqual({ status: 200, message: "processed" });
      expect(await orderRow(order.id)).toMatchObject({ status: "refunded" });
      expect((await suite.db.select().from(refunds).where(eq(refunds.orderId, order.id)))[0]?.creditNoteNumber).toEqual(expect.any(Number));
      // A refund's webhook names the payment only; it is on the order's timeline all the same.
      const refundOnly = fake.webhookBody("refund.processed", { refund: processed });
      await handleWebhook(shop, { rawBody: refundOnly, signature: webhookSignature(webhookSecret, refundOnly), eventId: `evt_${token()}` });
      const deliveries = (await staffOrder(suite.db, order.id))?.timeline.filter((event) => event.what.startsWith("Webhook")) ?? [];
      expect(deliveries.map((event) => [event.what, event.detail])).toEqual([
        ["Webhook refund.processed received", "processed"],
        ["Webhook refund.processed received", expect.stringMatching(/\S/)],
      ]);
    });

    it("refunds part of an order as goodwill: the buyer keeps the course, the order stays paid, and the credit note states the part with its share of GST", async () => {
      const finance: Actor = { id: null, name: "Meena Finance <meena@example.com>", roles: ["finance"], address: "203.0.113.8" };
      const buyer = await signUp();
      const { order, payment } = await paidOrder(buyer.id);
      const reason = "Two live sessions were cancelled; ₹2,000 back as agreed on the phone.";
      for (const amount of [0, 50, order.amount + 100]) {
        await expect(refundOrderOutsidePolicy(shop, finance, order.id, { reason, amount })).rejects.toThrow("A refund is of ₹1 to ₹6,999, the amount paid for this order.");
      }
      expect(await suite.db.select().from(refunds).where(eq(refunds.orderId, order.id))).toEqual([]);
      expect((await listAudit(suite.db, { subjectId: order.id })).entries).toEqual([]);

      expect(await refundOrderOutsidePolicy(shop, finance, order.id, { reason, amount: 200_000 })).toMatch(/^The refund of ₹2,000 is on its way/);
      expect(fake.requests.findLast((r) => r.method === "POST" && r.path === `/v1/payments/${payment.id}/refund`)).toMatchObject({ status: 200, body: { amount: 200_000 } });
      expect(await enrolmentRows(buyer.id)).toEqual([expect.objectContaining({ status: "active" })]);
      const [requested] = await mailsTo(buyer.email, "We are refunding order");
      expect(requested?.text).toContain("It is part of what you paid, as goodwill: you keep the course.");

      const [refund] = await suite.db.select().from(refunds).where(eq(refunds.orderId, order.id));
      const processed = fake.processRefund(refund?.providerRefundId ?? "");
      const rawBody = fake.webhookBody("refund.processed", { refund: processed, payment: await shop.provider.fetchPayment(payment.id) });
      expect(await handleWebhook(shop, { rawBody, signature: webhookSignature(webhookSecret, rawBody), eventId: `evt_${token()}` })).toEqual({ status: 200, message: "processed" });
      expect(await orderRow(order.id)).toMatchObject({ status: "paid", refundedAt: null });
      expect(await enrolmentRows(buyer.id)).toEqual([expect.objectContaining({ status: "active" })]);
      const [made] = await suite.db.select().from(refunds).where(eq(refunds.orderId, order.id));
      // 106,764 paise of GST on ₹6,999: its share of ₹2,000 is 30,508.
      expect(made).toMatchObject({ status: "processed", amount: 200_000, taxableAmount: 169_492, taxAmount: 30_508, creditNoteNumber: expect.any(Number) });
      expect(await suite.db.select({ status: payments.status, amountRefunded: payments.amountRefunded }).from(payments).where(eq(payments.orderId, order.id))).toEqual([
        { status: "captured", amountRefunded: 200_000 },
      ]);
      const month = { from: new Date(Date.now() - 40 * 86_400_000), to: new Date(Date.now() + 86_400_000) };
      const rows: RegisterRow[] = [];
      for await (const row of gstRegister(suite.db, catalog.site, month)) rows.push(row);
      expect(rows.find((row) => row.documentNumber === formatCreditNoteNumber(made?.creditNoteNumber ?? 0))).toMatchObject({
        documentType: "Credit note",
        originalInvoice: formatOrderNumber(order.number),
        taxable: -169_492,
        cgst: -15_254,
        sgst: -15_254,
        total: -200_000,
      });

      // Refunded once: the buyer's own request, and finance's second, find the refund made.
      expect(await refundOrderOutsidePolicy(shop, finance, order.id, { reason, amount: null })).toBe("This order has a refund already (processed, ₹2,000); nothing more was done.");
      expect(await requestRefund(shop, buyer.id, order.id)).toMatchObject({ id: made?.id, amount: 200_000 });
      expect((await listAudit(suite.db, { subjectId: order.id, action: "order.refund" })).entries.map((e) => e.after)).toEqual([{ refund: 200_000, whole: false, outsidePolicy: true }]);
    });

    it("refuses to refund an order that was never paid, and writes nothing", async () => {
      const buyer = await signUp();
      const order = await newOrder(buyer.id);
      await expect(refundOrderOutsidePolicy(shop, support, order.id, { reason: "Customer asked for it on the phone.", amount: null })).rejects.toThrow("Only a paid order can be refunded.");
      expect((await listAudit(suite.db, { subjectId: order.id })).entries).toEqual([]);
    });

    it("refuses an order that never went through a provider, and one that does not exist", async () => {
      const buyer = await signUp();
      const [free] = await suite.db
        .insert(orders)
        .values({ userId: buyer.id, title: "A free introduction", courseId: "free-intro", currency: "INR", amount: 0, taxableAmount: 0, taxAmount: 0, taxRatePercent: 18, taxMode: "inclusive", status: "paid", provider: "free", idempotencyKey: token(), paidAt: new Date() })
        .returning();
      await expect(checkOrderWithProvider(shop, support, free?.id ?? "")).rejects.toThrow("This order was not paid through a payment provider: there is nothing to check.");
      await expect(checkOrderWithProvider(shop, support, "00000000-0000-4000-8000-000000000000")).rejects.toThrow("No order has this id.");
    });
  });

  it("answers an unknown payment id with Razorpay's error, which the provider reports", async () => {
    await expect(shop.provider.fetchPayment("pay_DoesNotExist00")).rejects.toThrow("Razorpay: 400 The id provided does not exist");
  });
});
