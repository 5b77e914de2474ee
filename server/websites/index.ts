export { normaliseDomain } from "./domain-name.ts";
export { addPaidPeriod, type PaidPeriod } from "./periods.ts";
export { hostingPlan, hostingPlans, type HostingPlan } from "./plans.ts";
export { addInterval, needsRenewal, daysUntil, stateLabels, graceDays, expiringWithinDays, nextPeriod, suspensionDate, websiteState, type BillingInterval, type WebsiteState } from "./rules.ts";
export {
  assertRenewable,
  cancelWebsite,
  endRefundedHosting,
  findWebsite,
  listWebsites,
  startWebsite,
  websiteHistory,
  type Website,
  type WebsitePeriodEntry,
} from "./websites.ts";
export { dueReminder, queueDueReminders, type ReminderRun } from "./reminders.ts";
