// The back office's roles and what each may do (DESIGN.md "Staff"; issue 27). The server decides
// with these on every request; a screen only uses them to leave out what it would refuse anyway.

export const staffRoles = ["owner", "support", "finance", "content"] as const;
export type StaffRole = (typeof staffRoles)[number];

export const staffRoleLabels: Record<StaffRole, string> = {
  owner: "Owner",
  support: "Support",
  finance: "Finance",
  content: "Content",
};

export const staffRoleDescriptions: Record<StaffRole, string> = {
  owner: "Everything, and manages staff",
  support: "Customers, orders (read), mails, sessions, website changes, review moderation",
  finance: "Orders, payments, refunds outside the policy, coupons, reports and exports",
  content: "Course publishing, reviews, learner progress statistics",
};

/** Every staff permission, with the roles that hold it besides the owner, who holds all. */
const grants = {
  "dashboard.view": ["support", "finance", "content"],
  "customers.view": ["support"],
  /** Resend their mails, sign them out everywhere. */
  "customers.assist": ["support"],
  /** Give a course without payment, with a reason. */
  "customers.grant": ["support"],
  /** Read orders and their payments. */
  "orders.view": ["support", "finance"],
  /** Ask the payment provider about an order and settle it as its webhooks would have. */
  "orders.check": ["support", "finance"],
  /** Refund a paid order whatever the policy says, with a reason. */
  "orders.refund": ["finance"],
  /** Hosted websites, their periods and orders. */
  "websites.view": ["support", "finance"],
  /** Change a website's domain, extend it without payment, suspend, resume or cancel it, each with a reason. */
  "websites.manage": ["support"],
  /** Each course's learners, completions, rating and where learners stop. */
  "courses.view": ["content"],
  /** Take a course off sale (out of the catalogue; its learners keep it) or put it back, with a reason. */
  "courses.publish": ["content"],
  /** Make coupons for course checkout and turn them off. */
  "coupons.manage": ["finance"],
  /** The GST sales register and the payments export. */
  "reports.view": ["finance"],
  /** Hide or show learners' reviews, and reply to them in public. */
  "reviews.moderate": ["support", "content"],
  /** See the outbox and send waiting mail again. */
  "mail.manage": ["support"],
  "staff.manage": [],
  "audit.view": [],
} as const satisfies Record<string, readonly StaffRole[]>;

export type StaffPermission = keyof typeof grants;
export const staffPermissions = Object.keys(grants) as StaffPermission[];

/** Whether someone holding `roles` may do `permission`. */
export function rolesAllow(roles: readonly StaffRole[], permission: StaffPermission): boolean {
  return roles.includes("owner") || roles.some((role) => (grants[permission] as readonly StaffRole[]).includes(role));
}

export const isStaffRole = (value: unknown): value is StaffRole => typeof value === "string" && (staffRoles as readonly string[]).includes(value);

/** How long a second factor confirmed on a session lets it into the back office. */
export const staffSecondFactorHours = 12;

/** At most this many people answer one customer search: staff narrow it down rather than page through. */
export const customerSearchLimit = 25;

/** What support does for a customer who is stuck; each is written to the audit log. */
export const customerActions = ["resend-verification", "send-password-reset", "revoke-sessions", "unlock-sign-in"] as const;
export type CustomerAction = (typeof customerActions)[number];

/** How long the reason for a refund outside the policy, or for hiding a review, may be, in characters. */
export const staffReasonLength = { min: 10, max: 500 } as const;

/** How long the company's public reply to a review may be. */
export const reviewReplyLength = { min: 2, max: 2000 } as const;
