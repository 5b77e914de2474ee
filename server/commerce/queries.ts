import { and, desc, eq, inArray } from "drizzle-orm";
import type { Catalog, Course } from "../catalog/index.ts";
import type { Db } from "../db/client.ts";
import { enrolments, lessonProgress, orders, payments, refunds } from "../db/schema.ts";
import { allLessons } from "../learning/player.ts";
import { progressPercent } from "../learning/progress.ts";
import { findOrder, type Order } from "./orders.ts";
import { courseBuyer, courseUse, type HostingPeriodKind, hostingPeriodOf, hostingRefundEligibility, refundEligibility, renewalBlockingRefund, type Refund, type RefundEligibility } from "./refunds.ts";

export type Payment = typeof payments.$inferSelect;

export interface OwnedCourse {
  course: Course;
  enrolledAt: Date;
  completedLessons: number;
  percent: number;
}

/**
 * The courses the user has access to now, most recently enrolled first, with their progress: one
 * query, each enrolment beside the lessons completed in its course (the pages and the API ask for
 * this on every visit).
 */
export async function listOwnedCourses(db: Db, catalog: Catalog, userId: string): Promise<OwnedCourse[]> {
  const rows = await db
    .select({ courseId: enrolments.courseId, enrolledAt: enrolments.createdAt, lessonId: lessonProgress.lessonId })
    .from(enrolments)
    .leftJoin(lessonProgress, and(eq(lessonProgress.userId, enrolments.userId), eq(lessonProgress.courseId, enrolments.courseId)))
    .where(and(eq(enrolments.userId, userId), eq(enrolments.status, "active")))
    .orderBy(desc(enrolments.createdAt));
  const owned = new Map<string, { course: Course; enrolledAt: Date; done: Set<string> }>();
  for (const row of rows) {
    const course = catalog.courses.find((c) => c.id === row.courseId);
    if (!course) continue;
    const entry = owned.get(course.id) ?? { course, enrolledAt: row.enrolledAt, done: new Set<string>() };
    owned.set(course.id, entry);
    if (row.lessonId) entry.done.add(row.lessonId);
  }
  return [...owned.values()].map(({ course, enrolledAt, done }) => {
    // Progress on a lesson the course no longer has does not count.
    const completed = allLessons(course).filter((lesson) => done.has(lesson.id)).length;
    return { course, enrolledAt, completedLessons: completed, percent: progressPercent(completed, course) };
  });
}

export interface OrderWithRefund extends Order {
  refund: Refund | null;
}

export interface OrderSummary extends OrderWithRefund {
  /** Whether a refund can be asked for now, and if not, why. Only for paid orders. */
  refundEligibility: RefundEligibility | null;
  /** For a paid or refunded hosting order: which period of its website it bought, or none. */
  hostingPeriod: HostingPeriodKind | null;
}

/** Every order of the user, newest first, with its refund. */
export async function listOrders(db: Db, userId: string): Promise<OrderWithRefund[]> {
  const rows = await db.select().from(orders).where(eq(orders.userId, userId)).orderBy(desc(orders.createdAt));
  const ids = rows.map((o) => o.id);
  const refundRows = ids.length ? await db.select().from(refunds).where(inArray(refunds.orderId, ids)) : [];
  return rows.map((order) => ({ ...order, refund: refundRows.find((r) => r.orderId === order.id) ?? null }));
}

/** Every order of the user, newest first, with its refund and whether one may be asked for (which reads the learner's use of each paid course). */
export async function listOrdersWithEligibility(db: Db, catalog: Catalog, userId: string, now: Date): Promise<OrderSummary[]> {
  return Promise.all(
    (await listOrders(db, userId)).map(async (order) => {
      const bought = courseBuyer(order);
      const policy = catalog.site.refund;
      const open = order.status === "paid" && !order.refund;
      const hostingPeriod = order.kind === "website" && (order.status === "paid" || order.status === "refunded") ? await hostingPeriodOf(db, order.id) : null;
      const eligibility = !open
        ? null
        : bought
          ? refundEligibility(order, { now, use: await courseUse(db, catalog, bought, { lock: false }), policy })
          : hostingPeriod
            ? hostingRefundEligibility(order, { now, period: hostingPeriod, policy, renewal: await renewalBlockingRefund(db, order, hostingPeriod, { lock: false }) })
            : null;
      return { ...order, refundEligibility: eligibility, hostingPeriod };
    }),
  );
}

