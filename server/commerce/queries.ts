import { and, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Catalog, Course } from "../catalog/index.ts";
import type { Db } from "../db/client.ts";
import { preparedStatement } from "../db/prepared.ts";
import { enrolments, lessonProgress, orders, payments, refunds } from "../db/schema.ts";
import { allLessons } from "../learning/player.ts";
import { progressPercent } from "../learning/progress.ts";
import { invoiceDiscount, type InvoiceDiscount } from "./invoice-discount.ts";
import { findOrder, type Order } from "./orders.ts";
import { courseBuyer, courseUse, type HostingPeriodKind, hostingPeriodOf, hostingRefundEligibility, refundEligibility, refundWindow, renewalBlockingRefund, type Refund, type RefundEligibility } from "./refunds.ts";

export type Payment = typeof payments.$inferSelect;

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface OwnedCourse {
  course: Course;
  enrolledAt: Date;
  completedLessons: number;
  percent: number;
}

const ownedWithProgress = preparedStatement((db) =>
  db
    .select({ courseId: enrolments.courseId, enrolledAt: enrolments.createdAt, lessonId: lessonProgress.lessonId })
    .from(enrolments)
    .leftJoin(lessonProgress, and(eq(lessonProgress.userId, enrolments.userId), eq(lessonProgress.courseId, enrolments.courseId)))
    .where(and(eq(enrolments.userId, sql.placeholder("userId")), eq(enrolments.status, "active")))
    .orderBy(desc(enrolments.createdAt))
    .prepare("owned_courses_with_progress"),
);

/**
 * The courses the user has access to now, most recently enrolled first, with their progress: one
 * query, each enrolment beside the lessons completed in its course (the pages and the API ask for
 * this on every visit).
 */
export async function listOwnedCourses(db: Db, catalog: Catalog, userId: string): Promise<OwnedCourse[]> {
  const rows = await ownedWithProgress(db).execute({ userId });
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

/** How many orders or payments an account page shows at once; older ones are a page further on. */
export const historyPageSize = 50;

/**
 * Part of a list, newest first: at most `limit` items, and only those older than the item `before`
 * names (an order's number, a payment's id) when it is given. Without it, the whole list (the data export).
 */
export interface HistoryPage<Cursor> {
  limit: number;
  before?: Cursor;
}

/** A page of at most `limit` from `rows` fetched with limit + 1, and the cursor of the next page if there is one. */
export function pageOf<T, Cursor>(rows: T[], limit: number, cursor: (last: T) => Cursor): { items: T[]; next: Cursor | null } {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, next: rows.length > limit && last !== undefined ? cursor(last) : null };
}

/**
 * The user's orders, newest first, with their refunds: all of them, or one page (see HistoryPage;
 * `before` is an order number). A page reads only its own rows through the (user, created) index,
 * so its cost does not grow with the account's history.
 */
export async function listOrders(db: Db, userId: string, page?: HistoryPage<number>): Promise<OrderWithRefund[]> {
  // An order has at most one refund (refunds.order_id is unique), so the join gives one row an order.
  const rows = async () => {
    if (!page) return withRefunds(db, eq(orders.userId, userId));
    if (page.before === undefined) return latestOrders(db).execute({ userId, limit: page.limit });
    return withRefunds(db, and(eq(orders.userId, userId), ordersBefore(userId, page.before))).limit(page.limit);
  };
  return (await rows()).map((row) => ({ ...row.order, refund: row.refund }));
}

const newestOrdersFirst = [desc(orders.createdAt), desc(orders.number)];

/** Orders older than the order numbered `before` (a page's cursor). */
const ordersBefore = (userId: string, before: number) =>
  sql`(${orders.createdAt}, ${orders.number}) < (select o.created_at, o.number from ${orders} o where o.number = ${before} and o.user_id = ${userId})`;

/** Orders with their refund, if any, newest first. */
const withRefunds = (db: Db, where: SQL | undefined) =>
  db.select({ order: orders, refund: refunds }).from(orders).leftJoin(refunds, eq(refunds.orderId, orders.id)).where(where).orderBy(...newestOrdersFirst);

