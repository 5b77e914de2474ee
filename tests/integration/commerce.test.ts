import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Catalog } from "../../server/catalog/index.ts";
import {
  cancelOrder,
  checkWithProvider,
  completeCheckout,
  createOrder,
  foldAttempts,
  getReceipt,
  handleWebhook,
  historyPageSize,
  listOrders,
  listOrdersWithEligibility,
  listPayments,
  pageOf,
  refundEligibility,
  requestRefund,
  type Order,
} from "../../server/commerce/index.ts";
import { certificates, enrolments, lessonProgress, mailOutbox, orders, payments, refunds, sandboxWebhooks, user, webhookEvents } from "../../server/db/schema.ts";
import { findCertificate, issueCertificate } from "../../server/learning/certificates.ts";
import { completeLesson } from "../../server/learning/completion.ts";
import { setLessonComplete } from "../../server/learning/player.ts";
import { receiptView } from "../../app/routes/account/receipt.server.ts";
import { createLogger } from "../../server/logger.ts";
import type { Payments } from "../../server/payments/index.ts";
import type { SandboxGateway } from "../../server/payments/sandbox.ts";
import { paymentSignature, webhookSignature } from "../../server/payments/signature.ts";
import { catalogWithFreeCourse, databaseKinds, deliverTestWebhooks, identitySuite, paidCourseOrderRows, payInTestSandbox, startTestPayments, testPaymentSecrets } from "./helpers.ts";

let catalog: Catalog;
beforeAll(async () => {
  catalog = await catalogWithFreeCourse();
});

const key = () => randomBytes(12).toString("hex");

/** A webhook body as Razorpay sends it, signed with the sandbox's webhook secret. */
function signedEvent(event: string, payload: object, eventId = `evt_${key()}`) {
  const rawBody = JSON.stringify({ entity: "event", account_id: "acc_test", event, contains: Object.keys(payload), payload, created_at: 1_790_000_000 });
  return { rawBody, signature: webhookSignature(testPaymentSecrets.webhookSecret, rawBody), eventId };
}
const course = "react-fundamentals";
const lessonIds = () => catalog.courses.find((c) => c.id === course)?.modules.flatMap((m) => m.lessons.map((l) => l.id)) ?? [];

