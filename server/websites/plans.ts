import type { Catalog, Service } from "../catalog/index.ts";
import type { BillingInterval } from "./rules.ts";

export type HostingPlan = Service["plans"][number] & { interval: BillingInterval };

/** The plans that host a website: a service's monthly and yearly plans (a one-off plan is a project, not hosting), in the content's order. */
export function hostingPlans(catalog: Catalog, serviceId: string): HostingPlan[] {
  const service = catalog.services.find((s) => s.id === serviceId);
  return (service?.plans ?? []).flatMap((plan) => (plan.interval === "once" ? [] : [{ ...plan, interval: plan.interval }]));
}

export function hostingPlan(catalog: Catalog, serviceId: string, planId: string): HostingPlan | null {
  return hostingPlans(catalog, serviceId).find((plan) => plan.id === planId) ?? null;
}
