export { actorOf, confirmSecondFactor, requirePermission, secondFactorNeeded, staffMember, type StaffMember } from "./access.ts";
export { auditActions, auditPageSize, listAudit, recordAudit, type Actor, type AuditChange, type AuditEntry, type AuditFilter } from "./audit.ts";
export { grantRole, listStaff, resetTwoFactor, revokeRole, rolesOf, type StaffListing } from "./roles.ts";
export { customerOverview, orderNumberIn, orderOfDeletedAccount, searchCustomers, type CustomerMatch, type CustomerOrder, type CustomerOverview, type CustomerWebsite } from "./customers.ts";
export { actForCustomer, grantCourseToCustomer, revokeCustomerSession } from "./customer-actions.ts";
export { checkOrderWithProvider, listStaffOrders, refundOrderOutsidePolicy, staffOrder, staffOrderPageSize, type StaffOrder, type StaffOrderFilter, type StaffOrderRow, type TimelineEvent } from "./orders.ts";
export { gstRegisterCsv, monthIn, paymentsCsv, type Export } from "./reports.ts";
export { listStaffReviews, moderateReview, staffReviewPageSize, type ReviewModeration, type StaffReview, type StaffReviewFilter } from "./reviews.ts";
export { dailyFigures, dashboardFigures, indiaDayStartOf, type DailyFigures, type DashboardFigures, type Takings } from "./dashboard.ts";
export { listOutbox, outboxPageSize, retryWaitingMail, type OutboxEntry, type OutboxFilter } from "./mail.ts";
export type { TimeCursor } from "./pages.ts";
export { courseFigures, courseReach, setCoursePublished, type CourseFigures, type ModuleReach } from "./courses.ts";
export {
  cancelWebsiteForOwner,
  changeWebsiteDomain,
  extendWebsite,
  listStaffWebsites,
  setWebsiteSuspended,
  staffWebsite,
  staffWebsitePageSize,
  type ExpiryCursor,
  type StaffWebsite,
  type StaffWebsiteFilter,
  type StaffWebsiteRow,
} from "./websites.ts";
export { createCoupon, disableCoupon, listCoupons, type CouponInput, type StaffCoupon } from "./coupons.ts";
