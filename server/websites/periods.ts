import { eq } from "drizzle-orm";
import type { Tx } from "../db/client.ts";
import { websitePeriods, websites } from "../db/schema.ts";
import { type BillingInterval, nextPeriod } from "./rules.ts";
import { liveWebsiteFor } from "./websites.ts";

export interface PaidPeriod {
  websiteId: string;
  startsAt: Date;
  endsAt: Date;
}

/**
 * Adds the period a paid order bought to its website, inside the caller's transaction (the one
 * that marks the order paid): the website row is locked, the period starts at the later of now and
 * the current expiry, and the website's plan and expiry follow it. An order adds one period at
 * most (website_periods.order_id is unique), so a replayed payment extends nothing. Null when the
 * website is gone (its owner deleted their account) or when a first period's domain went live on
 * another website in the meantime.
 */
export async function addPaidPeriod(
  tx: Tx,
  order: { id: string; websiteId: string; planId: string },
  interval: BillingInterval,
  now: Date,
): Promise<PaidPeriod | null> {
  const [site] = await tx.select().from(websites).where(eq(websites.id, order.websiteId)).for("update");
  // A first payment for a domain another site went live on meanwhile starts nothing (the money goes back by hand).
  if (!site || (!site.startedAt && (await liveWebsiteFor(tx, site.domain, site.id)))) return null;
  const period = nextPeriod(site.expiresAt, now, interval);
  const [added] = await tx
    .insert(websitePeriods)
    .values({ websiteId: site.id, orderId: order.id, planId: order.planId, ...period, createdAt: now })
    .onConflictDoNothing()
    .returning();
  if (!added) return null;
  await tx
    .update(websites)
    .set({ planId: order.planId, billingInterval: interval, startedAt: site.startedAt ?? now, expiresAt: period.endsAt, updatedAt: now })
    .where(eq(websites.id, site.id));
  return { websiteId: site.id, startsAt: added.startsAt, endsAt: added.endsAt };
}
