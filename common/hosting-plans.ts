import type { Money } from "./view-types.ts";

export type Billing = "month" | "year";

/** A monthly or yearly hosting plan as a page offers it. */
export interface OfferedPlan {
  id: string;
  name: string;
  interval: Billing;
  price: Money;
  features: string[];
}

/** A tier of hosting (Starter, Business): its monthly and its yearly plan, one choice with a billing toggle. */
export interface PlanTier {
  name: string;
  month: OfferedPlan | null;
  year: OfferedPlan | null;
  /** How much less a year costs paid at once than as twelve monthly payments; null without both plans or without a saving. */
  yearlySaving: Money | null;
}

/** What the plan picker holds: a tier and how it is paid for. */
export interface PlanChoice {
  tier: string;
  billing: Billing;
}

/** The plans grouped by tier (a plan without one is its own tier), in the order their first plan comes. */
export function planTiers(plans: (OfferedPlan & { tier?: string | undefined })[]): PlanTier[] {
  const tiers = new Map<string, PlanTier>();
  for (const { tier: named, ...plan } of plans) {
    const name = named ?? plan.name;
    const tier = tiers.get(name) ?? { name, month: null, year: null, yearlySaving: null };
    tier[plan.interval] = plan;
    tiers.set(name, tier);
  }
  return [...tiers.values()].map((tier) => ({ ...tier, yearlySaving: yearlySaving(tier) }));
}

function yearlySaving({ month, year }: Pick<PlanTier, "month" | "year">): Money | null {
  if (!month || !year || month.price.currency !== year.price.currency) return null;
  const amount = month.price.amount * 12 - year.price.amount;
  return amount > 0 ? { amount, currency: year.price.currency } : null;
}

/** Whether the tiers can be paid for both ways, so a monthly/yearly toggle means something. */
export function offersBothBillings(tiers: PlanTier[]): boolean {
  return tiers.some((tier) => tier.month && tier.year);
}

/**
 * What paying yearly saves, for the toggle: "save 16%" when every tier saves that (whole per cent,
 * rounded down, of twelve monthly payments), "save up to 16%" when they differ; null when none saves.
 */
export function yearlySavingLabel(tiers: PlanTier[]): string | null {
  const percents = tiers.map((tier) =>
    tier.yearlySaving && tier.month ? Math.floor((tier.yearlySaving.amount * 100) / (tier.month.price.amount * 12)) : 0,
  );
  const best = Math.max(0, ...percents);
  if (best === 0) return null;
  return percents.every((percent) => percent === best) ? `save ${best}%` : `save up to ${best}%`;
}

/** A tier's plan for a billing, else its other plan (a tier sold only monthly shows its monthly plan under Yearly). */
export function tierPlan(tier: PlanTier, billing: Billing): OfferedPlan {
  return (tier[billing] ?? tier.month ?? tier.year) as OfferedPlan;
}

/**
 * The choice a page opens with: the tier of the plan asked for (`?plan=`, else the first tier),
 * paid as `?billing=` says, else as that plan is, else monthly.
 */
export function openingChoice(tiers: PlanTier[], asked: { plan: string | null; billing: string | null }): PlanChoice {
  const tier = tiers.find((t) => t.month?.id === asked.plan || t.year?.id === asked.plan) ?? tiers[0];
  const billing = asked.billing === "month" || asked.billing === "year" ? asked.billing : tier?.year?.id === asked.plan ? "year" : "month";
  return { tier: tier?.name ?? "", billing };
}

/** The plan a choice stands for; null when there are no tiers. */
export function chosenPlan(tiers: PlanTier[], choice: PlanChoice): OfferedPlan | null {
  const tier = tiers.find((t) => t.name === choice.tier) ?? tiers[0];
  return tier ? tierPlan(tier, choice.billing) : null;
}
