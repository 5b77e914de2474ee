import { index, layout, route, type RouteConfig } from "@react-router/dev/routes";

// Every address the site answers with a page, grouped by area; each area's files live in
// app/routes/<area>/. The HTTP layer answers the rest (server/http: /api, /healthz, assets, uploads).
export default [
  // The public site.
  index("routes/site/home.tsx"),
  route("courses", "routes/site/courses.tsx"),
  route("course/:courseId", "routes/site/course.tsx"),
  route("services", "routes/site/services.tsx"),
  route("service/:serviceId", "routes/site/service.tsx"),
  route("team", "routes/site/team.tsx"),
  route("portfolio", "routes/site/portfolio.tsx"),
  route("help", "routes/site/help.tsx"),
  route("help/:topic", "routes/site/help-topic.tsx"),
  route("privacy", "routes/site/policy.tsx", { id: "policy-privacy" }),
  route("terms", "routes/site/policy.tsx", { id: "policy-terms" }),
  route("shipping", "routes/site/policy.tsx", { id: "policy-shipping" }),
  route("cancellation-refund", "routes/site/policy.tsx", { id: "policy-cancellation-refund" }),
  route("cookies", "routes/site/policy.tsx", { id: "policy-cookies" }),

  // Signing up, in and out.
  route("login", "routes/sign-in/login.tsx"),
  route("login/two-factor", "routes/sign-in/login-two-factor.tsx"),
  route("logout", "routes/sign-in/logout.tsx"),
  route("verify-email", "routes/sign-in/verify-email.tsx"),
  route("email-verified", "routes/sign-in/email-verified.tsx"),
  route("forgot-password", "routes/sign-in/forgot-password.tsx"),
  route("reset-password", "routes/sign-in/reset-password.tsx"),
  route("auth/google", "routes/sign-in/auth-google.tsx"),
  route("auth/popup-complete", "routes/sign-in/auth-popup-complete.tsx"),

  // Buying a course (a website is bought from the account area).
  route("courses/:courseId/confirm", "routes/checkout/course-confirm.tsx"),
  route("sandbox/checkout/:orderId", "routes/checkout/sandbox-checkout.tsx"),

  // Taking a course: the player, its certificate and reviews.
  layout("routes/learning/layout.tsx", [
    route("courses/:courseId/MainPage", "routes/learning/learn-main.tsx"),
    route("courses/:courseId/modules", "routes/learning/learn-modules.tsx"),
    route("courses/:courseId/module/:n", "routes/learning/learn-module.tsx"),
    route("courses/:courseId/submodule/:lessonId", "routes/learning/learn-lesson.tsx"),
    route("courses/:courseId/complete", "routes/learning/learn-complete.tsx"),
    route("courses/:courseId/certificate", "routes/learning/learn-certificate.tsx"),
  ]),
  route("course/:courseId/feedback", "routes/learning/course-feedback.tsx"),
  route("certificates/:certificateId", "routes/learning/certificate.tsx"),
  route("certificates/:certificateId/pdf", "routes/learning/certificate-pdf.ts"),

  // The signed-in person's own things.
  layout("routes/account/account-layout.tsx", [
    route("account", "routes/account/account.tsx"),
    route("account/courses", "routes/account/account-courses.tsx"),
    route("account/orders", "routes/account/account-orders.tsx"),
    route("account/payments", "routes/account/account-payments.tsx"),
    route("account/services", "routes/account/account-services.tsx"),
    route("account/services/websites", "routes/account/account-websites.tsx"),
    route("account/services/websites/new", "routes/account/account-website-new.tsx"),
    route("account/services/websites/:webId", "routes/account/account-website.tsx"),
    route("account/services/websites/:webId/renew", "routes/account/account-website-renew.tsx"),
    route("notes", "routes/account/notes.tsx"),
    route("profile", "routes/account/profile.tsx"),
    route("settings", "routes/account/settings.tsx"),
  ]),
  route("settings/my-data.json", "routes/account/settings-export.ts"),
  route("account/orders/:orderId/receipt", "routes/account/account-receipt.tsx"),
  route("account/orders/:orderId/credit-note", "routes/account/account-credit-note.tsx"),
  route("invoices/:orderId", "routes/account/invoice.tsx"),

  // Developer tools: API keys, the API reference, the CLI's sign-in.
  route("api-tools", "routes/developer/api-tools.tsx"),
  route("api-tools/reference", "routes/developer/api-reference.tsx"),
  route("cli-auth-success", "routes/developer/cli-auth-success.tsx"),

  // The back office: staff only (a 404 for anyone else), behind two-factor sign-in.
  route("admin/reports/:report", "routes/admin/report-file.ts"),
  layout("routes/admin/layout.tsx", [
    route("admin", "routes/admin/dashboard.tsx"),
    route("admin/two-factor", "routes/admin/two-factor.tsx"),
    route("admin/two-factor/set-up", "routes/admin/two-factor-set-up.tsx"),
    route("admin/customers", "routes/admin/customers.tsx"),
    route("admin/customers/:customerId", "routes/admin/customer.tsx"),
    route("admin/orders", "routes/admin/orders.tsx"),
    route("admin/orders/:orderId", "routes/admin/order.tsx"),
    route("admin/websites", "routes/admin/websites.tsx"),
    route("admin/websites/:websiteId", "routes/admin/website.tsx"),
    route("admin/courses", "routes/admin/courses.tsx"),
    route("admin/courses/:courseId", "routes/admin/course.tsx"),
    route("admin/reviews", "routes/admin/reviews.tsx"),
    route("admin/mail", "routes/admin/mail.tsx"),
    route("admin/coupons", "routes/admin/coupons.tsx"),
    route("admin/reports", "routes/admin/reports.tsx"),
    route("admin/staff", "routes/admin/staff.tsx"),
    route("admin/audit", "routes/admin/audit.tsx"),
  ]),

  route("*", "routes/site/not-found.tsx"),
] satisfies RouteConfig;
