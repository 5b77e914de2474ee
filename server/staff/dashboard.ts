import { and, count, countDistinct, eq, gt, gte, isNull, lt, lte, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn, AnyPgTable } from "drizzle-orm/pg-core";
import type { Db } from "../db/client.ts";
import { certificates, enrolments, mailOutbox, orders, payments, refunds, sandboxWebhooks, user, websites } from "../db/schema.ts";

const dayMs = 86_400_000;
/** India is 5½ hours ahead of UTC all year: a day in India starts at 18:30 UTC the day before. */
const indiaOffsetSeconds = 19_800;

/** The number of the day in India a moment falls on (days since 1 January 1970 there), in SQL. */
const indiaDayOf = (column: unknown) => sql<number>`floor((extract(epoch from ${column}) + ${indiaOffsetSeconds}) / 86400)::int`;

/** The start of the day in India that `now` falls on. */
export function indiaDayStartOf(now: Date): Date {
  const day = Math.floor((now.getTime() / 1000 + indiaOffsetSeconds) / 86_400);
  return new Date((day * 86_400 - indiaOffsetSeconds) * 1000);
}

/** Money taken and given back in a period, in paise: invoices issued less credit notes, GST apart. */
export interface Takings {
  /** Invoices issued (orders paid for money), GST included. */
  gross: number;
  /** Credit notes issued (refunds processed). */
  refunded: number;
  /** Gross less refunded. */
  net: number;
  /** The GST within `net`, owed to the government rather than earned. */
  gst: number;
}

export interface DashboardFigures {
  takings: { today: Takings; week: Takings; month: Takings };
  /** People who paid for anything in the last 30 days. */
  payingCustomers: number;
  signUps: { week: number; month: number };
  /** Courses opened to learners (bought or granted) in the last 30 days. */
  enrolments: number;
  /** Certificates issued in the last 30 days: courses completed. */
  completions: number;
  websites: { active: number; expiringSoon: number };
  /** Payment attempts the provider declined in the last 7 days. */
  failedPayments: number;
  /** Orders still waiting for payment an hour after they were made, in the last 7 days: worth a "check with the provider". */
  waitingOrders: number;
  mail: { queued: number; failed: number };
  /** The sandbox's webhooks not yet delivered (Razorpay's own are not counted: it keeps them). */
  webhooksWaiting: number;
}

export interface DailyFigures {
  /** The day in India, YYYY-MM-DD. */
  day: string;
  /** Invoices less credit notes, paise. */
  net: number;
  signUps: number;
}

/** `count(*)` of the rows of `table` where `condition` holds, as a scalar subquery. */
const countOf = (table: SQL | AnyPgTable, condition: SQL | undefined) => sql<number>`(select count(*) from ${table} where ${condition})::int`;

/** A sum in paise over the rows a FILTER lets through, 0 when none does. */
const paiseWhere = (column: AnyPgColumn, condition: SQL | undefined) => sql<number>`coalesce(sum(${column}) filter (where ${condition}), 0)::bigint`;

/** Takings from the sums of invoices and credit notes in a window, each read as a bigint (text or number). */
const takings = (gross: unknown, gst: unknown, refunded: unknown, refundedGst: unknown): Takings => ({
  gross: Number(gross ?? 0),
  refunded: Number(refunded ?? 0),
  net: Number(gross ?? 0) - Number(refunded ?? 0),
  gst: Number(gst ?? 0) - Number(refundedGst ?? 0),
});

