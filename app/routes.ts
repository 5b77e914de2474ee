import { index, route, type RouteConfig } from "@react-router/dev/routes";

// Mirrors spec §2 for the public site; later issues add the signed-in screens.
export default [
  index("routes/home.tsx"),
  route("courses", "routes/courses.tsx"),
  route("course/:courseId", "routes/course.tsx"),
  route("course/:courseId/feedback", "routes/course-feedback.tsx"),
  route("services", "routes/services.tsx"),
  route("service/:serviceId", "routes/service.tsx"),
  route("team", "routes/team.tsx"),
  route("portfolio", "routes/portfolio.tsx"),
  route("help", "routes/help.tsx"),
  route("login", "routes/login.tsx"),
  route("logout", "routes/logout.tsx"),
  route("verify-email", "routes/verify-email.tsx"),
  route("forgot-password", "routes/forgot-password.tsx"),
  route("reset-password", "routes/reset-password.tsx"),
  route("profile", "routes/profile.tsx"),
  route("settings", "routes/settings.tsx"),
  route("settings/my-data.json", "routes/settings-export.ts"),
  route("privacy", "routes/policy.tsx", { id: "policy-privacy" }),
  route("terms", "routes/policy.tsx", { id: "policy-terms" }),
  route("shipping", "routes/policy.tsx", { id: "policy-shipping" }),
  route("cancellation-refund", "routes/policy.tsx", { id: "policy-cancellation-refund" }),
  route("cookies", "routes/policy.tsx", { id: "policy-cookies" }),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
