// The rules of a hosted website's life, in one place: every page, mail and job asks these.

import type { WebsiteState } from "../../common/website-states.ts";

export type BillingInterval = "month" | "year";

const day = 86_400_000;
/** After expiry the site keeps running this many days, shown as needing renewal, before it is suspended. */
export const graceDays = 15;

/** States that call for renewing now: a site that runs out soon, ran out, or was never paid for (any live site may renew early). */
export function needsRenewal(state: WebsiteState): boolean {
  return state !== "active" && state !== "cancelled";
}

/**
 * How many days before its expiry a site counts as "expiring" and shows a renew action: 30 for a
 * site paid by the year, 7 for one paid by the month (30 days would be the whole of a month).
 */
export function expiringWithinDays(interval: BillingInterval): number {
  return interval === "year" ? 30 : 7;
}

export interface WebsiteDates {
  /** Null until the first period is paid. */
  expiresAt: Date | null;
  cancelledAt: Date | null;
  /** Set while staff keep the website offline. */
  suspendedAt: Date | null;
  /** The interval of the latest period bought. */
  billingInterval: BillingInterval;
}

export function websiteState(site: WebsiteDates, now: Date): WebsiteState {
  if (site.cancelledAt) return "cancelled";
  if (site.suspendedAt) return "suspended";
  if (!site.expiresAt) return "pending";
  const left = site.expiresAt.getTime() - now.getTime();
  if (left > expiringWithinDays(site.billingInterval) * day) return "active";
  if (left > 0) return "expiring";
  if (-left < graceDays * day) return "expired";
  return "suspended";
}

/** When the grace period after an expiry ends and the site is suspended. */
export function suspensionDate(expiresAt: Date): Date {
  return new Date(expiresAt.getTime() + graceDays * day);
}

/**
 * The date one month or one year after `from`, on the same day of the month and at the same time
 * (UTC). A day the target month does not have becomes its last day: 31 Jan + 1 month is 28 or
 * 29 Feb, and 29 Feb + 1 year is 28 Feb.
 */
export function addInterval(from: Date, interval: BillingInterval): Date {
  const year = from.getUTCFullYear() + (interval === "year" ? 1 : 0);
  const month = from.getUTCMonth() + (interval === "month" ? 1 : 0);
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const result = new Date(from.getTime());
  result.setUTCFullYear(year, month, Math.min(from.getUTCDate(), lastDay));
  return result;
}

/**
 * The period a payment made now buys: from the later of now and the current expiry, so renewing
 * early never loses days and renewing late never back-dates.
 */
export function nextPeriod(currentExpiry: Date | null, now: Date, interval: BillingInterval): { startsAt: Date; endsAt: Date } {
  const startsAt = currentExpiry && currentExpiry > now ? currentExpiry : now;
  return { startsAt, endsAt: addInterval(startsAt, interval) };
}

/** Whole days from `now` until `date`, rounded up (5 hours left is 1 day); 0 or less once it has passed. */
export function daysUntil(date: Date, now: Date): number {
  return Math.ceil((date.getTime() - now.getTime()) / day);
}
