export { createDomainChecker, recordsToSet, systemLookup, type DnsLookup, type DomainCheck, type DomainChecker, type HostingTarget } from "./domain-check.ts";
export { normaliseDomain } from "./domain-name.ts";
export { addPaidPeriod, type NoPeriod, type PaidPeriod } from "./periods.ts";
export { hostingPlan, hostingPlans, type HostingPlan } from "./plans.ts";
export { stateLabels, type WebsiteState } from "../../common/website-states.ts";
export { addInterval, needsRenewal, daysUntil, graceDays, expiringWithinDays, nextPeriod, suspensionDate, websiteState, type BillingInterval } from "./rules.ts";
export {
  assertRenewable,
  cancelWebsite,
  endRefundedHosting,
  expireUnpaidWebsites,
  findWebsite,
  firstPeriodRefund,
  keepRefusal,
  keepWebsite,
  listWebsites,
  liveWebsiteFor,
  paidRenewal,
  pendingWebsiteLimit,
  startWebsite,
  websiteHistory,
  websiteInState,
  websitesPageSize,
  type PaidRenewal,
  type Website,
  type WebsitePeriodEntry,
} from "./websites.ts";
export { dueReminder, queueDueReminders, reminderMail, type ReminderRun } from "./reminders.ts";