/** An attempt at paying for an order that did not go through: a declined payment, a closed window, an abandoned order. */
export interface FailedAttempt {
  at: Date;
  reason: string;
}

export type OrderWithAttempts<T> = T & { attempts: FailedAttempt[] };

const sameItem = (a: Order, b: Order) => (a.courseId !== null && a.courseId === b.courseId) || (a.websiteId !== null && a.websiteId === b.websiteId);
const newestFirst = (attempts: FailedAttempt[]) => attempts.toSorted((x, y) => y.at.getTime() - x.at.getTime());

/**
 * The user's orders as one purchase each: an order that failed or was abandoned is folded under the
 * next order of the same course or website, and every order lists the payments that failed on it.
 * `orders` are newest first, as listOrders gives them.
 */
export async function foldAttempts<T extends Order>(db: Db, list: T[]): Promise<OrderWithAttempts<T>[]> {
  const ids = list.map((o) => o.id);
  const failed = ids.length
    ? await db
        .select({ orderId: payments.orderId, at: payments.createdAt, reason: payments.failureReason })
        .from(payments)
        .where(and(inArray(payments.orderId, ids), eq(payments.status, "failed")))
    : [];
  const own = (order: Order): FailedAttempt[] =>
    failed.filter((p) => p.orderId === order.id).map((p) => ({ at: p.at, reason: p.reason ?? "The payment did not go through." }));
  const result: OrderWithAttempts<T>[] = [];
  // Oldest first, so each abandoned order is carried forward to the next attempt at its item.
  const carried = new Map<T, FailedAttempt[]>();
  for (const order of list.toReversed()) {
    const earlier = [...carried].filter(([o]) => sameItem(o, order));
    for (const [o] of earlier) carried.delete(o);
    const attempts = [...earlier.flatMap(([, a]) => a), ...own(order)];
    if (order.status !== "failed" && order.status !== "cancelled") {
      result.push({ ...order, attempts: newestFirst(attempts) });
      continue;
    }
    // A declined payment is the order's failure; closing the window, or an order the provider never opened, is an attempt of its own.
    const itself = order.status === "cancelled" || own(order).length === 0;
    const reason = order.failureReason ?? "This attempt was abandoned. Nothing was charged.";
    carried.set(order, itself ? [...attempts, { at: order.updatedAt, reason }] : attempts);
  }
  // The latest attempt at an item that never went through stands as it is (its note says how it
  // ended), with the attempts before it.
  for (const [order, attempts] of carried) result.push({ ...order, attempts: newestFirst(attempts).slice(1) });
  return result.toSorted((x, y) => y.createdAt.getTime() - x.createdAt.getTime());
}

export interface PaymentSummary extends Payment {
  orderNumber: number;
  title: string;
  refund: Refund | null;
}

/** Every payment attempt of the user, newest first, with its order and any refund. */
export async function listPayments(db: Db, userId: string): Promise<PaymentSummary[]> {
  const rows = await db
    .select({ payment: payments, orderNumber: orders.number, title: orders.title })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .where(eq(payments.userId, userId))
    .orderBy(desc(payments.createdAt));
  const ids = rows.map((r) => r.payment.id);
  const refundRows = ids.length ? await db.select().from(refunds).where(inArray(refunds.paymentId, ids)) : [];
  return rows.map((r) => ({
    ...r.payment,
    orderNumber: r.orderNumber,
    title: r.title,
    refund: refundRows.find((f) => f.paymentId === r.payment.id) ?? null,
  }));
}

export interface Receipt {
  order: Order;
  payment: Payment | null;
  refund: Refund | null;
}

/** One of the user's orders with the payment that paid it, for the receipt page. */
export async function getReceipt(db: Db, userId: string, orderId: string): Promise<Receipt> {
  const order = await findOrder({ db }, userId, orderId);
  const rows = await db.select().from(payments).where(eq(payments.orderId, order.id)).orderBy(desc(payments.createdAt));
  const payment = rows.find((p) => p.status === "captured" || p.status === "refunded" || p.status === "authorized") ?? rows[0] ?? null;
  const [refund] = await db.select().from(refunds).where(eq(refunds.orderId, order.id));
  return { order, payment, refund: refund ?? null };
}
