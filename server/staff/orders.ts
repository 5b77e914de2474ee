import { and, asc, desc, eq, gte, inArray, lt, lte, or, type SQL } from "drizzle-orm";
import { formatCreditNoteNumber, formatDay, formatPaise } from "../../common/format.ts";
import type { OrderStatus, PaymentStatus, RefundStatus } from "../../common/order-statuses.ts";
import { checkWithProvider, refundOutsidePolicy, type ProviderCheck, type Shop } from "../commerce/index.ts";
import type { Db } from "../db/client.ts";
import { auditLog, enrolments, orders, payments, refunds, user, webhookEvents, websitePeriods, websites } from "../db/schema.ts";
import { recordAudit, stateReason, type Actor } from "./audit.ts";

export const staffOrderPageSize = 50;

/** An order's columns every staff list of orders shows. */
/** An order as lists show it, with its refund's state: select these from `orders` left-joined to `refunds` on the order, then `withRefund` each row. */
export const orderListColumns = {
  id: orders.id,
  number: orders.number,
  kind: orders.kind,
  title: orders.title,
  amount: orders.amount,
  status: orders.status,
  createdAt: orders.createdAt,
  refundStatus: refunds.status,
};

/** A row of `orderListColumns` with its refund as lists use it: null when there is none. */
export function withRefund<Row extends { refundStatus: RefundStatus | null }>({ refundStatus, ...order }: Row): Omit<Row, "refundStatus"> & { refund: { status: RefundStatus } | null } {
  return { ...order, refund: refundStatus === null ? null : { status: refundStatus } };
}

export interface StaffOrderFilter {
  status?: OrderStatus;
  kind?: "course" | "website";
  /** Ordered on or after this moment. */
  from?: Date;
  /** Ordered before this moment. */
  to?: Date;
  /** In paise, inclusive. */
  minAmount?: number;
  maxAmount?: number;
  /** Orders numbered below this one, for the next page. */
  before?: number;
}

export interface StaffOrderRow {
  id: string;
  number: number;
  kind: "course" | "website";
  title: string;
  amount: number;
  status: OrderStatus;
  createdAt: Date;
  buyer: { id: string; name: string; email: string } | null;
  refund: { status: RefundStatus } | null;
}

/** Orders, newest first, filtered by status, kind, when they were made and their amount, a page at a time. */
export async function listStaffOrders(db: Db, filter: StaffOrderFilter = {}): Promise<{ orders: StaffOrderRow[]; next: number | null }> {
  const conditions: SQL[] = [];
  if (filter.status) conditions.push(eq(orders.status, filter.status));
  if (filter.kind) conditions.push(eq(orders.kind, filter.kind));
  if (filter.from) conditions.push(gte(orders.createdAt, filter.from));
  if (filter.to) conditions.push(lt(orders.createdAt, filter.to));
  if (filter.minAmount !== undefined) conditions.push(gte(orders.amount, filter.minAmount));
  if (filter.maxAmount !== undefined) conditions.push(lte(orders.amount, filter.maxAmount));
  if (filter.before !== undefined) conditions.push(lt(orders.number, filter.before));
  const rows = await db
    .select({
      ...orderListColumns,
      buyerId: user.id,
      buyerName: user.name,
      buyerEmail: user.email,
    })
    .from(orders)
    .leftJoin(user, eq(user.id, orders.userId))
    .leftJoin(refunds, eq(refunds.orderId, orders.id))
    .where(and(...conditions))
    .orderBy(desc(orders.number))
    .limit(staffOrderPageSize + 1);
  const page = rows.slice(0, staffOrderPageSize).map(({ buyerId, buyerName, buyerEmail, ...order }) => ({
    ...withRefund(order),
    buyer: buyerId === null ? null : { id: buyerId, name: buyerName ?? "", email: buyerEmail ?? "" },
  }));
  return { orders: page, next: rows.length > staffOrderPageSize ? (page.at(-1)?.number ?? null) : null };
}

/** One thing that happened to an order, for its timeline. */
export interface TimelineEvent {
  at: Date;
  what: string;
  detail: string | null;
}