/** The first page of a person's orders, asked by their account's overview and orders page on every visit. */
const latestOrders = preparedStatement((db) =>
  withRefunds(db, eq(orders.userId, sql.placeholder("userId")))
    .limit(sql.placeholder("limit"))
    .prepare("latest_orders"),
);

/** The user's orders (all, or one page), newest first, with their refunds and whether one may be asked for (which reads the learner's use of each paid course). */
export async function listOrdersWithEligibility(db: Db, catalog: Catalog, userId: string, now: Date, page?: HistoryPage<number>): Promise<OrderSummary[]> {
  return Promise.all(
    (await listOrders(db, userId, page)).map(async (order) => {
      const bought = courseBuyer(order);
      const policy = catalog.site.refund;
      const open = order.status === "paid" && !order.refund;
      const hostingPeriod = order.kind === "website" && (order.status === "paid" || order.status === "refunded") ? await hostingPeriodOf(db, order.id) : null;
      // The use of a course, or a renewal, matters only inside the refund window: older orders are refused on its date alone, with no query.
      const window = refundWindow(order, now, policy);
      const eligibility = !open
        ? null
        : bought
          ? window.eligible
            ? refundEligibility(order, { now, use: await courseUse(db, catalog, bought, { lock: false }), policy })
            : window
          : hostingPeriod
            ? hostingRefundEligibility(order, { now, period: hostingPeriod, policy, renewal: window.eligible ? await renewalBlockingRefund(db, order, hostingPeriod, { lock: false }) : null })
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

/** The user's payment attempts (all, or one page; `before` is a payment's id), newest first, with their orders and any refunds. */
export async function listPayments(db: Db, userId: string, page?: HistoryPage<string>): Promise<PaymentSummary[]> {
  const before =
    page?.before === undefined || !uuidPattern.test(page.before)
      ? undefined
      : sql`(${payments.createdAt}, ${payments.id}) < (select p.created_at, p.id from ${payments} p where p.id = ${page.before} and p.user_id = ${userId})`;
  const query = db
    .select({ payment: payments, orderNumber: orders.number, title: orders.title })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .where(and(eq(payments.userId, userId), before))
    .orderBy(desc(payments.createdAt), desc(payments.id));
  const rows = page ? await query.limit(page.limit) : await query;
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
  /** The coupon the order used, for the invoice's discount line. */
  discount: InvoiceDiscount | null;
}

/** One of the user's orders with the payment that paid it, for the receipt page. */
export async function getReceipt(db: Db, userId: string, orderId: string): Promise<Receipt> {
  const order = await findOrder({ db }, userId, orderId);
  const rows = await db.select().from(payments).where(eq(payments.orderId, order.id)).orderBy(desc(payments.createdAt));
  const payment = rows.find((p) => p.status === "captured" || p.status === "refunded" || p.status === "authorized") ?? rows[0] ?? null;
  const [[refund], discount] = await Promise.all([db.select().from(refunds).where(eq(refunds.orderId, order.id)), invoiceDiscount(db, order)]);
  return { order, payment, refund: refund ?? null, discount };
}

/** Said of a paid hosting order that bought nothing when no reason was recorded for it (orders paid before fulfilment recorded one). */
const unrecordedHostingReason = "we could not start or extend its hosting when it arrived";

/**
 * Why a paid hosting order bought no period, as fulfilment decided and recorded it when the payment
 * arrived (applyPayment); null for an order that is not a paid hosting order or that did buy one.
 * The reason is never worked out again from the website as it is now, which may have changed since.
 */
export async function unappliedHostingReason(db: Db, order: Pick<Order, "id" | "kind" | "status" | "failureReason">): Promise<string | null> {
  if (order.kind !== "website" || (order.status !== "paid" && order.status !== "refunded")) return null;
  if ((await hostingPeriodOf(db, order.id)) !== "none") return null;
  return order.failureReason ?? unrecordedHostingReason;
}
