import { and, eq, inArray, lt, ne, sql } from "drizzle-orm";
import { formatDay, formatPaise, formatOrderNumber } from "../../common/format.ts";
import type { Catalog, Site } from "../catalog/index.ts";
import { enrolments, orders, payments, refunds, websitePeriods } from "../db/schema.ts";
import { Conflict, ServiceUnavailable, ValidationError } from "../errors.ts";
import { revokeCertificates } from "../learning/certificates.ts";
import { refundStanding, type RefundStanding } from "../learning/progress.ts";
import { refundProcessedMail, refundRequestedMail } from "../mail/templates.ts";
import type { ProviderRefund } from "../payments/provider.ts";
import { endRefundedHosting, paidRenewal, type PaidRenewal } from "../websites/index.ts";
import { findOrder, type Order } from "./orders.ts";
import { refundSplit } from "./pricing.ts";
import { mailBuyer, type Shop, type Tx } from "./shop.ts";

export type Refund = typeof refunds.$inferSelect;

/** `until` is null when there is no deadline: for hosting paid for but never provided. */
export type RefundEligibility = { eligible: true; until: Date | null } | { eligible: false; reason: string };

const dayMs = 24 * 60 * 60 * 1000;

/** What the policy weighs about the buyer's use of the course, whatever they have un-marked since. */
export interface CourseUse extends RefundStanding {
  /** Whether an earlier order of this course by this buyer was refunded. */
  refundedBefore: boolean;
}

/**
 * The cancellation & refund policy (site config): a course's first purchase, within the window,
 * under the progress limit by the furthest progress ever reached, and with no certificate issued.
 */
export function refundEligibility(
  order: Pick<Order, "status" | "paidAt" | "amount">,
  options: { now: Date; use: CourseUse; policy: Site["refund"] },
): RefundEligibility {
  const { policy, use } = options;
  const window = refundWindow(order, options.now, policy);
  if (!window.eligible) return window;
  const { until } = window;
  if (use.refundedBefore) {
    return { eligible: false, reason: "You were refunded for this course before, so buying it again is not refundable." };
  }
  if (use.certificateIssued) {
    return { eligible: false, reason: "You have been issued a certificate for this course, so it can no longer be refunded." };
  }
  if (use.furthestPercent >= policy.maxProgressPercent) {
    return {
      eligible: false,
      reason: `You have completed ${use.furthestPercent}% of this course (lessons marked complete count even if you un-mark them later); refunds are available until ${policy.maxProgressPercent}%.`,
    };
  }
  return { eligible: true, until };
}

/** Paid, not free, and within the policy's window after payment. */
export function refundWindow(order: Pick<Order, "status" | "paidAt" | "amount">, now: Date, policy: Site["refund"]): RefundEligibility {
  if (order.status !== "paid" || !order.paidAt) return { eligible: false, reason: "Only paid orders can be refunded." };
  if (order.amount === 0) return { eligible: false, reason: "This course was free, so there is nothing to refund." };
  const until = new Date(order.paidAt.getTime() + policy.windowDays * dayMs);
  if (now >= until) {
    return {
      eligible: false,
      reason: `Refunds are available for ${policy.windowDays} days after purchase; the window for this order closed on ${formatDay(until)}.`,
    };
  }
  return { eligible: true, until };
}

/** What a paid hosting order bought: its website's first period, a renewal, or nothing (the hosting could not start). */
export type HostingPeriodKind = "first" | "renewal" | "none";

/**
 * The policy for hosting: the first period of a website, within the window; renewals are not
 * refunded (the policy gives no pro-rata refunds). The refund cancels the website. A payment that
 * bought nothing is refunded in full whenever it is asked for.
 */
