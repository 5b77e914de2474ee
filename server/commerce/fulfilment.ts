import { and, eq } from "drizzle-orm";
// Formatting is shared with the pages; the module is plain functions with no browser dependency.
import { formatDay, formatInvoiceAmount, formatPaise, formatOrderNumber } from "../../common/format.ts";
import { invoiceAmounts } from "../../common/invoice-amounts.ts";
import { enrolments, orders, payments, type PaymentStatus, refunds, websites } from "../db/schema.ts";
import type { Site } from "../catalog/index.ts";
import { enqueueMail, type MailMessage } from "../mail/outbox.ts";
import { hostingNotStartedMail, hostingReceiptMail, receiptMail, type AmountsTable } from "../mail/templates.ts";
import type { ProviderPayment } from "../payments/provider.ts";
import { addPaidPeriod, hostingPlan, type PaidPeriod } from "../websites/index.ts";
import { hostingNotStartedReasons, type HostingNotStarted } from "../mail/templates.ts";
import type { Order } from "./orders.ts";
import { taxSplit } from "./pricing.ts";
import { invoiceDiscount, type InvoiceDiscount } from "./invoice-discount.ts";
import { coursePlayerPath, grantAccess, type Shop, type Tx } from "./shop.ts";

/** "not-provided": paid, but the hosting could not start; a full refund is recorded, for refundUnprovidedHosting to send. */
export type PaymentOutcome = "fulfilled" | "not-provided" | "already-paid" | "failed" | "pending" | "amount-mismatch" | "unknown-order";

/** A payment's status only moves forward: a late "authorized" never undoes "captured". */
const statusRank: Record<PaymentStatus, number> = { failed: 0, authorized: 1, captured: 2, refunded: 3 };

/** What we tell the buyer when a payment did not go through; Razorpay's reasons, in plain words. */
export function failureMessage(payment: Pick<ProviderPayment, "error_reason" | "error_source">): string {
  switch (payment.error_reason) {
    case "payment_cancelled":
      return "The payment was cancelled. Nothing was charged.";
    case "payment_timed_out":
      return "The payment timed out before it was completed. Nothing was charged.";
    case "insufficient_funds":
      return "Your bank declined the payment because of insufficient funds. Nothing was charged.";
    case "incorrect_otp":
    case "incorrect_pin":
      return "The OTP or PIN was not accepted, so the payment did not go through. Nothing was charged.";
  }
  if (payment.error_source === "bank" || payment.error_source === "issuer_bank") {
    return "Your bank declined the payment. Nothing was charged.";
  }
  return "The payment did not go through. Nothing was charged.";
}

function recordedStatus(status: ProviderPayment["status"]): PaymentStatus | null {
  return status === "created" ? null : status;
}

/**
 * Applies what the provider says about one payment to its order, inside the caller's transaction:
 * the payment row is written or moved forward; a captured or authorized payment of the right
 * amount marks the order paid, enrols the buyer and queues the receipt, all in this transaction;
 * a failed one marks an order that is still waiting as failed. The order row is locked first, so
 * a browser callback and a webhook for the same payment fulfil it exactly once.
 */
