import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, ne, or, type SQL, sql } from "drizzle-orm";
// Formatting is shared with the pages; the module is plain functions with no browser dependency.
import { formatDay } from "../../common/format.ts";
import { unpaidWebsiteDays, type WebsiteState } from "../../common/website-states.ts";
import type { Catalog } from "../catalog/index.ts";
import type { Db, Tx } from "../db/client.ts";
import { preparedStatement } from "../db/prepared.ts";
import { orders, refunds, user, websitePeriods, websites } from "../db/schema.ts";
import { isUniqueViolation } from "../db/unique-violation.ts";
import { Conflict, NotFound, ValidationError } from "../errors.ts";
import { normaliseDomain } from "./domain-name.ts";
import { hostingPlan } from "./plans.ts";
import { expiringWithinDays, graceDays } from "./rules.ts";

export type Website = typeof websites.$inferSelect;
type Order = typeof orders.$inferSelect;

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One of the user's own websites; another customer's is "not found", never "forbidden". */
export async function findWebsite(db: Db | Tx, userId: string, websiteId: string): Promise<Website> {
  if (!uuidPattern.test(websiteId)) throw new NotFound("We could not find that website.");
  const [site] = await db
    .select()
    .from(websites)
    .where(and(eq(websites.id, websiteId), eq(websites.userId, userId)));
  if (!site) throw new NotFound("We could not find that website.");
  return site;
}

/** The live website (paid, not cancelled) that holds this domain, other than `except`. */
export async function liveWebsiteFor(db: Db | Tx, domain: string, except?: string): Promise<Website | undefined> {
  const [live] = await db
    .select()
    .from(websites)
    .where(and(eq(websites.domain, domain), isNotNull(websites.startedAt), isNull(websites.cancelledAt), except ? ne(websites.id, except) : undefined));
  return live;
}

function takenMessage(domain: string): string {
  return `${domain} is already hosted with us. If it is yours, write to us from the address on that account and we will sort it out.`;
}

/** Whether a refund of the whole first period is asked for and has not failed: once processed, it ends the website (one of part of it, goodwill, does not). */
export async function firstPeriodRefund(db: Db | Tx, websiteId: string): Promise<boolean> {
  const [first] = await db
    .select({ orderId: websitePeriods.orderId })
    .from(websitePeriods)
    .where(eq(websitePeriods.websiteId, websiteId))
    .orderBy(asc(websitePeriods.startsAt))
    .limit(1);
  if (!first) return false;
  const [refund] = await db
    .select({ id: refunds.id })
    .from(refunds)
    .innerJoin(orders, eq(orders.id, refunds.orderId))
    .where(and(eq(refunds.orderId, first.orderId), ne(refunds.status, "failed"), eq(refunds.amount, orders.amount)));
  return refund !== undefined;
}

/** A renewal paid after a website's first period: what refunding that first period would leave without a website. */
export interface PaidRenewal {
  domain: string;
  orderNumber: number;
  /** Until when the website is paid for. */
  expiresAt: Date;
}

/**
 * The latest paid period of the website other than `firstOrderId`'s, if any. With `lock` (inside a
 * refund's transaction) the website row is locked first, so a renewal's payment (addPaidPeriod
 * locks the same row) is either seen here or sees the refund.
 */
export async function paidRenewal(db: Db | Tx, websiteId: string, firstOrderId: string, options: { lock: boolean }): Promise<PaidRenewal | null> {
  const query = db.select({ domain: websites.domain, expiresAt: websites.expiresAt }).from(websites).where(eq(websites.id, websiteId));
  const [site] = options.lock ? await query.for("update") : await query;
  if (!site?.expiresAt) return null;
  const [renewal] = await db
    .select({ number: orders.number })
    .from(websitePeriods)
    .innerJoin(orders, eq(orders.id, websitePeriods.orderId))
    .where(and(eq(websitePeriods.websiteId, websiteId), ne(websitePeriods.orderId, firstOrderId), eq(orders.status, "paid")))
    .orderBy(desc(websitePeriods.startsAt))
    .limit(1);
  return renewal ? { domain: site.domain, orderNumber: renewal.number, expiresAt: site.expiresAt } : null;
}