export function hostingRefundEligibility(
  order: Pick<Order, "status" | "paidAt" | "amount">,
  options: { now: Date; period: HostingPeriodKind; policy: Site["refund"]; renewal: PaidRenewal | null },
): RefundEligibility {
  if (options.period === "none" && order.status === "paid") return { eligible: true, until: null };
  const window = refundWindow(order, options.now, options.policy);
  if (!window.eligible) return window;
  if (options.period === "renewal") {
    return { eligible: false, reason: "Only a website's first period can be refunded; renewals are not, as the cancellation & refund policy says." };
  }
  const { renewal } = options;
  if (renewal) {
    // Refunding the first period ends the website, which would leave a paid renewal that is not refunded with nothing to host (decision 020).
    return {
      eligible: false,
      reason:
        `You have already paid to renew ${renewal.domain} (order ${formatOrderNumber(renewal.orderNumber)}), so its first period can no longer be refunded on its own: refunding it would end the hosting you renewed. ` +
        `If you no longer want the website, cancel it on its page and it stays online until ${formatDay(renewal.expiresAt)}; if you renewed by mistake, write to us and we will sort it out.`,
    };
  }
  return window;
}

/** A paid renewal that stops the refund of a first period; `lock` inside a refund's transaction (see paidRenewal). */
export async function renewalBlockingRefund(
  tx: Tx | Shop["db"],
  order: Pick<Order, "id" | "websiteId">,
  period: HostingPeriodKind,
  options: { lock: boolean },
): Promise<PaidRenewal | null> {
  return period === "first" && order.websiteId ? paidRenewal(tx, order.websiteId, order.id, options) : null;
}

/** Which period of its website the order paid for, if any. */
export async function hostingPeriodOf(tx: Tx | Shop["db"], orderId: string): Promise<HostingPeriodKind> {
  const [period] = await tx.select().from(websitePeriods).where(eq(websitePeriods.orderId, orderId));
  if (!period) return "none";
  const [earlier] = await tx
    .select({ id: websitePeriods.id })
    .from(websitePeriods)
    .where(and(eq(websitePeriods.websiteId, period.websiteId), lt(websitePeriods.startsAt, period.startsAt)))
    .limit(1);
  return earlier ? "renewal" : "first";
}

/** A course order whose buyer still has an account. */
type BuyersOrder = { id: string; userId: string; courseId: string };

/** The order as a course bought by a buyer with an account; null for any other order. */
export function courseBuyer(order: Pick<Order, "id" | "courseId" | "userId">, userId = order.userId): BuyersOrder | null {
  return order.courseId && userId ? { id: order.id, userId, courseId: order.courseId } : null;
}

/** Whether the buyer was refunded for an earlier order of this course. */
async function refundedBefore(tx: Tx | Shop["db"], order: BuyersOrder): Promise<boolean> {
  const [earlier] = await tx
    .select({ id: refunds.id })
    .from(refunds)
    .innerJoin(orders, eq(orders.id, refunds.orderId))
    .where(and(eq(orders.userId, order.userId), eq(orders.courseId, order.courseId), ne(orders.id, order.id), eq(refunds.status, "processed")))
    .limit(1);
  return earlier !== undefined;
}

/** The buyer's use of the order's course; `lock` inside a refund's transaction (see refundStanding). */
export async function courseUse(
  tx: Tx | Shop["db"],
  catalog: Catalog,
  order: BuyersOrder,
  options: { lock: boolean },
): Promise<CourseUse> {
  const course = catalog.courses.find((c) => c.id === order.courseId);
  const standing = course ? await refundStanding(tx, order.userId, course, options) : { furthestPercent: 0, certificateIssued: false };
  return { ...standing, refundedBefore: await refundedBefore(tx, order) };
}

function ordersUrl(shop: Shop) {
  return `${shop.publicUrl}/account/orders`;
}

/**
 * The buyer asks for their money back. The order row, then the enrolment row, is locked while the
 * policy is checked, so lessons completed or a certificate issued at the same moment are either
 * counted or refused. Access ends at once and the request is mailed; the provider is then asked to
 * refund, and the order becomes "refunded" when the provider reports the refund processed (at once,
 * or later by webhook). Asking again while a refund is under way returns it; asking again after the
 * provider could not be reached tries the provider again.
 */
