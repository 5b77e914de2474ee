import { and, eq, inArray } from "drizzle-orm";
import { formatDay, formatPaise, formatOrderNumber } from "../../app/lib/format.ts";
import type { Site } from "../catalog/index.ts";
import { enrolments, orders, payments, refunds } from "../db/schema.ts";
import { Conflict, ServiceUnavailable, ValidationError } from "../errors.ts";
import { courseProgressPercent } from "../learning/progress.ts";
import { refundProcessedMail, refundRequestedMail } from "../mail/templates.ts";
import type { ProviderRefund } from "../payments/provider.ts";
import { findOrder, type Order } from "./orders.ts";
import { mailBuyer, type Shop, type Tx } from "./shop.ts";

export type Refund = typeof refunds.$inferSelect;

export type RefundEligibility = { eligible: true; until: Date } | { eligible: false; reason: string };

const dayMs = 24 * 60 * 60 * 1000;

/** The cancellation & refund policy (site config): within the window, and under the progress limit. */
export function refundEligibility(
  order: Pick<Order, "status" | "paidAt" | "amount">,
  options: { now: Date; progressPercent: number; policy: Site["refund"] },
): RefundEligibility {
  const { policy } = options;
  if (order.status !== "paid" || !order.paidAt) return { eligible: false, reason: "Only paid orders can be refunded." };
  if (order.amount === 0) return { eligible: false, reason: "This course was free, so there is nothing to refund." };
  const until = new Date(order.paidAt.getTime() + policy.windowDays * dayMs);
  if (options.now >= until) {
    return {
      eligible: false,
      reason: `Refunds are available for ${policy.windowDays} days after purchase; the window for this order closed on ${formatDay(until)}.`,
    };
  }
  if (options.progressPercent >= policy.maxProgressPercent) {
    return {
      eligible: false,
      reason: `You have completed ${options.progressPercent}% of this course; refunds are available until ${policy.maxProgressPercent}%.`,
    };
  }
  return { eligible: true, until };
}

function ordersUrl(shop: Shop) {
  return `${shop.publicUrl}/account/orders`;
}

/**
 * The buyer asks for their money back. Access ends at once and the request is mailed; the
 * provider is then asked to refund, and the order becomes "refunded" when the provider reports the
 * refund processed (at once, or later by webhook). Asking again while a refund is under way returns
 * it; asking again after the provider could not be reached tries the provider again.
 */
export async function requestRefund(shop: Shop, userId: string, orderId: string): Promise<Refund> {
  const order = await findOrder(shop, userId, orderId);
  const course = shop.catalog().courses.find((c) => c.id === order.courseId);
  const progress = course ? await courseProgressPercent(shop.db, userId, course) : 0;

  const prepared = await shop.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(orders).where(eq(orders.id, order.id)).for("update");
    if (!locked) throw new Conflict("This order cannot be refunded.");
    const [existing] = await tx.select().from(refunds).where(eq(refunds.orderId, order.id));
    if (existing && existing.status !== "requested" && existing.status !== "failed") return { refund: existing, providerPaymentId: null };
    if (!existing) {
      const eligibility = refundEligibility(locked, { now: shop.now(), progressPercent: progress, policy: shop.catalog().site.refund });
      if (!eligibility.eligible) throw new ValidationError(eligibility.reason);
    } else if (locked.status !== "paid") {
      throw new Conflict("This order cannot be refunded.");
    }
    const [payment] = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.orderId, order.id), inArray(payments.status, ["captured", "authorized"])));
    if (!payment) throw new Conflict("We could not find the payment for this order. Please write to us and we will sort it out.");
    const [refund] = existing
      ? await tx.update(refunds).set({ status: "requested", failureReason: null }).where(eq(refunds.id, existing.id)).returning()
      : await tx
          .insert(refunds)
          .values({ orderId: order.id, paymentId: payment.id, userId, amount: locked.amount, currency: locked.currency })
          .returning();
    await tx
      .update(enrolments)
      .set({ status: "revoked", revokedAt: shop.now() })
      .where(and(eq(enrolments.userId, userId), eq(enrolments.courseId, order.courseId), eq(enrolments.orderId, order.id)));
    if (!existing) {
      await mailBuyer(tx, shop, userId, (site, to) =>
        refundRequestedMail(site, to, {
          orderNumber: formatOrderNumber(locked.number),
          courseTitle: locked.courseTitle,
          amount: formatPaise(locked.amount),
          ordersUrl: ordersUrl(shop),
        }),
      );
    }
    return { refund: refund as Refund, providerPaymentId: payment.providerPaymentId };
  });
  shop.mailQueued();
  if (!prepared.providerPaymentId) return prepared.refund;

  let providerRefund: ProviderRefund;
  try {
    providerRefund = await shop.provider.refund(prepared.providerPaymentId, {
      amount: prepared.refund.amount,
      notes: { refund_id: prepared.refund.id, order_id: order.id },
    });
  } catch (error) {
    shop.logger.error({ err: error, refundId: prepared.refund.id }, "the payment provider did not accept the refund");
    const reason = "We could not reach the payment provider. Your course access is unchanged; please try again in a few minutes.";
    await shop.db.transaction(async (tx) => {
      await tx.update(refunds).set({ status: "failed", failureReason: reason }).where(eq(refunds.id, prepared.refund.id));
      await restoreAccess(tx, order);
    });
    throw new ServiceUnavailable(reason);
  }
  const outcome = await shop.db.transaction((tx) => applyRefund(tx, shop, providerRefund));
  if (outcome === "processed") shop.mailQueued();
  const [current] = await shop.db.select().from(refunds).where(eq(refunds.id, prepared.refund.id));
  return current ?? prepared.refund;
}

