import { eq } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { websitePeriods, websites } from "../db/schema.ts";
import { type BillingInterval, nextPeriod } from "./rules.ts";
import { firstPeriodRefund, liveWebsiteFor } from "./websites.ts";

export interface PaidPeriod {
  websiteId: string;
  startsAt: Date;
  endsAt: Date;
}

/** Why a paid order adds no period to its website; each is refunded in full (see applyPayment). */
export type NoPeriod = "website-gone" | "website-cancelled" | "website-refunded" | "domain-taken";

/**
 * Adds the period a paid order bought to its website, inside the caller's transaction (the one
 * that marks the order paid): the website row is locked, the period starts at the later of now and
 * the current expiry, and the website's plan and expiry follow it. An order adds one period at
 * most (website_periods.order_id is unique), so a replayed payment gets the period it added before.
 * Adds none, and says why, when the website is gone (its owner deleted their account), was
 * cancelled, has its first period's refund under way (which ends it), or, for a first period, when
 * its domain went live on another website in the meantime. The lock orders this against
 * cancelWebsite and requestRefund, so a checkout opened before either can never extend a site they end.
 */
export async function addPaidPeriod(
  tx: Tx,
  order: { id: string; websiteId: string; planId: string },
  interval: BillingInterval,
  now: Date,
): Promise<PaidPeriod | { notStarted: NoPeriod }> {
  const [site] = await tx.select().from(websites).where(eq(websites.id, order.websiteId)).for("update");
  if (!site) return { notStarted: "website-gone" };
  const [before] = await tx.select().from(websitePeriods).where(eq(websitePeriods.orderId, order.id));
  if (before) return { websiteId: site.id, startsAt: before.startsAt, endsAt: before.endsAt };
  if (await firstPeriodRefund(tx, site.id)) return { notStarted: "website-refunded" };
  if (site.cancelledAt) return { notStarted: "website-cancelled" };
  if (!site.startedAt && (await liveWebsiteFor(tx, site.domain, site.id))) return { notStarted: "domain-taken" };
  const period = nextPeriod(site.expiresAt, now, interval);
  await tx.insert(websitePeriods).values({ websiteId: site.id, orderId: order.id, planId: order.planId, ...period, createdAt: now });
  await tx
    .update(websites)
    .set({ planId: order.planId, billingInterval: interval, startedAt: site.startedAt ?? now, expiresAt: period.endsAt, updatedAt: now })
    .where(eq(websites.id, site.id));
  return { websiteId: site.id, ...period };
}