export async function requestRefund(shop: Shop, userId: string, orderId: string): Promise<Refund> {
  const order = await findOrder(shop, userId, orderId);
  return startRefund(shop, order.id, "buyer", async (tx, locked, existing) => {
    const bought = courseBuyer(locked, userId);
    if (!bought && locked.kind !== "website") throw new ValidationError("This order cannot be refunded here. Write to us and we will sort it out.");
    // A retry after the provider failed keeps the time of the first request, but not a course finished since.
    const now = existing?.createdAt ?? shop.now();
    const policy = shop.catalog().site.refund;
    const period = bought ? "none" : await hostingPeriodOf(tx, locked.id);
    const eligibility = bought
      ? refundEligibility(locked, { now, use: await courseUse(tx, shop.catalog(), bought, { lock: true }), policy })
      : hostingRefundEligibility(locked, { now, period, policy, renewal: await renewalBlockingRefund(tx, locked, period, { lock: true }) });
    if (!eligibility.eligible) throw new ValidationError(eligibility.reason);
    return locked.amount;
  });
}

/**
 * A refund the company decides on, whatever the policy says (the back office's "refund outside the
 * policy"): any paid order with money taken. Of the whole order (`amount` null) it has the same
 * effects as the buyer's own; of part of it, it is goodwill: the buyer keeps the course or the
 * website, and the order stays paid. `record` runs in the refund's transaction, for the audit entry
 * that says who decided it and why.
 */
export async function refundOutsidePolicy(shop: Shop, orderId: string, amount: number | null, record: (tx: Tx, order: Order, amount: number) => Promise<void>): Promise<Refund> {
  return startRefund(shop, orderId, "us", async (tx, locked) => {
    if (locked.status !== "paid" || !locked.paidAt) throw new ValidationError("Only a paid order can be refunded.");
    if (locked.amount === 0) throw new ValidationError("This order was free: there is no money to give back.");
    const refunding = amount ?? locked.amount;
    if (!Number.isSafeInteger(refunding) || refunding < 100 || refunding > locked.amount) {
      throw new ValidationError(`A refund is of ₹1 to ${formatPaise(locked.amount)}, the amount paid for this order.`);
    }
    await record(tx, locked, refunding);
    return refunding;
  });
}

/**
 * Records a refund and asks the provider to make it. The order row is locked while `allow` decides
 * the amount (it throws to refuse); a refund already under way or made is returned as it stands, and
 * one the provider failed is tried again. A refund of the whole order ends the course's access at
 * once (it comes back if the provider fails); one of part of it changes nothing the buyer has.
 */
async function startRefund(
  shop: Shop,
  orderId: string,
  requestedBy: "buyer" | "us",
  allow: (tx: Tx, order: Order, existing: Refund | undefined) => Promise<number>,
): Promise<Refund> {
  const prepared = await shop.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
    if (!locked) throw new Conflict("This order cannot be refunded.");
    const [existing] = await tx.select().from(refunds).where(eq(refunds.orderId, locked.id));
    if (existing && existing.status !== "requested" && existing.status !== "failed") return { order: locked, refund: existing, providerPaymentId: null };
    const amount = await allow(tx, locked, existing);
    const whole = amount === locked.amount;
    const [payment] = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.orderId, locked.id), inArray(payments.status, ["captured", "authorized"])));
    if (!payment) throw new Conflict("We could not find the payment for this order. Please write to us and we will sort it out.");
    const figures = { amount, ...refundSplit(locked, amount) };
    const [refund] = existing
      ? await tx
          .update(refunds)
          .set({ status: "requested", failureReason: null, ...figures })
          .where(eq(refunds.id, existing.id))
          .returning()
      : await tx
          .insert(refunds)
          .values({ orderId: locked.id, paymentId: payment.id, userId: locked.userId, currency: locked.currency, ...figures })
          .returning();
    const bought = courseBuyer(locked);
    if (bought && whole) await revokeAccess(tx, bought, shop.now());
    if (!existing) {
      const consequence = !whole
        ? `It is part of what you paid, as goodwill: ${bought ? "you keep the course" : "nothing changes for your website"}.`
        : bought
          ? "Your access to the course has ended."
          : (await hostingPeriodOf(tx, locked.id)) === "first"
            ? "The website's hosting is cancelled once the refund is processed."
            : "";
      await mailBuyer(tx, shop, locked.userId, (site, to) =>
        refundRequestedMail(site, to, {
          orderNumber: formatOrderNumber(locked.number),
          courseTitle: locked.title,
          amount: formatPaise(amount),
          ordersUrl: ordersUrl(shop),
          consequence,
          requestedBy,
        }),
      );
    }
    return { order: locked, refund: refund as Refund, providerPaymentId: payment.providerPaymentId };
  });
  shop.mailQueued();
  if (!prepared.providerPaymentId) return prepared.refund;
  return submitRefund(shop, prepared.order, prepared.refund, prepared.providerPaymentId);
}