/** Throws with what to do when a period cannot be bought for this website. */
export async function assertRenewable(db: Db | Tx, site: Website, now: Date): Promise<void> {
  if (await firstPeriodRefund(db, site.id)) {
    throw new ValidationError(`You asked for a refund of ${site.domain}'s first period, which ends its hosting, so it cannot be renewed. To host it again, choose a plan on the website hosting page.`);
  }
  if (site.cancelledAt) {
    const keepable = (await keepRefusal(db, site, now)) === null;
    throw new ValidationError(
      keepable
        ? `You cancelled ${site.domain} on ${formatDay(site.cancelledAt)}. To renew it, choose Keep my website on its page first.`
        : `${site.cancelledBy === "owner" ? "You" : "We"} cancelled ${site.domain} on ${formatDay(site.cancelledAt)}, so it cannot be renewed. To host it again, choose a plan on the website hosting page.`,
    );
  }
  if (!site.startedAt && (await liveWebsiteFor(db, site.domain, site.id))) throw new Conflict(takenMessage(site.domain));
}

/** How many websites one person may have waiting for a first payment. */
export const pendingWebsiteLimit = 5;

/**
 * A customer picked a plan and typed a domain: the pending website the purchase is for. The
 * customer's own pending website for the same domain is reused (a second try does not make a
 * second site). A domain someone hosts with us already is refused; the customer's own live site
 * is renewed from its page instead. At most pendingWebsiteLimit wait for a first payment at once:
 * the account row is locked while they are counted, so requests sent together cannot pass the bound.
 */
export async function startWebsite(
  db: Db,
  catalog: Catalog,
  input: { userId: string; serviceId: string; planId: string; domain: string },
): Promise<Website> {
  const plan = hostingPlan(catalog, input.serviceId, input.planId);
  if (!plan) throw new NotFound("We could not find that plan. Choose one of the plans listed.");
  const domain = normaliseDomain(input.domain);
  const live = await liveWebsiteFor(db, domain);
  if (live?.userId === input.userId) throw new Conflict(`You already host ${domain} with us. Renew it from its page under Services in your account.`);
  if (live) throw new Conflict(takenMessage(domain));
  return db.transaction(async (tx) => {
    await tx.select({ id: user.id }).from(user).where(eq(user.id, input.userId)).for("update");
    const pending = await tx
      .select()
      .from(websites)
      .where(and(eq(websites.userId, input.userId), isNull(websites.startedAt), isNull(websites.cancelledAt)))
      .orderBy(desc(websites.createdAt));
    const same = pending.find((site) => site.domain === domain);
    if (same) {
      const [updated] = await tx
        .update(websites)
        .set({ planId: plan.id, billingInterval: plan.interval, serviceId: input.serviceId, updatedAt: sql`now()` })
        .where(eq(websites.id, same.id))
        .returning();
      return updated ?? same;
    }
    if (pending.length >= pendingWebsiteLimit) {
      throw new Conflict(
        `You already have ${pendingWebsiteLimit} websites waiting for their first payment. Finish paying for one of them, or cancel one you no longer need on its page, before adding another.`,
      );
    }
    const [created] = await tx.insert(websites).values({ userId: input.userId, serviceId: input.serviceId, domain, planId: plan.id, billingInterval: plan.interval }).returning();
    if (!created) throw new Conflict("This website is already being set up.");
    return created;
  });
}

/**
 * The websites in `state` at `now`, as SQL: the rules of websiteState (rules.ts) for a whole table,
 * with its windows (expiringWithinDays, graceDays); a test holds the two to the same answers.
 */
export function websiteInState(state: WebsiteState, now: Date): SQL {
  const at = now.toISOString();
  const graceStart = new Date(now.getTime() - graceDays * 86_400_000).toISOString();
  const windowEnd = sql`${at}::timestamptz + make_interval(days => case ${websites.billingInterval} when 'year' then ${expiringWithinDays("year")}::int else ${expiringWithinDays("month")}::int end)`;
  const live = and(isNull(websites.cancelledAt), isNull(websites.suspendedAt)) as SQL;
  const conditions: Record<WebsiteState, SQL | undefined> = {
    cancelled: isNotNull(websites.cancelledAt),
    suspended: and(isNull(websites.cancelledAt), or(isNotNull(websites.suspendedAt), sql`${websites.expiresAt} <= ${graceStart}::timestamptz`)),
    pending: and(live, isNull(websites.expiresAt)),
    active: and(live, sql`${websites.expiresAt} > ${windowEnd}`),
    expiring: and(live, sql`${websites.expiresAt} > ${at}::timestamptz and ${websites.expiresAt} <= ${windowEnd}`),
    expired: and(live, sql`${websites.expiresAt} <= ${at}::timestamptz and ${websites.expiresAt} > ${graceStart}::timestamptz`),
  };
  return conditions[state] as SQL;
}