describe.each(databaseKinds)("commerce on $name", ({ open }) => {
  const suite = identitySuite(open, () => catalog);
  let payments$: Payments;
  let sandbox: SandboxGateway;
  let clock = new Date();

  beforeAll(() => {
    payments$ = startTestPayments(suite.db, catalog, suite.identity, { now: () => clock });
    sandbox = payments$.sandbox as SandboxGateway;
  });

  const shop = () => payments$.shop;
  const db = () => suite.db;
  const buyer = () => suite.signUp();

  async function newOrder(userId: string, courseId = course): Promise<Order & { providerOrderId: string }> {
    const order = await createOrder(shop(), { userId, courseId, idempotencyKey: key() });
    return order as Order & { providerOrderId: string };
  }

  const payInSandbox = (order: Order & { providerOrderId: string }) => payInTestSandbox(payments$, order);
  const deliverAllWebhooks = () => deliverTestWebhooks(db(), payments$);

  const count = async (table: typeof payments | typeof enrolments | typeof mailOutbox, where: ReturnType<typeof eq>) =>
    (await db().select({ n: sql<number>`count(*)::int` }).from(table).where(where))[0]?.n ?? 0;

  const receipts = (email: string) => count(mailOutbox, and(eq(mailOutbox.to, email), sql`${mailOutbox.subject} like 'Your receipt for %'`) as ReturnType<typeof eq>);
  const activeEnrolments = (userId: string, courseId = course) =>
    count(enrolments, and(eq(enrolments.userId, userId), eq(enrolments.courseId, courseId), eq(enrolments.status, "active")) as ReturnType<typeof eq>);

  async function orderRow(id: string) {
    const [row] = await db().select().from(orders).where(eq(orders.id, id));
    return row as Order;
  }


  it("prices the order from content, GST included, whatever the browser sends", async () => {
    const { id } = await buyer();
    const order = await newOrder(id);
    expect(order).toMatchObject({ status: "created", amount: 699_900, taxableAmount: 593_136, taxAmount: 106_764, taxRatePercent: 18, currency: "INR" });
    expect(order.providerOrderId).toMatch(/^order_[A-Za-z0-9]{14}$/);
    const providerOrder = await sandbox.findOrder(order.providerOrderId);
    expect(providerOrder).toMatchObject({ amount: 699_900, currency: "INR", receipt: order.id });
  });

  it("returns the same order when the same form is submitted twice", async () => {
    const { id } = await buyer();
    const idempotencyKey = key();
    const [a, b] = await Promise.all([
      createOrder(shop(), { userId: id, courseId: course, idempotencyKey }),
      createOrder(shop(), { userId: id, courseId: course, idempotencyKey }),
    ]);
    expect(b.id).toBe(a.id);
    const again = await createOrder(shop(), { userId: id, courseId: course, idempotencyKey });
    expect(again.id).toBe(a.id);
    expect((await db().select().from(orders).where(eq(orders.userId, id))).length).toBe(1);
  });

  it("rejects an unknown course, a malformed GSTIN and a stale form with clear messages", async () => {
    const { id } = await buyer();
    await expect(createOrder(shop(), { userId: id, courseId: "no-such-course", idempotencyKey: key() })).rejects.toMatchObject({ status: 404, message: "We could not find that course." });
    await expect(createOrder(shop(), { userId: id, courseId: course, idempotencyKey: key(), buyerGstin: "12345" })).rejects.toMatchObject({ status: 400, message: expect.stringContaining("GSTIN") });
    await expect(createOrder(shop(), { userId: id, courseId: course, idempotencyKey: "x" })).rejects.toMatchObject({ status: 400 });
    expect((await db().select().from(orders).where(eq(orders.userId, id))).length).toBe(0);
    const withGstin = await createOrder(shop(), { userId: id, courseId: course, idempotencyKey: key(), buyerGstin: " 29abcde1234f1z5 " });
    expect(withGstin.buyerGstin).toBe("29ABCDE1234F1Z5");
  });

  it("enrols in a free course at once, with no payment", async () => {
    const { id } = await buyer();
    const order = await createOrder(shop(), { userId: id, courseId: "free-intro", idempotencyKey: key() });
    expect(order).toMatchObject({ status: "paid", amount: 0, provider: "free", providerOrderId: null });
    expect(await activeEnrolments(id, "free-intro")).toBe(1);
    await expect(createOrder(shop(), { userId: id, courseId: "free-intro", idempotencyKey: key() })).rejects.toMatchObject({ status: 409, message: "You already own this course." });
  });

  it("settles, once, a sandbox payment whose callback and webhooks never arrived when the provider is asked about the order", async () => {
    const { id, email } = await buyer();
    const order = await newOrder(id);
    await sandbox.pay(order.providerOrderId, { outcome: "decline", method: "card" });
    await sandbox.pay(order.providerOrderId, { outcome: "pay", method: "upi" });
    const check = await checkWithProvider(shop(), order.id);
    expect(check).toMatchObject({ before: "created", after: "paid" });
    expect(check.payments.map((p) => [p.status, p.outcome])).toEqual([
      ["failed", "failed"],
      ["captured", "fulfilled"],
    ]);
    expect(await activeEnrolments(id)).toBe(1);
    expect((await checkWithProvider(shop(), order.id)).payments.map((p) => p.outcome)).toEqual(["already-paid", "already-paid"]);
    // The webhooks arriving late change nothing either.
    await deliverAllWebhooks();
    expect(await activeEnrolments(id)).toBe(1);
    expect(await receipts(email)).toBe(1);
  });

  it("pays, enrols and sends one receipt in the transaction that verifies the signed callback", async () => {
    const { id, email } = await buyer();
    const order = await newOrder(id);
    const callback = await sandbox.pay(order.providerOrderId, { outcome: "pay", method: "upi" });
    const { order: paid, outcome } = await completeCheckout(shop(), {
      kind: "success",
      orderId: callback.razorpay_order_id as string,
      paymentId: callback.razorpay_payment_id as string,
      signature: callback.razorpay_signature as string,
    });
    expect(outcome).toBe("fulfilled");
    expect(paid.status).toBe("paid");
    expect(await activeEnrolments(id)).toBe(1);
    expect(await receipts(email)).toBe(1);
    const [payment] = await listPayments(db(), id);
    expect(payment).toMatchObject({ status: "captured", method: "upi", amount: 699_900, providerPaymentId: callback.razorpay_payment_id });
    await expect(createOrder(shop(), { userId: id, courseId: course, idempotencyKey: key() })).rejects.toMatchObject({ status: 409 });
  });

  it("replaying one webhook 100 times gives one enrolment, one payment row and one receipt", async () => {
    const { id, email } = await buyer();
    const order = await newOrder(id);
    const callback = await sandbox.pay(order.providerOrderId, { outcome: "pay", method: "card" });
    const payment = await sandbox.fetchPayment(callback.razorpay_payment_id as string);
    const delivery = signedEvent("payment.captured", { payment: { entity: { ...payment, entity: "payment" } } });
    const answers = await Promise.all(Array.from({ length: 100 }, () => handleWebhook(shop(), delivery)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers.filter((a) => a.message === "fulfilled")).toHaveLength(1);
    expect(await count(payments, eq(payments.userId, id))).toBe(1);
    expect(await activeEnrolments(id)).toBe(1);
    expect(await receipts(email)).toBe(1);
    expect((await orderRow(order.id)).status).toBe("paid");
  });

  it("fulfils exactly once when the browser callback and the webhook race", async () => {
    const { id, email } = await buyer();
    const order = await newOrder(id);
    const callback = await sandbox.pay(order.providerOrderId, { outcome: "pay", method: "netbanking" });
    const payment = await sandbox.fetchPayment(callback.razorpay_payment_id as string);
    const results = await Promise.all([
      completeCheckout(shop(), { kind: "success", orderId: order.providerOrderId, paymentId: payment.id, signature: callback.razorpay_signature as string }),
      handleWebhook(shop(), signedEvent("payment.captured", { payment: { entity: { ...payment, entity: "payment" } } })),
      handleWebhook(shop(), signedEvent("order.paid", { payment: { entity: { ...payment, entity: "payment" } } })),
    ]);
    const fulfilled = [results[0].outcome, results[1].message, results[2].message].filter((m) => m === "fulfilled");
    expect(fulfilled).toHaveLength(1);
    expect(await count(payments, eq(payments.userId, id))).toBe(1);
    expect(await activeEnrolments(id)).toBe(1);
    expect(await receipts(email)).toBe(1);
  });

  it("takes the sandbox's webhooks late, twice and out of order, and completes an order whose tab was closed", async () => {
    const { id, email } = await buyer();
    const order = await newOrder(id);
    const callback = await sandbox.pay(order.providerOrderId, { outcome: "pay", method: "wallet" });
    const queued = await db().select().from(sandboxWebhooks).where(sql`${sandboxWebhooks.body} like ${`%${callback.razorpay_payment_id}%`}`);
    expect(queued.map((q) => q.event).toSorted()).toEqual(["order.paid", "payment.authorized", "payment.captured", "payment.captured"]);
    const captured = queued.filter((q) => q.event === "payment.captured");
    expect(captured[0]?.eventId).toBe(captured[1]?.eventId);
    const authorized = queued.find((q) => q.event === "payment.authorized");
    expect(authorized && captured[0] && authorized.deliverAt > captured[0].deliverAt).toBe(true);

    expect(await deliverAllWebhooks()).toBeGreaterThanOrEqual(4);
    expect((await orderRow(order.id)).status).toBe("paid");
    const [row] = await db().select().from(payments).where(eq(payments.orderId, order.id));
    expect(row?.status).toBe("captured");
    expect(await activeEnrolments(id)).toBe(1);
    expect(await receipts(email)).toBe(1);
  });

  it("never lets a late 'authorized' undo 'captured', nor a failure undo a payment", async () => {
    const { id } = await buyer();
    const order = await newOrder(id);
    const callback = await sandbox.pay(order.providerOrderId, { outcome: "pay", method: "upi" });
    const payment = { ...(await sandbox.fetchPayment(callback.razorpay_payment_id as string)), entity: "payment" };
    await handleWebhook(shop(), signedEvent("payment.captured", { payment: { entity: payment } }));
    await handleWebhook(shop(), signedEvent("payment.authorized", { payment: { entity: { ...payment, status: "authorized" } } }));
    const failedAttempt = { ...payment, id: `pay_${key().slice(0, 14)}`, status: "failed", error_source: "bank", error_reason: "payment_failed" };
    await handleWebhook(shop(), signedEvent("payment.failed", { payment: { entity: failedAttempt } }));
    expect((await orderRow(order.id)).status).toBe("paid");
    const rows = await db().select().from(payments).where(eq(payments.orderId, order.id));
    expect(rows.map((r) => r.status).toSorted()).toEqual(["captured", "failed"]);
  });

  it("marks a declined payment failed with the bank's reason, enrols nothing, and honours a later capture", async () => {
    const { id, email } = await buyer();
    const order = await newOrder(id);
    const declined = await sandbox.pay(order.providerOrderId, { outcome: "decline", method: "card" });
    const metadata = JSON.parse(declined["error[metadata]"] as string) as { payment_id: string; order_id: string };
    const { order: failed } = await completeCheckout(shop(), { kind: "failure", orderId: metadata.order_id, paymentId: metadata.payment_id });
    expect(failed).toMatchObject({ status: "failed", failureReason: "Your bank declined the payment. Nothing was charged." });
    expect(await activeEnrolments(id)).toBe(0);
    expect(await receipts(email)).toBe(0);

    // Razorpay lets the buyer retry inside the same checkout: a capture on the order still completes it.
    const retry = await sandbox.pay(order.providerOrderId, { outcome: "pay", method: "upi" });
    const payment = await sandbox.fetchPayment(retry.razorpay_payment_id as string);
    await handleWebhook(shop(), signedEvent("payment.captured", { payment: { entity: { ...payment, entity: "payment" } } }));
    expect((await orderRow(order.id)).status).toBe("paid");
    expect(await activeEnrolments(id)).toBe(1);
  });

  it("does not trust an unsigned failure: the provider must say the payment failed", async () => {
    const { id } = await buyer();
    const order = await newOrder(id);
    const callback = await sandbox.pay(order.providerOrderId, { outcome: "pay", method: "upi" });
    const { order: after } = await completeCheckout(shop(), { kind: "failure", orderId: order.providerOrderId, paymentId: callback.razorpay_payment_id as string });
    expect(after.status).toBe("paid");
  });

  it("rejects a forged signature, a tampered amount and a malformed body, and changes nothing", async () => {
    const { id, email } = await buyer();
    const order = await newOrder(id);
    const callback = await sandbox.pay(order.providerOrderId, { outcome: "pay", method: "upi" });
    const paymentId = callback.razorpay_payment_id as string;
    await expect(
      completeCheckout(shop(), { kind: "success", orderId: order.providerOrderId, paymentId, signature: paymentSignature("not-our-secret", order.providerOrderId, paymentId) }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining("We could not verify this payment") });

    const payment = { ...(await sandbox.fetchPayment(paymentId)), entity: "payment" };
    const forged = signedEvent("payment.captured", { payment: { entity: payment } });
    expect(await handleWebhook(shop(), { ...forged, signature: webhookSignature("not-our-secret", forged.rawBody) })).toEqual({ status: 400, message: "Invalid webhook signature." });
    expect(await handleWebhook(shop(), { ...forged, signature: undefined })).toMatchObject({ status: 400 });

    const tampered = signedEvent("payment.captured", { payment: { entity: { ...payment, amount: 100 } } });
    expect(await handleWebhook(shop(), tampered)).toEqual({ status: 200, message: "amount-mismatch" });

    const notJson = "{ this is not json";
    expect(await handleWebhook(shop(), { rawBody: notJson, signature: webhookSignature(testPaymentSecrets.webhookSecret, notJson), eventId: key() })).toMatchObject({ status: 400 });
    const wrongShape = JSON.stringify({ entity: "event", event: "payment.captured", payload: { payment: { entity: { id: 42 } } } });
    expect(await handleWebhook(shop(), { rawBody: wrongShape, signature: webhookSignature(testPaymentSecrets.webhookSecret, wrongShape), eventId: key() })).toMatchObject({ status: 400 });

    expect((await orderRow(order.id)).status).toBe("created");
    expect(await activeEnrolments(id)).toBe(0);
    expect(await receipts(email)).toBe(0);
    const [seen] = await db().select().from(webhookEvents).where(eq(webhookEvents.id, forged.eventId));
    expect(seen).toBeUndefined();
  });

  it("answers 200 to events for orders that are not ours, and to events we do not handle", async () => {
    const entity = { id: "pay_NotOurs0000000", entity: "payment", order_id: "order_NotOurs000000", amount: 100, currency: "INR", status: "captured", method: "upi", created_at: 1 };
    expect(await handleWebhook(shop(), signedEvent("payment.captured", { payment: { entity } }))).toEqual({ status: 200, message: "unknown-order" });
    expect(await handleWebhook(shop(), signedEvent("payment.dispute.created", { payment: { entity } }))).toMatchObject({ status: 200 });
  });

  it("keeps every user's orders, payments, receipts and refunds their own", async () => {
    const a = await buyer();
    const b = await buyer();
    const order = await newOrder(a.id);
    await payInSandbox(order);

    const notFound = { status: 404, message: "We could not find that order." };
    await expect(getReceipt(db(), b.id, order.id)).rejects.toMatchObject(notFound);
    await expect(cancelOrder(shop(), b.id, order.id)).rejects.toMatchObject(notFound);
    await expect(requestRefund(shop(), b.id, order.id)).rejects.toMatchObject(notFound);
    expect(await listOrdersWithEligibility(db(), catalog, b.id, clock)).toEqual([]);
    expect(await listPayments(db(), b.id)).toEqual([]);
    expect(await activeEnrolments(b.id)).toBe(0);
    expect((await getReceipt(db(), a.id, order.id)).order.id).toBe(order.id);
    expect((await orderRow(order.id)).status).toBe("paid");
  });

  it("cancels only an order that is still waiting, and only for its owner", async () => {
    const { id } = await buyer();
    const other = await buyer();
    const order = await newOrder(id);
    await expect(cancelOrder(shop(), other.id, order.id)).rejects.toMatchObject({ status: 404 });
    expect((await cancelOrder(shop(), id, order.id)).status).toBe("cancelled");
    await payInSandbox(await newOrder(id));
    expect((await cancelOrder(shop(), id, order.id)).status).toBe("paid");
  });

  it("keeps one purchase one order: a declined payment, a closed window and a new form all reuse it", async () => {
    const { id } = await buyer();
    const first = await newOrder(id);
    const declined = await sandbox.pay(first.providerOrderId, { outcome: "decline", method: "card" });
    const metadata = JSON.parse(declined["error[metadata]"] as string) as { payment_id: string; order_id: string };
    await completeCheckout(shop(), { kind: "failure", orderId: metadata.order_id, paymentId: metadata.payment_id });
    expect((await orderRow(first.id)).status).toBe("failed");

    const again = await newOrder(id);
    expect(again).toMatchObject({ id: first.id, providerOrderId: first.providerOrderId, status: "created", failureReason: null });
    await cancelOrder(shop(), id, first.id);
    const third = await newOrder(id);
    expect(third.id).toBe(first.id);
    await payInSandbox(third);

    const mine = await db().select().from(orders).where(eq(orders.userId, id));
    expect(mine.map((o) => o.status)).toEqual(["paid"]);
    const attempts = await db().select().from(payments).where(eq(payments.orderId, first.id));
    expect(attempts.map((p) => p.status).toSorted()).toEqual(["captured", "failed"]);
    expect(await activeEnrolments(id)).toBe(1);
  });

  it("starts a new order when the price has changed since the unpaid one, abandoning it", async () => {
    const { id } = await buyer();
    const first = await newOrder(id);
    await db().update(orders).set({ amount: first.amount + 100 }).where(eq(orders.id, first.id));
    const second = await newOrder(id);
    expect(second.id).not.toBe(first.id);
    expect((await orderRow(first.id)).status).toBe("cancelled");
  });

  it("folds attempts that did not go through under the order they led to, on the orders page's list", async () => {
    const { id } = await buyer();
    const first = await newOrder(id);
    const declined = await sandbox.pay(first.providerOrderId, { outcome: "decline", method: "card" });
    const metadata = JSON.parse(declined["error[metadata]"] as string) as { payment_id: string; order_id: string };
    await completeCheckout(shop(), { kind: "failure", orderId: metadata.order_id, paymentId: metadata.payment_id });
    // An order from before a price change is not reused: it stays failed, as orders from before this rule did.
    await db().update(orders).set({ amount: first.amount + 100 }).where(eq(orders.id, first.id));
    const second = await newOrder(id);
    await cancelOrder(shop(), id, second.id);
    const third = await newOrder(id);
    expect(third.id).toBe(second.id);
    await payInSandbox(third);

    const folded = await foldAttempts(db(), await listOrders(db(), id));
    expect(folded.map((o) => [o.id, o.status])).toEqual([[second.id, "paid"]]);
    // Closing the window on the reused order tried no payment, so only the decline is an attempt.
    expect(folded[0]?.attempts.map((a) => a.reason)).toEqual(["Your bank declined the payment. Nothing was charged."]);
    // Another user's list is their own.
    expect(await foldAttempts(db(), await listOrders(db(), (await buyer()).id))).toEqual([]);
  });

  const certify = (userId: string) => issueCertificate({ db: db(), cipher: suite.identity.cipher, logger: createLogger("silent"), catalog }, userId, course);
  const certificatesOf = (userId: string) => db().select().from(certificates).where(eq(certificates.userId, userId));
  const refundsOf = (orderId: string) => db().select().from(refunds).where(eq(refunds.orderId, orderId));

  async function paidOrder() {
    const who = await buyer();
    const order = await newOrder(who.id);
    await payInSandbox(order);
    return { ...who, order: await orderRow(order.id) };
  }

  describe("refunds", () => {
    it("follows the policy: inside 7 days, under 25% progress at its furthest, no certificate, first purchase only", () => {
      const policy = catalog.site.refund;
      const paidAt = new Date("2026-11-01T10:00:00Z");
      const order = { status: "paid" as const, paidAt, amount: 100 };
      const fresh = { furthestPercent: 0, certificateIssued: false, refundedBefore: false };
      expect(refundEligibility(order, { now: new Date("2026-11-08T09:59:59Z"), use: { ...fresh, furthestPercent: 24 }, policy })).toMatchObject({ eligible: true });
      expect(refundEligibility(order, { now: new Date("2026-11-08T10:00:00Z"), use: fresh, policy })).toEqual({
        eligible: false,
        reason: "Refunds are available for 7 days after purchase; the window for this order closed on 8 November 2026.",
      });
      expect(refundEligibility(order, { now: paidAt, use: { ...fresh, furthestPercent: 25 }, policy })).toEqual({
        eligible: false,
        reason: "You have completed 25% of this course (lessons marked complete count even if you un-mark them later); refunds are available until 25%.",
      });
      expect(refundEligibility(order, { now: paidAt, use: { ...fresh, certificateIssued: true }, policy })).toEqual({
        eligible: false,
        reason: "You have been issued a certificate for this course, so it can no longer be refunded.",
      });
      expect(refundEligibility(order, { now: paidAt, use: { ...fresh, refundedBefore: true }, policy })).toEqual({
        eligible: false,
        reason: "You were refunded for this course before, so buying it again is not refundable.",
      });
      expect(refundEligibility({ ...order, status: "failed" }, { now: paidAt, use: fresh, policy }).eligible).toBe(false);
    });

    it("corrects a refunded invoice with a credit note numbered in its own series, once, and leaves the invoice as it was issued", async () => {
      const first = await paidOrder();
      const second = await paidOrder();
      const before = await receiptView(db(), catalog, { id: first.id }, first.order.id);
      expect(before.creditNote).toBeNull();
      await requestRefund(shop(), first.id, first.order.id);
      await deliverAllWebhooks();
      await requestRefund(shop(), second.id, second.order.id);
      await deliverAllWebhooks();
      // A webhook delivered again changes nothing.
      await deliverAllWebhooks();
      const [one] = await refundsOf(first.order.id);
      const [two] = await refundsOf(second.order.id);
      expect(one?.creditNoteNumber).toEqual(expect.any(Number));
      expect(two?.creditNoteNumber).toBe((one?.creditNoteNumber ?? 0) + 1);

      const after = await receiptView(db(), catalog, { id: first.id }, first.order.id);
      const { creditNote, status, ...invoice } = after;
      const { creditNote: none, status: paid, ...issued } = before;
      expect([none, paid, status]).toEqual([null, "paid", "refunded"]);
      expect(invoice).toEqual(issued);
      expect(creditNote).toMatchObject({ number: `CN-${String(one?.creditNoteNumber).padStart(6, "0")}`, providerRefundId: one?.providerRefundId });
      // Another buyer's credit note is not found.
      await expect(receiptView(db(), catalog, { id: second.id }, first.order.id)).rejects.toMatchObject({ status: 404 });
    });

    it("refunds through the provider: access ends at once, the order becomes refunded when the provider confirms, mails at each step", async () => {
      const { id, email, order } = await paidOrder();
      const refund = await requestRefund(shop(), id, order.id);
      expect(refund).toMatchObject({ status: "pending", amount: 699_900 });
      expect(refund.providerRefundId).toMatch(/^rfnd_/);
      expect(await activeEnrolments(id)).toBe(0);
      expect((await orderRow(order.id)).status).toBe("paid");
      const mails = async () => (await db().select({ subject: mailOutbox.subject }).from(mailOutbox).where(eq(mailOutbox.to, email))).map((m) => m.subject);
      expect(await mails()).toContainEqual(expect.stringMatching(/^We have received your refund request/));

      // Asking again while it is under way changes nothing.
      expect((await requestRefund(shop(), id, order.id)).id).toBe(refund.id);
      await deliverAllWebhooks();
      expect((await orderRow(order.id)).status).toBe("refunded");
      const [row] = await db().select().from(refunds).where(eq(refunds.id, refund.id));
      expect(row).toMatchObject({ status: "processed" });
      const [payment] = await listPayments(db(), id);
      expect(payment).toMatchObject({ status: "refunded", amountRefunded: 699_900 });
      expect((await mails()).filter((s) => s.startsWith("Your refund of ₹6,999 has been processed"))).toHaveLength(1);
      await expect(requestRefund(shop(), id, order.id)).resolves.toMatchObject({ status: "processed" });

      // Buying again after a refund gives access again.
      const again = await newOrder(id);
      await payInSandbox(again);
      expect(await activeEnrolments(id)).toBe(1);
    });

    it("refuses a refund after the window or past the progress limit, and changes nothing", async () => {
      const late = await paidOrder();
      clock = new Date(Date.now() + 8 * 24 * 60 * 60 * 1000);
      try {
        await expect(requestRefund(shop(), late.id, late.order.id)).rejects.toMatchObject({ status: 400, message: expect.stringContaining("Refunds are available for 7 days") });
      } finally {
        clock = new Date();
      }
      const studious = await paidOrder();
      const lessons = catalog.courses.find((c) => c.id === course)?.modules.flatMap((m) => m.lessons) ?? [];
      const quarter = lessons.slice(0, Math.ceil(lessons.length / 4));
      await db().insert(lessonProgress).values(quarter.map((l) => ({ userId: studious.id, courseId: course, lessonId: l.id })));
      await expect(requestRefund(shop(), studious.id, studious.order.id)).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/You have completed \d+% of this course/) });
      for (const who of [late, studious]) {
        expect(await activeEnrolments(who.id)).toBe(1);
        expect((await db().select().from(refunds).where(eq(refunds.orderId, who.order.id))).length).toBe(0);
      }
    });
  });

  describe("refunds and finished courses", () => {
    it("tells the learner before the lesson that would end their refund, and completes it only once they accept", async () => {
      const { id, order } = await paidOrder();
      const ids = lessonIds();
      // The last lesson still under the limit, then the one that reaches it.
      const under = ids.slice(0, Math.ceil((ids.length * catalog.site.refund.maxProgressPercent) / 100) - 1);
      const crossing = ids[under.length] as string;
      const complete = (lessonId: string, options: { acceptRefundLimit?: boolean; now: Date }) =>
        completeLesson(db(), catalog, id, { courseId: course, lessonId, complete: true }, options);
      for (const lessonId of under) await complete(lessonId, { now: clock });
      await expect(complete(crossing, { now: clock })).rejects.toMatchObject({
        status: 409,
        message: expect.stringMatching(/^Completing this lesson takes you to 2\d% of the course\. Refunds are available until 25% is completed/),
      });
      const [before] = await listOrdersWithEligibility(db(), catalog, id, clock);
      expect(before?.refundEligibility).toMatchObject({ eligible: true });
      const state = await complete(crossing, { now: clock, acceptRefundLimit: true });
      expect(state.completed.has(crossing)).toBe(true);
      // Past the limit there is no refund to lose, so nothing more is asked.
      await complete(ids[under.length + 1] as string, { now: clock });
      expect((await orderRow(order.id)).status).toBe("paid");
    });

    it("asks nothing once the refund window has closed", async () => {
      const { id } = await paidOrder();
      const ids = lessonIds();
      const later = new Date(Date.now() + 8 * 24 * 60 * 60 * 1000);
      for (const lessonId of ids.slice(0, Math.ceil(ids.length / 2))) {
        await completeLesson(db(), catalog, id, { courseId: course, lessonId, complete: true }, { now: later });
      }
      expect((await listOrdersWithEligibility(db(), catalog, id, later))[0]?.refundEligibility).toMatchObject({ eligible: false });
    });

    it("refuses a refund once the course was finished and certified, even after every lesson is un-marked; the certificate stands", async () => {
      const { id, order } = await paidOrder();
      for (const lessonId of lessonIds()) await setLessonComplete(db(), catalog, id, course, lessonId, true);
      const certificate = await certify(id);
      for (const lessonId of lessonIds()) await setLessonComplete(db(), catalog, id, course, lessonId, false);

      await expect(requestRefund(shop(), id, order.id)).rejects.toMatchObject({
        status: 400,
        message: "You have been issued a certificate for this course, so it can no longer be refunded.",
      });
      expect(await refundsOf(order.id)).toEqual([]);
      expect(await activeEnrolments(id)).toBe(1);
      expect((await orderRow(order.id)).status).toBe("paid");
      expect(await findCertificate(db(), suite.identity.cipher, certificate.id)).toMatchObject({ revokedAt: null });
      const [listed] = await listOrdersWithEligibility(db(), catalog, id, clock);
      expect(listed?.refundEligibility).toMatchObject({ eligible: false, reason: expect.stringContaining("certificate") });
    });

    it("counts the furthest progress ever reached: un-marking lessons does not reopen a refund", async () => {
      const { id, order } = await paidOrder();
      const quarter = lessonIds().slice(0, Math.ceil(lessonIds().length / 4));
      for (const lessonId of quarter) await setLessonComplete(db(), catalog, id, course, lessonId, true);
      for (const lessonId of quarter) await setLessonComplete(db(), catalog, id, course, lessonId, false);
      await expect(requestRefund(shop(), id, order.id)).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/^You have completed \d+% of this course/) });
      expect(await refundsOf(order.id)).toEqual([]);
      expect(await activeEnrolments(id)).toBe(1);
    });

    it("decides a refund on what is true when it is written: a course finished and certified meanwhile is counted", async () => {
      const { id, order } = await paidOrder();
      // The refund reaches its transaction, then waits there while the learner finishes the course.
      let reached!: () => void;
      let release!: () => void;
      const atTransaction = new Promise<void>((resolve) => (reached = resolve));
      const gate = new Promise<void>((resolve) => (release = resolve));
      const slowDb = new Proxy(db(), {
        get(target, property, receiver) {
          if (property !== "transaction") return Reflect.get(target, property, receiver);
          return async (...args: Parameters<typeof target.transaction>) => {
            reached();
            await gate;
            return target.transaction(...args);
          };
        },
      });
      const refund = requestRefund({ ...shop(), db: slowDb }, id, order.id);
      await atTransaction;
      for (const lessonId of lessonIds()) await setLessonComplete(db(), catalog, id, course, lessonId, true);
      const certificate = await certify(id);
      release();

      await expect(refund).rejects.toMatchObject({ status: 400, message: "You have been issued a certificate for this course, so it can no longer be refunded." });
      expect(await refundsOf(order.id)).toEqual([]);
      expect(await activeEnrolments(id)).toBe(1);
      expect((await certificatesOf(id)).map((c) => ({ id: c.id, revokedAt: c.revokedAt }))).toEqual([{ id: certificate.id, revokedAt: null }]);
    });

    it("does not refund a course a second time when it is bought again", async () => {
      const { id, order } = await paidOrder();
      await requestRefund(shop(), id, order.id);
      await deliverAllWebhooks();
      const again = await newOrder(id);
      await payInSandbox(again);
      await expect(requestRefund(shop(), id, again.id)).rejects.toMatchObject({
        status: 400,
        message: "You were refunded for this course before, so buying it again is not refundable.",
      });
      expect(await activeEnrolments(id)).toBe(1);
    });

    it("ends access and revokes the certificate when the provider processes a refund after it seemed to fail", async () => {
      const { id, order } = await paidOrder();
      const real = shop().provider;
      // The provider takes the refund but the answer is lost on the way back.
      const flaky = { ...shop(), provider: { ...real, refund: async (...args: Parameters<typeof real.refund>) => {
        await real.refund(...args);
        throw new Error("socket hang up");
      } } };
      await expect(requestRefund(flaky, id, order.id)).rejects.toMatchObject({ status: 503 });
      expect(await activeEnrolments(id)).toBe(1);
      for (const lessonId of lessonIds()) await setLessonComplete(db(), catalog, id, course, lessonId, true);
      const certificate = await certify(id);

      await deliverAllWebhooks();
      expect((await orderRow(order.id)).status).toBe("refunded");
      expect(await activeEnrolments(id)).toBe(0);
      expect((await findCertificate(db(), suite.identity.cipher, certificate.id)).revokedAt).toBeInstanceOf(Date);
    });

    it("records a full refund made at the provider's dashboard: the order is refunded, access ends, the certificate is revoked", async () => {
      const { id, email, order } = await paidOrder();
      for (const lessonId of lessonIds()) await setLessonComplete(db(), catalog, id, course, lessonId, true);
      const certificate = await certify(id);
      const [payment] = await db().select().from(payments).where(eq(payments.orderId, order.id));
      await shop().provider.refund(payment?.providerPaymentId ?? "", { amount: order.amount, notes: {} });
      await deliverAllWebhooks();

      expect((await orderRow(order.id)).status).toBe("refunded");
      expect(await refundsOf(order.id)).toMatchObject([{ status: "processed", amount: order.amount, userId: id }]);
      expect(await activeEnrolments(id)).toBe(0);
      expect((await findCertificate(db(), suite.identity.cipher, certificate.id)).revokedAt).toBeInstanceOf(Date);
      const subjects = (await db().select({ subject: mailOutbox.subject }).from(mailOutbox).where(eq(mailOutbox.to, email))).map((m) => m.subject);
      expect(subjects).toContainEqual(expect.stringMatching(/^Your refund of ₹6,999 has been processed/));
    });
  });

  it("pages a long order and payment history newest first, each page a bounded read, every row on exactly one page", async () => {
    const { id } = await buyer();
    const many = 1_200;
    const base = Date.parse("2025-01-01T00:00:00Z");
    // Every hundredth order shares its moment with the one before, so the order number breaks the tie.
    const rows = await db()
      .insert(orders)
      .values(paidCourseOrderRows(id, course, many, { keyPrefix: "bulk-order-", createdAt: (i) => new Date(base + (i - (i % 100 === 1 ? 1 : 0)) * 60_000) }))
      .returning({ id: orders.id, number: orders.number, createdAt: orders.createdAt });
    await db()
      .insert(payments)
      .values(rows.map((o, i) => ({ orderId: o.id, userId: id, providerPaymentId: `pay_bulk${key()}${i}`, amount: 699_900, currency: "INR", status: "captured" as const, createdAt: o.createdAt })));

    const expected = rows.toSorted((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.number - a.number).map((o) => o.id);
    const seen: string[] = [];
    let before: number | undefined;
    for (;;) {
      const page = pageOf(await listOrders(db(), id, { limit: historyPageSize + 1, before }), historyPageSize, (o) => o.number);
      expect(page.items.length).toBeLessThanOrEqual(historyPageSize);
      seen.push(...page.items.map((o) => o.id));
      if (page.next === null) break;
      before = page.next;
    }
    expect(seen).toEqual(expected);

    const paid: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = pageOf(await listPayments(db(), id, { limit: historyPageSize + 1, before: after }), historyPageSize, (p) => p.id);
      paid.push(...page.items.map((p) => p.orderId));
      if (page.next === null) break;
      after = page.next;
    }
    expect(new Set(paid).size).toBe(many);
    expect(paid).toHaveLength(many);

    // A cursor that is not one of the account's rows gives an empty page, never someone else's.
    expect(await listOrders(db(), id, { limit: 10, before: 0 })).toEqual([]);
    expect(await listPayments(db(), id, { limit: 10, before: "not-a-payment" })).toHaveLength(10);
    expect(await listOrdersWithEligibility(db(), catalog, id, clock, { limit: historyPageSize })).toHaveLength(historyPageSize);
  });

  it("keeps a deleted account's paid orders, payments and refunds for the books, linked to no one, and removes its enrolments", async () => {
    const { id, order } = await paidOrder();
    await requestRefund(shop(), id, order.id);
    await db().delete(user).where(eq(user.id, id));
    // The provider's word on the refund arrives after the account is gone: the books still follow it.
    await deliverAllWebhooks();
    expect(await orderRow(order.id)).toMatchObject({ status: "refunded", userId: null, amount: 699_900 });
    expect(await db().select().from(payments).where(eq(payments.orderId, order.id))).toMatchObject([{ status: "refunded", userId: null }]);
    expect(await refundsOf(order.id)).toMatchObject([{ status: "processed", userId: null }]);
    expect(await db().select().from(enrolments).where(eq(enrolments.userId, id))).toEqual([]);
  });
});