/** The figures on the back office's front page, as of `now`; days are India's. Three statements, each a single pass. */
export async function dashboardFigures(db: Db, now: Date): Promise<DashboardFigures> {
  const today = indiaDayStartOf(now);
  const daysAgo = (days: number) => new Date(today.getTime() - days * dayMs);
  const end = new Date(now.getTime() + 1);
  const windows = { today, week: daysAgo(6), month: daysAgo(29) } as const;
  const inWindow = (column: AnyPgColumn, from: Date) => and(gte(column, from), lt(column, end));
  /** Sums of `amount` and of the orders' GST over the rows whose `moment` falls in each window. */
  const windowSums = (amount: AnyPgColumn, moment: AnyPgColumn) => ({
    todayAmount: paiseWhere(amount, inWindow(moment, windows.today)),
    todayGst: paiseWhere(orders.taxAmount, inWindow(moment, windows.today)),
    weekAmount: paiseWhere(amount, inWindow(moment, windows.week)),
    weekGst: paiseWhere(orders.taxAmount, inWindow(moment, windows.week)),
    monthAmount: paiseWhere(amount, inWindow(moment, windows.month)),
    monthGst: paiseWhere(orders.taxAmount, inWindow(moment, windows.month)),
  });
  const [[sold], [returned], [counts]] = await Promise.all([
    // Invoices: orders paid for money, in the last 30 days.
    db
      .select({ ...windowSums(orders.amount, orders.paidAt), payingCustomers: countDistinct(orders.userId) })
      .from(orders)
      .where(and(inWindow(orders.paidAt, windows.month), gt(orders.amount, 0))),
    // Credit notes: refunds processed in the last 30 days, with the GST of their orders.
    db
      .select(windowSums(refunds.amount, refunds.processedAt))
      .from(refunds)
      .innerJoin(orders, eq(orders.id, refunds.orderId))
      .where(and(eq(refunds.status, "processed"), inWindow(refunds.processedAt, windows.month))),
    // Every count, one scalar subquery each, in one round trip.
    db
      .select({
        weekSignUps: countOf(user, gte(user.createdAt, windows.week)),
        monthSignUps: countOf(user, gte(user.createdAt, windows.month)),
        enrolments: countOf(enrolments, gte(enrolments.createdAt, windows.month)),
        completions: countOf(certificates, gte(certificates.issuedAt, windows.month)),
        activeWebsites: countOf(websites, and(isNull(websites.cancelledAt), isNull(websites.suspendedAt), gt(websites.expiresAt, now))),
        expiringSoon: countOf(websites, and(isNull(websites.cancelledAt), isNull(websites.suspendedAt), gt(websites.expiresAt, now), lte(websites.expiresAt, new Date(now.getTime() + 30 * dayMs)))),
        failedPayments: countOf(payments, and(eq(payments.status, "failed"), gte(payments.createdAt, windows.week))),
        waitingOrders: countOf(orders, and(eq(orders.status, "created"), gte(orders.createdAt, windows.week), lt(orders.createdAt, new Date(now.getTime() - 3_600_000)))),
        queuedMail: countOf(mailOutbox, eq(mailOutbox.status, "pending")),
        failedMail: countOf(mailOutbox, eq(mailOutbox.status, "failed")),
        webhooksWaiting: countOf(sandboxWebhooks, isNull(sandboxWebhooks.deliveredAt)),
      })
      .from(sql`(select 1) as one`),
  ]);
  const n = (key: keyof NonNullable<typeof counts>) => Number(counts?.[key] ?? 0);
  return {
    takings: {
      today: takings(sold?.todayAmount, sold?.todayGst, returned?.todayAmount, returned?.todayGst),
      week: takings(sold?.weekAmount, sold?.weekGst, returned?.weekAmount, returned?.weekGst),
      month: takings(sold?.monthAmount, sold?.monthGst, returned?.monthAmount, returned?.monthGst),
    },
    payingCustomers: Number(sold?.payingCustomers ?? 0),
    signUps: { week: n("weekSignUps"), month: n("monthSignUps") },
    enrolments: n("enrolments"),
    completions: n("completions"),
    websites: { active: n("activeWebsites"), expiringSoon: n("expiringSoon") },
    failedPayments: n("failedPayments"),
    waitingOrders: n("waitingOrders"),
    mail: { queued: n("queuedMail"), failed: n("failedMail") },
    webhooksWaiting: n("webhooksWaiting"),
  };
}

/** Net takings and sign-ups for each of the `days` days in India up to the one `now` falls on, oldest first. */
export async function dailyFigures(db: Db, now: Date, days = 90): Promise<DailyFigures[]> {
  const today = indiaDayStartOf(now);
  const from = new Date(today.getTime() - (days - 1) * dayMs);
  const firstDay = Math.round((from.getTime() / 1000 + indiaOffsetSeconds) / 86_400);
  const [sold, returned, joined] = await Promise.all([
    db
      .select({ day: indiaDayOf(orders.paidAt), paise: sql<number>`sum(${orders.amount})::bigint` })
      .from(orders)
      .where(and(gte(orders.paidAt, from), gt(orders.amount, 0)))
      .groupBy(sql`1`),
    db
      .select({ day: indiaDayOf(refunds.processedAt), paise: sql<number>`sum(${refunds.amount})::bigint` })
      .from(refunds)
      .where(and(eq(refunds.status, "processed"), gte(refunds.processedAt, from)))
      .groupBy(sql`1`),
    db.select({ day: indiaDayOf(user.createdAt), n: count() }).from(user).where(gte(user.createdAt, from)).groupBy(sql`1`),
  ]);
  const soldOn = new Map(sold.map((row) => [row.day, Number(row.paise)]));
  const returnedOn = new Map(returned.map((row) => [row.day, Number(row.paise)]));
  const joinedOn = new Map(joined.map((row) => [row.day, Number(row.n)]));
  return Array.from({ length: days }, (_, index) => {
    const day = firstDay + index;
    return {
      day: new Date(day * dayMs).toISOString().slice(0, 10),
      net: (soldOn.get(day) ?? 0) - (returnedOn.get(day) ?? 0),
      signUps: joinedOn.get(day) ?? 0,
    };
  });
}