/** How many websites an account page lists; the ones that need attention soonest come first, so those past it matter least. */
export const websitesPageSize = 100;

/** The user's websites (all, or the first `limit`), the ones that need attention soonest first: by expiry, pending and cancelled ones last. */
export async function listWebsites(db: Db, userId: string, options?: { limit: number }): Promise<Website[]> {
  if (!options) return everyWebsiteOf(db).execute({ userId });
  return websitesOf(db, eq(websites.userId, userId)).limit(options.limit);
}

/** Websites `where` selects: live ones first, the soonest to expire first, then the newest. */
const websitesOf = (db: Db, where: SQL) =>
  db
    .select()
    .from(websites)
    .where(where)
    .orderBy(sql`${websites.cancelledAt} is not null`, sql`${websites.expiresAt} asc nulls last`, desc(websites.createdAt));

/** A person's websites, asked by their account's overview and websites page on every visit. */
const everyWebsiteOf = preparedStatement((db) => websitesOf(db, eq(websites.userId, sql.placeholder("userId"))).prepare("websites_of_person"));

export interface WebsitePeriodEntry {
  id: string;
  planId: string;
  startsAt: Date;
  endsAt: Date;
  order: { id: string; number: number; amount: number; status: Order["status"] };
}

/** Every period paid for the website, newest first, each with the order that paid it. */
export async function websiteHistory(db: Db, websiteId: string): Promise<WebsitePeriodEntry[]> {
  const rows = await db
    .select({ period: websitePeriods, order: { id: orders.id, number: orders.number, amount: orders.amount, status: orders.status } })
    .from(websitePeriods)
    .innerJoin(orders, eq(orders.id, websitePeriods.orderId))
    .where(eq(websitePeriods.websiteId, websiteId))
    .orderBy(desc(websitePeriods.startsAt));
  return rows.map(({ period, order }) => ({ id: period.id, planId: period.planId, startsAt: period.startsAt, endsAt: period.endsAt, order }));
}

/**
 * The customer lets a website go: no more reminders and no renewals. What is paid for still runs
 * to its expiry, and until then keepWebsite undoes it. Cancelling again changes nothing. A website
 * never paid for is removed, with its orders still waiting for payment (it holds nothing to keep),
 * and null is returned.
 */
export async function cancelWebsite(db: Db, userId: string, websiteId: string, now: Date): Promise<Website | null> {
  const site = await findWebsite(db, userId, websiteId);
  if (!site.startedAt) {
    const removed = await removeUnpaid(db, eq(websites.id, site.id), "You cancelled the website before paying for it. Nothing was charged.", now);
    if (removed > 0) return null;
  }
  const [cancelled] = await db
    .update(websites)
    .set({ cancelledAt: now, cancelledBy: "owner", updatedAt: now })
    .where(and(eq(websites.id, site.id), isNull(websites.cancelledAt)))
    .returning();
  return cancelled ?? site;
}

/**
 * Why the owner cannot take back the cancellation of `site` at `now`, or null when they can: only
 * their own cancellation (not ours, nor the end a refund of its first period brings), and only while
 * a paid period still runs, for a domain no other website has gone live on since.
 */