export interface StaffOrder extends Omit<StaffOrderRow, "refund"> {
  taxAmount: number;
  taxRatePercent: number;
  provider: "razorpay" | "sandbox" | "free";
  providerOrderId: string | null;
  failureReason: string | null;
  paidAt: Date | null;
  payments: { id: string; providerPaymentId: string; amount: number; status: PaymentStatus; method: string | null; failureReason: string | null; createdAt: Date }[];
  refund: { amount: number; status: RefundStatus; providerRefundId: string | null; creditNoteNumber: number | null; failureReason: string | null } | null;
  /** What it happened in, oldest first. */
  timeline: TimelineEvent[];
}

const providerNames = { razorpay: "Razorpay", sandbox: "the sandbox", free: "no provider" } as const;

/** The order with `id` as staff see it, with everything that happened to it; null when there is none. */
export async function staffOrder(db: Db, id: string): Promise<StaffOrder | null> {
  const [order] = await db
    .select({ order: orders, buyer: { id: user.id, name: user.name, email: user.email } })
    .from(orders)
    .leftJoin(user, eq(user.id, orders.userId))
    .where(eq(orders.id, id))
    .limit(1);
  if (!order) return null;
  const providerOrderId = order.order.providerOrderId;
  const [paymentRows, [refund], enrolmentRows, periodRows, auditRows, webhookRows] = await Promise.all([
    db.select().from(payments).where(eq(payments.orderId, id)).orderBy(asc(payments.createdAt)),
    db.select().from(refunds).where(eq(refunds.orderId, id)),
    db.select({ createdAt: enrolments.createdAt, status: enrolments.status, revokedAt: enrolments.revokedAt }).from(enrolments).where(eq(enrolments.orderId, id)),
    db
      .select({ createdAt: websitePeriods.createdAt, startsAt: websitePeriods.startsAt, endsAt: websitePeriods.endsAt, domain: websites.domain })
      .from(websitePeriods)
      .innerJoin(websites, eq(websites.id, websitePeriods.websiteId))
      .where(eq(websitePeriods.orderId, id)),
    db
      .select({ at: auditLog.at, action: auditLog.action, actor: auditLog.actor, reason: auditLog.reason })
      .from(auditLog)
      .where(and(eq(auditLog.subjectKind, "order"), eq(auditLog.subjectId, id))),
    // The provider's webhooks about the order or its payments (a refund's names only the payment).
    providerOrderId === null
      ? []
      : db
          .select({ at: webhookEvents.receivedAt, event: webhookEvents.event, outcome: webhookEvents.outcome })
          .from(webhookEvents)
          .where(
            or(
              eq(webhookEvents.providerOrderId, providerOrderId),
              inArray(webhookEvents.providerPaymentId, db.select({ id: payments.providerPaymentId }).from(payments).where(eq(payments.orderId, id))),
            ),
          ),
  ]);
  const { order: row, buyer } = order;
  const timeline: TimelineEvent[] = [
    { at: row.createdAt, what: "Order created", detail: `${formatPaise(row.amount)} through ${providerNames[row.provider]}${row.providerOrderId ? ` (${row.providerOrderId})` : ""}` },
    ...paymentRows.map((payment) => ({
      at: payment.createdAt,
      what: `Payment ${payment.status}`,
      detail: [payment.providerPaymentId, payment.method, formatPaise(payment.amount), payment.failureReason].filter(Boolean).join(" · "),
    })),
    ...(row.paidAt ? [{ at: row.paidAt, what: "Marked paid", detail: null }] : []),
    ...enrolmentRows.flatMap((enrolment) => [
      { at: enrolment.createdAt, what: "Course opened to the buyer", detail: null },
      ...(enrolment.revokedAt ? [{ at: enrolment.revokedAt, what: "Course access taken back", detail: null }] : []),
    ]),
    ...periodRows.map((period) => ({ at: period.createdAt, what: "Hosting period added", detail: `${period.domain}, ${formatDay(period.startsAt)} to ${formatDay(period.endsAt)}` })),
    ...(refund
      ? [
          { at: refund.createdAt, what: "Refund requested", detail: formatPaise(refund.amount) },
          ...(refund.processedAt
            ? [{ at: refund.processedAt, what: "Refund processed", detail: refund.creditNoteNumber === null ? null : `Credit note ${formatCreditNoteNumber(refund.creditNoteNumber)}` }]
            : []),
        ]
      : []),
    ...auditRows.map((entry) => ({ at: entry.at, what: `Staff: ${entry.action}`, detail: [entry.actor, entry.reason].filter(Boolean).join(" · ") })),
    ...webhookRows.map((delivery) => ({ at: delivery.at, what: `Webhook ${delivery.event} received`, detail: delivery.outcome })),
  ].toSorted((a, b) => a.at.getTime() - b.at.getTime());
  return {
    id: row.id,
    number: row.number,
    kind: row.kind,
    title: row.title,
    amount: row.amount,
    status: row.status,
    createdAt: row.createdAt,
    buyer: buyer?.id ? { id: buyer.id, name: buyer.name, email: buyer.email } : null,
    taxAmount: row.taxAmount,
    taxRatePercent: row.taxRatePercent,
    provider: row.provider,
    providerOrderId: row.providerOrderId,
    failureReason: row.failureReason,
    paidAt: row.paidAt,
    payments: paymentRows.map((payment) => ({
      id: payment.id,
      providerPaymentId: payment.providerPaymentId,
      amount: payment.amount,
      status: payment.status,
      method: payment.method,
      failureReason: payment.failureReason,
      createdAt: payment.createdAt,
    })),
    refund: refund
      ? { amount: refund.amount, status: refund.status, providerRefundId: refund.providerRefundId, creditNoteNumber: refund.creditNoteNumber, failureReason: refund.failureReason }
      : null,
    timeline,
  };
}

