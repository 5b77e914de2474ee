import { and, count, countDistinct, eq, gt, gte, isNull, lt, lte, sql } from "drizzle-orm";
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

async function takingsSince(db: Db, from: Date, to: Date): Promise<Takings> {
  const [[sold], [returned]] = await Promise.all([
    db
      .select({ gross: sql<number>`coalesce(sum(${orders.amount}), 0)::bigint`, gst: sql<number>`coalesce(sum(${orders.taxAmount}), 0)::bigint` })
      .from(orders)
      .where(and(gte(orders.paidAt, from), lt(orders.paidAt, to), gt(orders.amount, 0))),
    db
      .select({ refunded: sql<number>`coalesce(sum(${refunds.amount}), 0)::bigint`, gst: sql<number>`coalesce(sum(${orders.taxAmount}), 0)::bigint` })
      .from(refunds)
      .innerJoin(orders, eq(orders.id, refunds.orderId))
      .where(and(eq(refunds.status, "processed"), gte(refunds.processedAt, from), lt(refunds.processedAt, to))),
  ]);
  const gross = Number(sold?.gross ?? 0);
  const refunded = Number(returned?.refunded ?? 0);
  return { gross, refunded, net: gross - refunded, gst: Number(sold?.gst ?? 0) - Number(returned?.gst ?? 0) };
}

const counted = async (rows: Promise<{ n: number }[]>) => Number((await rows)[0]?.n ?? 0);

/** The figures on the back office's front page, as of `now`; days are India's. */
export async function dashboardFigures(db: Db, now: Date): Promise<DashboardFigures> {
  const today = indiaDayStartOf(now);
  const daysAgo = (days: number) => new Date(today.getTime() - days * dayMs);
  const end = new Date(now.getTime() + 1);
  const [todayTakings, weekTakings, monthTakings, payingCustomers, weekSignUps, monthSignUps, enrolled, completions, active, expiringSoon, failedPayments, waitingOrders, queued, failedMail, webhooksWaiting] =
    await Promise.all([
      takingsSince(db, today, end),
      takingsSince(db, daysAgo(6), end),
      takingsSince(db, daysAgo(29), end),
      counted(db.select({ n: countDistinct(orders.userId) }).from(orders).where(and(gte(orders.paidAt, daysAgo(29)), gt(orders.amount, 0)))),
      counted(db.select({ n: count() }).from(user).where(gte(user.createdAt, daysAgo(6)))),
      counted(db.select({ n: count() }).from(user).where(gte(user.createdAt, daysAgo(29)))),
      counted(db.select({ n: count() }).from(enrolments).where(gte(enrolments.createdAt, daysAgo(29)))),
      counted(db.select({ n: count() }).from(certificates).where(gte(certificates.issuedAt, daysAgo(29)))),
      counted(db.select({ n: count() }).from(websites).where(and(isNull(websites.cancelledAt), gt(websites.expiresAt, now)))),
      counted(
        db
          .select({ n: count() })
          .from(websites)
          .where(and(isNull(websites.cancelledAt), gt(websites.expiresAt, now), lte(websites.expiresAt, new Date(now.getTime() + 30 * dayMs)))),
      ),
      counted(db.select({ n: count() }).from(payments).where(and(eq(payments.status, "failed"), gte(payments.createdAt, daysAgo(6))))),
      counted(
        db
          .select({ n: count() })
          .from(orders)
          .where(and(eq(orders.status, "created"), gte(orders.createdAt, daysAgo(6)), lt(orders.createdAt, new Date(now.getTime() - 3_600_000)))),
      ),
      counted(db.select({ n: count() }).from(mailOutbox).where(eq(mailOutbox.status, "pending"))),
      counted(db.select({ n: count() }).from(mailOutbox).where(eq(mailOutbox.status, "failed"))),
      counted(db.select({ n: count() }).from(sandboxWebhooks).where(isNull(sandboxWebhooks.deliveredAt))),
    ]);
  return {
    takings: { today: todayTakings, week: weekTakings, month: monthTakings },
    payingCustomers,
    signUps: { week: weekSignUps, month: monthSignUps },
    enrolments: enrolled,
    completions,
    websites: { active, expiringSoon },
    failedPayments,
    waitingOrders,
    mail: { queued, failed: failedMail },
    webhooksWaiting,
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