/**
 * Asks the provider to make a refund recorded as requested, and applies its answer. When the
 * provider cannot be reached the refund is marked failed (the buyer may try again from the orders
 * page) and course access comes back.
 */
async function submitRefund(shop: Shop, order: Pick<Order, "id" | "userId" | "courseId" | "websiteId" | "amount">, refund: Refund, providerPaymentId: string): Promise<Refund> {
  let providerRefund: ProviderRefund;
  try {
    providerRefund = await shop.provider.refund(providerPaymentId, { amount: refund.amount, notes: { refund_id: refund.id, order_id: order.id } });
  } catch (error) {
    shop.logger.error({ err: error, refundId: refund.id }, "the payment provider did not accept the refund");
    const unchanged = order.websiteId ? "Your website is unchanged" : "Your course access is unchanged";
    const reason = `We could not reach the payment provider. ${unchanged}; please try again in a few minutes.`;
    await shop.db.transaction(async (tx) => {
      await tx.update(refunds).set({ status: "failed", failureReason: reason }).where(eq(refunds.id, refund.id));
      const bought = courseBuyer(order);
      if (bought && refund.amount === order.amount) await restoreAccess(tx, bought);
    });
    throw new ServiceUnavailable(reason);
  }
  const outcome = await shop.db.transaction((tx) => applyRefund(tx, shop, providerRefund));
  if (outcome === "processed") shop.mailQueued();
  const [current] = await shop.db.select().from(refunds).where(eq(refunds.id, refund.id));
  return current ?? refund;
}

/**
 * Sends the refund that fulfilment recorded for a hosting payment that bought nothing (see
 * applyPayment), once the payment's transaction has committed. If the provider cannot be reached,
 * the refund stays failed and the buyer can ask again from the orders page, where it is always
 * allowed.
 */
export async function refundUnprovidedHosting(shop: Shop, providerOrderId: string): Promise<void> {
  const [row] = await shop.db
    .select({ refund: refunds, order: orders, providerPaymentId: payments.providerPaymentId })
    .from(refunds)
    .innerJoin(orders, eq(orders.id, refunds.orderId))
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(and(eq(orders.providerOrderId, providerOrderId), eq(refunds.status, "requested")));
  if (!row) return;
  await submitRefund(shop, row.order, row.refund, row.providerPaymentId).catch((error: unknown) => {
    shop.logger.error({ err: error, providerOrderId }, "the refund of a hosting payment that bought nothing is not made yet; the buyer can ask again from the orders page");
  });
}

async function revokeAccess(tx: Tx, order: BuyersOrder, now: Date) {
  await tx
    .update(enrolments)
    .set({ status: "revoked", revokedAt: now })
    .where(and(eq(enrolments.userId, order.userId), eq(enrolments.courseId, order.courseId), eq(enrolments.orderId, order.id)));
}

async function restoreAccess(tx: Tx, order: BuyersOrder) {
  await tx
    .update(enrolments)
    .set({ status: "active", revokedAt: null })
    .where(and(eq(enrolments.userId, order.userId), eq(enrolments.courseId, order.courseId), eq(enrolments.orderId, order.id)));
}

export type RefundOutcome = "processed" | "pending" | "failed" | "already" | "unknown-refund";

/**
 * A full refund made at the provider (from its dashboard, for a refund outside the normal rules),
 * recorded against the order its payment paid. Null when the payment is not ours, the order is not
 * paid or already has a refund, or the refund is partial (logged for a person to handle).
 */
