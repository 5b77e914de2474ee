import { and, asc, desc, eq, sql } from "drizzle-orm";
import { formatDay, formatOrderNumber } from "../../common/format.ts";
import type { WebsiteState } from "../../common/website-states.ts";
import { giveHostingPeriod, type Shop } from "../commerce/index.ts";
import type { Db, Tx } from "../db/client.ts";
import { orders, refunds, user, websites } from "../db/schema.ts";
import { isUniqueViolation } from "../db/unique-violation.ts";
import { Conflict, NotFound, ValidationError } from "../errors.ts";
import { enqueueMail, type MailMessage } from "../mail/outbox.ts";
import { websiteCancelledMail, websiteResumedMail, websiteSuspendedMail } from "../mail/templates.ts";
import { liveWebsiteFor, normaliseDomain, websiteHistory, websiteInState, websiteState, type WebsitePeriodEntry } from "../websites/index.ts";
import { recordAudit, stateReason, type Actor } from "./audit.ts";
import { orderListColumns, withRefund } from "./orders.ts";

/** Websites on one page of the back office's list. */
export const staffWebsitePageSize = 50;

/** Where a page of the list, soonest expiry first, ends: the next page starts after it. Never-paid websites sort last. */
export interface ExpiryCursor {
  expiresAt: Date | null;
  id: string;
}

export interface StaffWebsiteFilter {
  state?: WebsiteState;
  /** Part of the domain, as typed. */
  domain?: string;
  after?: ExpiryCursor;
}

export interface StaffWebsiteRow {
  id: string;
  domain: string;
  planId: string;
  state: WebsiteState;
  expiresAt: Date | null;
  owner: { id: string; name: string; email: string };
}

const siteColumns = {
  id: websites.id,
  domain: websites.domain,
  planId: websites.planId,
  billingInterval: websites.billingInterval,
  expiresAt: websites.expiresAt,
  cancelledAt: websites.cancelledAt,
  suspendedAt: websites.suspendedAt,
  owner: { id: user.id, name: user.name, email: user.email },
};

/** Never-paid websites have no expiry: they sort after every other. */
const expiryOrder = sql`coalesce(${websites.expiresAt}, 'infinity'::timestamptz)`;

/** Every hosted website, soonest expiry first, narrowed by state and domain. */
export async function listStaffWebsites(db: Db, filter: StaffWebsiteFilter, now: Date): Promise<{ websites: StaffWebsiteRow[]; next: ExpiryCursor | null }> {
  const domain = filter.domain?.trim().toLowerCase();
  const after = filter.after;
  const rows = await db
    .select(siteColumns)
    .from(websites)
    .innerJoin(user, eq(user.id, websites.userId))
    .where(
      and(
        filter.state ? websiteInState(filter.state, now) : undefined,
        domain ? sql`position(${domain} in ${websites.domain}) > 0` : undefined,
        after ? sql`(${expiryOrder}, ${websites.id}) > (coalesce(${after.expiresAt?.toISOString() ?? null}::timestamptz, 'infinity'::timestamptz), ${after.id}::uuid)` : undefined,
      ),
    )
    .orderBy(asc(expiryOrder), asc(websites.id))
    .limit(staffWebsitePageSize + 1);
  const page = rows.slice(0, staffWebsitePageSize).map((site) => ({ id: site.id, domain: site.domain, planId: site.planId, state: websiteState(site, now), expiresAt: site.expiresAt, owner: site.owner }));
  const last = page.at(-1);
  return { websites: page, next: rows.length > staffWebsitePageSize && last ? { expiresAt: last.expiresAt, id: last.id } : null };
}

export interface StaffWebsite extends StaffWebsiteRow {
  serviceId: string;
  startedAt: Date | null;
  cancelledAt: Date | null;
  suspendedAt: Date | null;
  suspendedReason: string | null;
  createdAt: Date;
  periods: WebsitePeriodEntry[];
  orders: { id: string; number: number; title: string; amount: number; status: (typeof orders.$inferSelect)["status"]; refund: { status: (typeof refunds.$inferSelect)["status"] } | null; createdAt: Date }[];
}

/** One website as staff see it: its owner, state, paid periods and every order for it; null when there is none. */
export async function staffWebsite(db: Db, id: string, now: Date): Promise<StaffWebsite | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const [site] = await db
    .select({ ...siteColumns, serviceId: websites.serviceId, startedAt: websites.startedAt, suspendedReason: websites.suspendedReason, createdAt: websites.createdAt })
    .from(websites)
    .innerJoin(user, eq(user.id, websites.userId))
    .where(eq(websites.id, id))
    .limit(1);
  if (!site) return null;
  const [periods, orderRows] = await Promise.all([
    websiteHistory(db, id),
    db.select(orderListColumns).from(orders).leftJoin(refunds, eq(refunds.orderId, orders.id)).where(eq(orders.websiteId, id)).orderBy(desc(orders.createdAt)),
  ]);
  const { billingInterval: _interval, ...shown } = site;
  return { ...shown, state: websiteState(site, now), periods, orders: orderRows.map(withRefund) };
}

/** The website, locked for the rest of the transaction, with its owner to write to. */
async function lockedSite(tx: Tx, id: string) {
  const [site] = await tx
    .select({ site: websites, owner: { name: user.name, email: user.email } })
    .from(websites)
    .innerJoin(user, eq(user.id, websites.userId))
    .where(eq(websites.id, id))
    .for("update", { of: websites });
  if (!site) throw new NotFound("No website has this id: its owner may have deleted their account.");
  return site;
}

