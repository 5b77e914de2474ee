export { normaliseDomain } from "./domain-name.ts";
export { addPaidPeriod, type PaidPeriod } from "./periods.ts";
export { hostingPlan, type HostingPlan } from "./plans.ts";
export { addInterval, daysUntil, graceDays, expiringWithinDays, nextPeriod, suspensionDate, websiteState, type BillingInterval, type WebsiteState } from "./rules.ts";
export { assertRenewable, findWebsite, startWebsite, type Website } from "./websites.ts";
