export { normaliseDomain } from "./domain-name.ts";
export { addPaidPeriod, type NoPeriod, type PaidPeriod } from "./periods.ts";
export { hostingPlan, hostingPlans, type HostingPlan } from "./plans.ts";
export { addInterval, needsRenewal, daysUntil, stateLabels, graceDays, expiringWithinDays, nextPeriod, suspensionDate, websiteState, type BillingInterval, type WebsiteState } from "./rules.ts";
export {
  assertRenewable,
  cancelWebsite,
  endRefundedHosting,
  expireUnpaidWebsites,
  findWebsite,
  firstPeriodRefund,
  listWebsites,
  paidRenewal,
  pendingWebsiteLimit,
  startWebsite,
  unpaidWebsiteDays,
  websiteHistory,
  websitesPageSize,
  type PaidRenewal,
  type Website,
  type WebsitePeriodEntry,
} from "./websites.ts";
export { dueReminder, queueDueReminders, type ReminderRun } from "./reminders.ts";