/** Moves the website to another domain (validated as customers' domains are); returns what to tell the staff member. */
export async function changeWebsiteDomain(db: Db, actor: Actor, id: string, typed: string): Promise<string> {
  const domain = normaliseDomain(typed);
  try {
    await db.transaction(async (tx) => {
      const { site } = await lockedSite(tx, id);
      if (site.domain === domain) throw new ValidationError(`${domain} is its domain already.`);
      if (site.startedAt && !site.cancelledAt && (await liveWebsiteFor(tx, domain, site.id))) throw new Conflict(`${domain} is hosted here already, for another website.`);
      await tx.update(websites).set({ domain, updatedAt: new Date() }).where(eq(websites.id, site.id));
      await recordAudit(tx, actor, { action: "website.change-domain", subject: { kind: "website", id: site.id }, before: { domain: site.domain }, after: { domain } });
    });
  } catch (error) {
    // Another website went live on the domain between the check and the change.
    if (isUniqueViolation(error)) throw new Conflict(`${domain} is hosted here already, for another website.`);
    throw error;
  }
  return `The website's domain is now ${domain}. Its owner points the domain's DNS records here if they have not yet.`;
}

/** Adds a period of its plan without payment, with the reason; returns what to tell the staff member. */
export async function extendWebsite(shop: Shop, actor: Actor, id: string, input: { reason: string; idempotencyKey: string }): Promise<string> {
  const reason = stateReason(input.reason, "why this website gets a period without payment");
  const { order, period, given } = await giveHostingPeriod(shop, { websiteId: id, idempotencyKey: input.idempotencyKey }, (tx, made, added) =>
    recordAudit(tx, actor, {
      action: "website.extend",
      subject: { kind: "website", id },
      before: { expiresAt: added.startsAt.toISOString() },
      after: { expiresAt: added.endsAt.toISOString(), order: made.id },
      reason,
    }),
  );
  const what = `a period to ${formatDay(period.endsAt)} (order ${formatOrderNumber(order.number)}, ₹0, no tax invoice)`;
  return given ? `Added ${what}.` : `It has ${what} already.`;
}

/** Suspends or resumes the website, with the reason, and writes to its owner; returns what to tell the staff member. */
export async function setWebsiteSuspended(shop: Shop, actor: Actor, id: string, suspend: boolean, typed: string): Promise<string> {
  const reason = stateReason(typed, suspend ? "why this website is suspended (its owner reads it)" : "why this website is resumed (its owner reads it)");
  const now = new Date();
  const domain = await shop.db.transaction(async (tx) => {
    const { site, owner } = await lockedSite(tx, id);
    if (site.cancelledAt) throw new Conflict("This website is cancelled: there is nothing to suspend or resume.");
    if (!site.startedAt) throw new ValidationError("This website was never paid for, so nothing of it is online.");
    if (suspend === (site.suspendedAt !== null)) throw new Conflict(suspend ? "It is suspended already." : "It is not suspended.");
    await tx
      .update(websites)
      .set({ suspendedAt: suspend ? now : null, suspendedReason: suspend ? reason : null, updatedAt: now })
      .where(eq(websites.id, site.id));
    await recordAudit(tx, actor, {
      action: suspend ? "website.suspend" : "website.resume",
      subject: { kind: "website", id: site.id },
      before: { state: websiteState(site, now) },
      after: { state: websiteState({ ...site, suspendedAt: suspend ? now : null }, now) },
      reason,
    });
    const facts = { domain: site.domain, reason, url: `${shop.publicUrl}/account/services/websites/${site.id}` };
    const letter: MailMessage = (suspend ? websiteSuspendedMail : websiteResumedMail)(shop.catalog().site, owner, facts);
    await enqueueMail(tx, letter);
    return site.domain;
  });
  shop.mailQueued();
  return `${domain} is ${suspend ? "suspended" : "online again"}, and its owner is mailed the reason.`;
}

/** Cancels the website for its owner, with the reason, and tells them: no more reminders or renewals; what is paid for runs to its expiry. */
export async function cancelWebsiteForOwner(shop: Shop, actor: Actor, id: string, typed: string): Promise<string> {
  const reason = stateReason(typed, "why this website is cancelled");
  const now = new Date();
  const said = await shop.db.transaction(async (tx) => {
    const { site, owner } = await lockedSite(tx, id);
    if (site.cancelledAt) return null;
    if (!site.startedAt) throw new ValidationError(`This website was never paid for: it is removed by itself a week after its last order.`);
    await tx.update(websites).set({ cancelledAt: now, cancelledBy: "staff", updatedAt: now }).where(eq(websites.id, site.id));
    await recordAudit(tx, actor, { action: "website.cancel", subject: { kind: "website", id: site.id }, before: { state: websiteState(site, now) }, after: { state: "cancelled" }, reason });
    const runsUntil = site.expiresAt && site.expiresAt > now ? formatDay(site.expiresAt) : null;
    await enqueueMail(tx, websiteCancelledMail(shop.catalog().site, owner, { domain: site.domain, runsUntil, url: `${shop.publicUrl}/account/services/websites/${site.id}` }));
    return runsUntil ? `${site.domain} is cancelled: it runs to ${runsUntil}, with no reminders and no renewals. Its owner is mailed.` : `${site.domain} is cancelled. Its owner is mailed.`;
  });
  if (said === null) return "It was cancelled already; nothing more was done.";
  shop.mailQueued();
  return said;
}