export async function keepRefusal(db: Db | Tx, site: Website, now: Date): Promise<string | null> {
  if (!site.cancelledAt) return null;
  if (site.cancelledBy === "staff") return `We cancelled ${site.domain} on ${formatDay(site.cancelledAt)}, so it cannot be kept from here. If you want to keep it, write to us.`;
  if (site.cancelledBy === "refund" || (await firstPeriodRefund(db, site.id))) {
    return `You asked for a refund of ${site.domain}'s first period, which ends its hosting, so it cannot be kept. To host it again, choose a plan on the website hosting page.`;
  }
  if (!site.expiresAt || site.expiresAt <= now) {
    return `${site.domain}'s paid period ended on ${formatDay(site.expiresAt ?? site.cancelledAt)}, so there is nothing left to keep. To host it again, choose a plan on the website hosting page.`;
  }
  const live = await liveWebsiteFor(db, site.domain, site.id);
  if (live?.userId === site.userId) return `You host ${site.domain} with us on another website since you cancelled this one. Renew that one from its page under Services in your account.`;
  if (live) return takenMessage(site.domain);
  return null;
}

/**
 * The owner takes back their cancellation before the paid period ends: the website is live again,
 * with its reminders and renewals, as if never cancelled. Keeping a website that is not cancelled
 * changes nothing; one that cannot be kept is refused with keepRefusal's reason. The row is locked,
 * so a refund or a second request at the same moment is ordered before or after, never between.
 */
export async function keepWebsite(db: Db, userId: string, websiteId: string, now: Date): Promise<Website> {
  const { domain } = await findWebsite(db, userId, websiteId);
  try {
    return await db.transaction(async (tx) => {
      const [site] = await tx.select().from(websites).where(and(eq(websites.id, websiteId), eq(websites.userId, userId))).for("update");
      if (!site) throw new NotFound("We could not find that website.");
      if (!site.cancelledAt) return site;
      const refusal = await keepRefusal(tx, site, now);
      if (refusal) throw new Conflict(refusal);
      const [kept] = await tx.update(websites).set({ cancelledAt: null, cancelledBy: null, updatedAt: now }).where(eq(websites.id, site.id)).returning();
      return kept ?? site;
    });
  } catch (error) {
    // Another website went live on the domain between the check and the change.
    if (isUniqueViolation(error)) throw new Conflict(`${domain} went live on another website a moment ago, so this one cannot be kept.`);
    throw error;
  }
}

/**
 * Removes the websites `which` selects that have never been paid for, and cancels their orders
 * still waiting for payment, in one transaction; returns how many websites went. The orders are
 * written before the websites, the order in which applyPayment locks them, so a payment arriving at
 * the same moment either starts the site (which is then kept) or finds it gone and is refunded.
 */
async function removeUnpaid(db: Db, which: SQL, reason: string, now: Date): Promise<number> {
  return db.transaction(async (tx) => {
    const unpaid = tx.select({ id: websites.id }).from(websites).where(and(which, isNull(websites.startedAt)));
    await tx
      .update(orders)
      .set({ status: "cancelled", failureReason: reason, updatedAt: now })
      .where(and(inArray(orders.websiteId, unpaid), eq(orders.status, "created")));
    const removed = await tx.delete(websites).where(and(which, isNull(websites.startedAt))).returning({ id: websites.id });
    return removed.length;
  });
}

/**
 * Removes the websites nobody has paid for within unpaidWebsiteDays of starting them or of their
 * latest order (the hourly clean-up). Running it twice, or in two processes at once, removes nothing more.
 */
export async function expireUnpaidWebsites(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - unpaidWebsiteDays * 86_400_000);
  const stale = and(
    lt(websites.updatedAt, cutoff),
    sql`not exists (select 1 from ${orders} where ${orders.websiteId} = ${websites.id} and ${orders.createdAt} >= ${cutoff.toISOString()}::timestamptz)`,
  );
  return removeUnpaid(db, stale as SQL, `The website was not paid for within ${unpaidWebsiteDays} days, so we removed it. Nothing was charged.`, now);
}

/** A refunded first period ends the website: it is cancelled, by the refund (so its owner cannot undo that), and its hosting stops now. */
export async function endRefundedHosting(tx: Tx, websiteId: string, now: Date): Promise<void> {
  const at = now.toISOString();
  await tx
    .update(websites)
    .set({ cancelledAt: sql`coalesce(${websites.cancelledAt}, ${at}::timestamptz)`, cancelledBy: "refund", expiresAt: sql`least(${websites.expiresAt}, ${at}::timestamptz)`, updatedAt: now })
    .where(eq(websites.id, websiteId));
}
