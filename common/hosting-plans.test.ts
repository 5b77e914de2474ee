import { describe, expect, it } from "vitest";
import { chosenPlan, offersBothBillings, openingChoice, planTiers, yearlySavingLabel } from "./hosting-plans.ts";

const inr = (rupees: number) => ({ amount: rupees * 100, currency: "INR" as const });
const plan = (id: string, tier: string, interval: "month" | "year", rupees: number) => ({ id, tier, name: `${tier} (${interval})`, interval, price: inr(rupees), features: ["Hosting"] });
const plans = [
  plan("starter-monthly", "Starter", "month", 1499),
  plan("starter-yearly", "Starter", "year", 14990),
  plan("business-monthly", "Business", "month", 3999),
  plan("business-yearly", "Business", "year", 39990),
];

describe("hosting plans by tier", () => {
  it("pairs each tier's monthly and yearly plan and works out what a year paid at once saves", () => {
    const tiers = planTiers(plans);
    expect(tiers.map((t) => [t.name, t.month?.id, t.year?.id, t.yearlySaving?.amount])).toEqual([
      ["Starter", "starter-monthly", "starter-yearly", 299_800],
      ["Business", "business-monthly", "business-yearly", 799_800],
    ]);
    expect(offersBothBillings(tiers)).toBe(true);
  });

  it("states the yearly saving from the prices, rounded down, and says 'up to' only when the tiers differ", () => {
    expect(yearlySavingLabel(planTiers(plans))).toBe("save 16%");
    expect(yearlySavingLabel(planTiers([...plans.slice(0, 2), plan("pro-monthly", "Pro", "month", 1000), plan("pro-yearly", "Pro", "year", 9000)]))).toBe("save up to 25%");
    expect(yearlySavingLabel(planTiers([plan("m", "Only", "month", 1000), plan("y", "Only", "year", 12_000)]))).toBeNull();
    expect(yearlySavingLabel(planTiers([plan("m", "Only", "month", 1000)]))).toBeNull();
  });

  it("opens on the plan asked for, the billing asked for overriding its interval, else the first tier monthly", () => {
    const tiers = planTiers(plans);
    expect(openingChoice(tiers, { plan: "business-yearly", billing: null })).toEqual({ tier: "Business", billing: "year" });
    expect(openingChoice(tiers, { plan: "business-yearly", billing: "month" })).toEqual({ tier: "Business", billing: "month" });
    expect(openingChoice(tiers, { plan: null, billing: "year" })).toEqual({ tier: "Starter", billing: "year" });
    expect(openingChoice(tiers, { plan: "no-such-plan", billing: "weekly" })).toEqual({ tier: "Starter", billing: "month" });
    expect(chosenPlan(tiers, { tier: "Business", billing: "year" })?.id).toBe("business-yearly");
    expect(chosenPlan(planTiers([plan("m", "Only", "month", 1000)]), { tier: "Only", billing: "year" })?.id).toBe("m");
  });
});
