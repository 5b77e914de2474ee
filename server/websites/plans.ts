import type { Catalog, Service } from "../catalog/index.ts";
import type { BillingInterval } from "./rules.ts";

export type HostingPlan = Service["plans"][number] & { interval: BillingInterval };

/** A plan that hosts a website: one of a service's monthly or yearly plans (a one-off plan is a project, not hosting). */
export function hostingPlan(catalog: Catalog, serviceId: string, planId: string): HostingPlan | null {
  const plan = catalog.services.find((s) => s.id === serviceId)?.plans.find((p) => p.id === planId);
  return plan && plan.interval !== "once" ? { ...plan, interval: plan.interval } : null;
}