async function restoreAccess(tx: Tx, order: Pick<Order, "id" | "userId" | "courseId">) {
  await tx
    .update(enrolments)
    .set({ status: "active", revokedAt: null })
    .where(and(eq(enrolments.userId, order.userId), eq(enrolments.courseId, order.courseId), eq(enrolments.orderId, order.id)));
}

export type RefundOutcome = "processed" | "pending" | "failed" | "already" | "unknown-refund";

/**
 * Applies the provider's word on a refund, from its API answer or a webhook, whichever comes
 * first; the refund is found by our id in its notes, so a webhook that beats the API answer works.
 */
export async function applyRefund(tx: Tx, shop: Shop, providerRefund: ProviderRefund): Promise<RefundOutcome> {
  const ourId = providerRefund.notes.refund_id;
  const where = ourId && /^[0-9a-f-]{36}$/i.test(ourId) ? eq(refunds.id, ourId) : eq(refunds.providerRefundId, providerRefund.id);
  const [refund] = await tx.select().from(refunds).where(where).for("update");
  if (!refund) return "unknown-refund";
  if (refund.status === "processed") return "already";
  const now = shop.now();

  if (providerRefund.status === "pending") {
    await tx.update(refunds).set({ status: "pending", providerRefundId: providerRefund.id }).where(eq(refunds.id, refund.id));
    return "pending";
  }
  const [order] = await tx.select().from(orders).where(eq(orders.id, refund.orderId)).for("update");
  if (!order) return "unknown-refund";
  if (providerRefund.status === "failed") {
    await tx
      .update(refunds)
      .set({ status: "failed", providerRefundId: providerRefund.id, failureReason: "The payment provider could not complete this refund." })
      .where(eq(refunds.id, refund.id));
    await restoreAccess(tx, order);
    return "failed";
  }
  await tx
    .update(refunds)
    .set({ status: "processed", providerRefundId: providerRefund.id, processedAt: now, failureReason: null })
    .where(eq(refunds.id, refund.id));
  await tx.update(orders).set({ status: "refunded", refundedAt: now, updatedAt: now }).where(eq(orders.id, order.id));
  await tx
    .update(payments)
    .set({ status: "refunded", amountRefunded: providerRefund.amount, updatedAt: now })
    .where(eq(payments.id, refund.paymentId));
  await mailBuyer(tx, shop, order.userId, (site, to) =>
    refundProcessedMail(site, to, {
      orderNumber: formatOrderNumber(order.number),
      courseTitle: order.courseTitle,
      amount: formatPaise(refund.amount),
      refundId: providerRefund.id,
      ordersUrl: ordersUrl(shop),
    }),
  );
  return "processed";
}