async function recordProviderRefund(tx: Tx, shop: Shop, providerRefund: ProviderRefund): Promise<Refund | null> {
  const [payment] = await tx.select().from(payments).where(eq(payments.providerPaymentId, providerRefund.payment_id));
  if (!payment) return null;
  const [order] = await tx.select().from(orders).where(eq(orders.id, payment.orderId)).for("update");
  if (!order || order.status !== "paid") return null;
  if (providerRefund.amount !== order.amount) {
    shop.logger.warn({ orderId: order.id, refundId: providerRefund.id }, "a partial refund was made at the provider; the order is unchanged");
    return null;
  }
  const [refund] = await tx
    .insert(refunds)
    .values({ orderId: order.id, paymentId: payment.id, userId: order.userId, amount: providerRefund.amount, ...refundSplit(order, providerRefund.amount), currency: providerRefund.currency })
    .onConflictDoNothing({ target: refunds.orderId })
    .returning();
  return refund ?? null;
}

/**
 * Applies the provider's word on a refund, from its API answer or a webhook, whichever comes
 * first; the refund is found by our id in its notes, so a webhook that beats the API answer works.
 * A processed refund ends access and revokes the course's certificate, whenever and however it was
 * made, even if access came back after the provider seemed to have failed.
 */
export async function applyRefund(tx: Tx, shop: Shop, providerRefund: ProviderRefund): Promise<RefundOutcome> {
  const ourId = providerRefund.notes.refund_id;
  const where = ourId && /^[0-9a-f-]{36}$/i.test(ourId) ? eq(refunds.id, ourId) : eq(refunds.providerRefundId, providerRefund.id);
  const [found] = await tx.select().from(refunds).where(where).for("update");
  const refund = found ?? (providerRefund.status === "processed" ? await recordProviderRefund(tx, shop, providerRefund) : null);
  if (!refund) return "unknown-refund";
  if (refund.status === "processed") return "already";
  const now = shop.now();

  if (providerRefund.status === "pending") {
    await tx.update(refunds).set({ status: "pending", providerRefundId: providerRefund.id }).where(eq(refunds.id, refund.id));
    return "pending";
  }
  const [order] = await tx.select().from(orders).where(eq(orders.id, refund.orderId)).for("update");
  if (!order) return "unknown-refund";
  // Null once the buyer deleted their account: the books still change, but no access, certificate or mail is left.
  const bought = courseBuyer(order);
  // Part of the order, as goodwill: the buyer keeps what they bought and the order stays paid.
  const whole = refund.amount === order.amount;
  if (providerRefund.status === "failed") {
    await tx
      .update(refunds)
      .set({ status: "failed", providerRefundId: providerRefund.id, failureReason: "The payment provider could not complete this refund." })
      .where(eq(refunds.id, refund.id));
    if (bought && whole) await restoreAccess(tx, bought);
    return "failed";
  }
  await tx
    .update(refunds)
    // The credit note that corrects the invoice takes the next number of its series, once.
    .set({ status: "processed", providerRefundId: providerRefund.id, processedAt: now, failureReason: null, creditNoteNumber: sql`nextval('credit_note_numbers')` })
    .where(eq(refunds.id, refund.id));
  if (whole) {
    await tx.update(orders).set({ status: "refunded", refundedAt: now, updatedAt: now }).where(eq(orders.id, order.id));
    if (bought) {
      await revokeAccess(tx, bought, now);
      await revokeCertificates(tx, bought.userId, bought.courseId, now);
    }
    // A refunded first period ends the website; a payment that bought nothing leaves it as it was.
    if (order.websiteId && (await hostingPeriodOf(tx, order.id)) === "first") await endRefundedHosting(tx, order.websiteId, now);
  }
  await tx
    .update(payments)
    .set({ ...(whole && { status: "refunded" as const }), amountRefunded: providerRefund.amount, updatedAt: now })
    .where(eq(payments.id, refund.paymentId));
  await mailBuyer(tx, shop, order.userId, (site, to) =>
    refundProcessedMail(site, to, {
      orderNumber: formatOrderNumber(order.number),
      courseTitle: order.title,
      amount: formatPaise(refund.amount),
      refundId: providerRefund.id,
      ordersUrl: ordersUrl(shop),
    }),
  );
  return "processed";
}