/** What a check found, in the words staff read it in. */
function checkSummary(check: ProviderCheck, provider: string): string {
  const captured = check.payments.find((payment) => payment.status === "captured" || payment.status === "authorized" || payment.status === "refunded");
  if (check.payments.length === 0) return `${provider} has no payment for this order: the buyer has not paid, or is paying now. Nothing changed.`;
  if (check.before !== "paid" && check.after === "paid" && captured) {
    return `${provider} took ${formatPaise(captured.amount)} by ${captured.method}: the order is now paid and fulfilled, and the receipt is on its way.`;
  }
  if (check.payments.some((payment) => payment.outcome === "amount-mismatch")) {
    return `${provider} took a payment whose amount does not match the order, so it was not fulfilled. Refund it from the provider's dashboard.`;
  }
  if (check.before === check.after && captured) return `${provider} agrees with the order: it is ${check.after}. Nothing changed.`;
  if (!captured) return `${provider} shows ${check.payments.length} failed ${check.payments.length === 1 ? "attempt" : "attempts"} and no money taken. Nothing to fulfil.`;
  return `The order was ${check.before} and is now ${check.after}.`;
}

/**
 * Asks the provider about the order and settles it as its webhooks would have, writing who asked and
 * what changed. The entry is written after the settling, not in its transactions: each payment is
 * settled by the webhook's own idempotent step, which decides nothing a staff member chose (the
 * provider's answer does), so a payment settled without its entry is one the late webhook would have
 * settled the same way.
 */
export async function checkOrderWithProvider(shop: Shop, actor: Actor, orderId: string): Promise<string> {
  const check = await checkWithProvider(shop, orderId);
  await recordAudit(shop.db, actor, {
    action: "order.check-provider",
    subject: { kind: "order", id: orderId },
    before: { status: check.before },
    after: { status: check.after, payments: check.payments.map(({ id, status, outcome }) => ({ id, status, outcome })) },
  });
  return checkSummary(check, shop.provider.kind === "razorpay" ? "Razorpay" : "The sandbox");
}

/**
 * Refunds the whole order whatever the policy says (finance), with the reason written to the audit
 * log in the refund's own transaction; returns what to tell the staff member.
 */
export async function refundOrderOutsidePolicy(shop: Shop, actor: Actor, orderId: string, input: { reason: string; amount: number | null }): Promise<string> {
  const why = stateReason(input.reason, "why this order is refunded outside the policy");
  let decided = false;
  const refund = await refundOutsidePolicy(shop, orderId, input.amount, async (tx, order, amount) => {
    decided = true;
    await recordAudit(tx, actor, {
      action: "order.refund",
      subject: { kind: "order", id: order.id },
      before: { status: order.status, paid: order.amount },
      after: { refund: amount, whole: amount === order.amount, outsidePolicy: true },
      reason: why,
    });
  });
  const amount = formatPaise(refund.amount);
  if (!decided) return `This order has a refund already (${refund.status}, ${amount}); nothing more was done.`;
  if (refund.status === "processed") return `Refunded ${amount}. The credit note is issued and the buyer is mailed.`;
  return `The refund of ${amount} is on its way: the provider confirms it when the bank has made it, and the buyer is mailed then.`;
}