export async function applyPayment(tx: Tx, shop: Shop, payment: ProviderPayment): Promise<PaymentOutcome> {
  const [order] = await tx.select().from(orders).where(eq(orders.providerOrderId, payment.order_id)).for("update");
  if (!order) return "unknown-order";
  const status = recordedStatus(payment.status);
  if (!status) return "pending";
  const now = shop.now();

  const [existing] = await tx.select().from(payments).where(eq(payments.providerPaymentId, payment.id));
  const fields = {
    amount: payment.amount,
    currency: payment.currency,
    method: payment.method,
    failureCode: payment.error_code,
    failureReason: status === "failed" ? failureMessage(payment) : null,
    amountRefunded: payment.amount_refunded,
  };
  if (!existing) {
    await tx.insert(payments).values({ orderId: order.id, userId: order.userId, providerPaymentId: payment.id, status, ...fields });
  } else if (statusRank[status] > statusRank[existing.status]) {
    await tx.update(payments).set({ status, ...fields, updatedAt: now }).where(eq(payments.id, existing.id));
  }

  if (status === "failed") {
    if (order.status !== "created") return order.status === "paid" || order.status === "refunded" ? "already-paid" : "failed";
    await tx
      .update(orders)
      .set({ status: "failed", failureReason: failureMessage(payment), updatedAt: now })
      .where(eq(orders.id, order.id));
    return "failed";
  }

  if (payment.amount !== order.amount || payment.currency !== order.currency) {
    shop.logger.error(
      { orderId: order.id, paymentId: payment.id, expected: order.amount, got: payment.amount },
      "payment amount does not match the order; not fulfilled",
    );
    return "amount-mismatch";
  }
  if (order.status === "paid" || order.status === "refunded") {
    if (existing === undefined) {
      shop.logger.warn({ orderId: order.id, paymentId: payment.id }, "a second payment was captured for an order already paid");
    }
    return "already-paid";
  }

  // Money was taken: a capture completes the order even after a failed attempt or a closed window.
  // Marking it paid records "Billed to" from the account as it is now (the orders trigger); every mail below goes to that record.
  const [billed] = await tx
    .update(orders)
    .set({ status: "paid", paidAt: now, failureReason: null, updatedAt: now })
    .where(eq(orders.id, order.id))
    .returning({ name: orders.billingName, email: orders.billingEmail });
  if (!order.userId) {
    shop.logger.error({ orderId: order.id, paymentId: payment.id }, "a payment was captured after the buyer deleted their account; refund it by hand");
    return "fulfilled";
  }
  const receipt = {
    orderNumber: formatOrderNumber(order.number),
    amount: formatPaise(order.amount),
    amounts: receiptAmounts(shop.catalog().site, order, await invoiceDiscount(tx, order)),
    paymentId: payment.id,
    paidOn: formatDay(now),
    receiptUrl: `${shop.publicUrl}/account/orders/${order.id}/receipt`,
  };
  if (order.courseId) {
    const courseId = order.courseId;
    await grantAccess(tx, { id: order.id, userId: order.userId, courseId }, now);
    await mailBilled(tx, shop, billed, (site, to) =>
      receiptMail(site, to, { ...receipt, courseTitle: order.title, courseUrl: `${shop.publicUrl}${coursePlayerPath(courseId)}` }),
    );
    return "fulfilled";
  }
  const period = await hostingPeriod(tx, shop, order, now);
  if ("notStarted" in period) {
    // The money goes back in full: record the refund with the payment, for refundUnprovidedHosting to send once this commits.
    shop.logger.warn({ orderId: order.id, paymentId: payment.id, reason: period.notStarted }, "a paid hosting order could not start or extend its website; refunding it");
    // Why it bought nothing, in the buyer's words, for the page they return to (the mail below says the same).
    await tx.update(orders).set({ failureReason: hostingNotStartedReasons[period.notStarted](period.domain) }).where(eq(orders.id, order.id));
    const [paid] = await tx.select({ id: payments.id }).from(payments).where(eq(payments.providerPaymentId, payment.id));
    if (paid) {
      await tx
        .insert(refunds)
        .values({ orderId: order.id, paymentId: paid.id, userId: order.userId, amount: order.amount, taxableAmount: order.taxableAmount, taxAmount: order.taxAmount, currency: order.currency })
        .onConflictDoNothing({ target: refunds.orderId });
    }
    await mailBilled(tx, shop, billed, (site, to) =>
      hostingNotStartedMail(site, to, { ...receipt, title: order.title, domain: period.domain, reason: period.notStarted, ordersUrl: `${shop.publicUrl}/account/orders` }),
    );
    return "not-provided";
  }
  await mailBilled(tx, shop, billed, (site, to) =>
    hostingReceiptMail(site, to, {
      ...receipt,
      title: order.title,
      domain: period.domain,
      until: formatDay(period.endsAt),
      websiteUrl: `${shop.publicUrl}/account/services/websites/${period.websiteId}`,
    }),
  );
  return "fulfilled";
}

/** The invoice's amounts for the receipt mail, from the order as the invoice reads them: the item at its listed price, the coupon, the taxable value, GST, the total. */
function receiptAmounts(site: Site, order: Order, discount: InvoiceDiscount | null): AmountsTable {
  const amounts = invoiceAmounts({ amount: order.amount, taxableAmount: order.taxableAmount, ...taxSplit(order.taxAmount, site.gstin, order.buyerGstin) }, order.taxRatePercent, discount);
  const rows: [string, number][] = [[order.title, amounts.listed], ...(amounts.discount ? [amounts.discount] : []), ...amounts.taxed];
  return {
    caption: `Amounts on invoice ${formatOrderNumber(order.number)}`,
    rows: rows.map(([label, paise]) => [label, formatInvoiceAmount(paise)]),
    total: ["Total paid", formatInvoiceAmount(amounts.total)],
  };
}

/** Queues a receipt to the buyer as the invoice bills them, in the caller's transaction. */
async function mailBilled(
  tx: Tx,
  shop: Shop,
  billed: { name: string | null; email: string | null } | undefined,
  letter: (site: Site, to: { email: string; name: string }) => MailMessage,
): Promise<void> {
  if (billed?.email) await enqueueMail(tx, letter(shop.catalog().site, { email: billed.email, name: billed.name ?? "" }));
}

/** The period a paid hosting order adds to its website, with the website's domain, or why it adds none. */
async function hostingPeriod(tx: Tx, shop: Shop, order: Order, now: Date): Promise<(PaidPeriod & { domain: string }) | { notStarted: HostingNotStarted; domain: string }> {
  const [site] = order.websiteId ? await tx.select({ serviceId: websites.serviceId, domain: websites.domain }).from(websites).where(eq(websites.id, order.websiteId)) : [];
  if (!site || !order.websiteId) return { notStarted: "website-gone", domain: order.title };
  const plan = order.planId ? hostingPlan(shop.catalog(), site.serviceId, order.planId) : null;
  if (!plan) return { notStarted: "plan-withdrawn", domain: site.domain };
  const period = await addPaidPeriod(tx, { id: order.id, websiteId: order.websiteId, planId: plan.id }, plan.interval, now);
  return { ...period, domain: site.domain };
}

/** True when the user has active access to the course. */
export async function isEnrolled(db: Tx | Shop["db"], userId: string, courseId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: enrolments.id })
    .from(enrolments)
    .where(and(eq(enrolments.userId, userId), eq(enrolments.courseId, courseId), eq(enrolments.status, "active")));
  return row !== undefined;
}
