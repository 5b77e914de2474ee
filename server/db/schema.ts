import { sql } from "drizzle-orm";
import { type AnyPgColumn, bigint, bigserial, boolean, check, index, integer, jsonb, pgSequence, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { orderStatuses, paymentStatuses, refundStatuses } from "../../common/order-statuses.ts";
import { staffRoles as staffRoleNames } from "../../common/staff.ts";
import { session, user } from "./auth-schema.ts";

export * from "./auth-schema.ts";
export { orderStatuses, paymentStatuses, refundStatuses, type OrderStatus, type PaymentStatus, type RefundStatus } from "../../common/order-statuses.ts";

/** Application-wide configuration documents (spec §3: collection appRoots, e.g. document "Encryption"). */
export const appRoots = pgTable("app_roots", {
  id: text("id").primaryKey(),
  key: text("key"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The encryption keys stored values may be under, each by a fingerprint derived from it (never the
 * key itself). New values are written under the current one; another is listed only while
 * `npm run rotate-key` moves values off it, and a process that lacks any listed key refuses to start.
 */
export const encryptionKeys = pgTable(
  "encryption_keys",
  {
    /** The short key id operators see in messages: the first 8 hex digits of the check value. */
    id: text("id").primaryKey(),
    /** A value only this key derives (HKDF), compared in full so two keys never pass for one. */
    checkValue: text("check_value").notNull(),
    current: boolean("current").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex("encryption_keys_one_current_idx").on(table.current).where(sql`${table.current}`)],
);

/** The user document (spec §3): every field but the timestamps is stored encrypted. */
export const users = pgTable("users", {
  uid: text("uid")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  name: text("name"),
  email: text("email"),
  profilePicUrl: text("profile_pic_url"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  lastLogin: timestamp("last_login", { withTimezone: true }).notNull().defaultNow(),
});

/** Mail waiting to be sent, and mail sent; the worker delivers from here with retries. */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html").notNull(),
    links: jsonb("links").$type<string[]>().notNull().default([]),
    status: text("status", { enum: ["pending", "sent", "failed"] }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (table) => [index("mail_outbox_due_idx").on(table.status, table.nextAttemptAt), index("mail_outbox_to_idx").on(table.to)],
);

/** Fixed-window counters for limits Better Auth does not key on, e.g. failed sign-ins per account. */
export const throttles = pgTable("throttles", {
  key: text("key").primaryKey(),
  count: integer("count").notNull(),
  windowStartedAt: timestamp("window_started_at", { withTimezone: true }).notNull(),
});

const money = (name: string) => integer(name).notNull();
const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * A website the company hosts for a customer. Its state is worked out from its dates
 * (server/websites/rules.ts); it is pending until a first period is paid. A domain has one live
 * website at a time: paid and not cancelled (a suspended site can still be renewed by its owner).
 */
export const websites = pgTable(
  "websites",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    /** The service in content/services that sells it. */
    serviceId: text("service_id").notNull(),
    domain: text("domain").notNull(),
    /** The plan of the latest period bought, or of the first one ordered while pending. */
    planId: text("plan_id").notNull(),
    /** That plan's billing interval, which sets when the site counts as expiring and which reminders it gets. */
    billingInterval: text("billing_interval", { enum: ["month", "year"] }).notNull(),
    startedAt: at("started_at"),
    expiresAt: at("expires_at"),
    cancelledAt: at("cancelled_at"),
    /** Who cancelled it: its owner may undo their own cancellation while the paid period runs, never staff's or a refund's. */
    cancelledBy: text("cancelled_by", { enum: ["owner", "staff", "refund"] }),
    /** Set while staff keep the website offline (abuse, a dispute), with why: the customer is mailed both ways. */
    suspendedAt: at("suspended_at"),
    suspendedReason: text("suspended_reason"),
    createdAt: at("created_at").notNull().defaultNow(),
    updatedAt: at("updated_at").notNull().defaultNow(),
  },
  (table) => [
    check("websites_suspended_has_reason", sql`(${table.suspendedAt} is null) = (${table.suspendedReason} is null)`),
    check("websites_cancelled_by_whom", sql`(${table.cancelledAt} is null) = (${table.cancelledBy} is null) and ${table.cancelledBy} in ('owner', 'staff', 'refund')`),
    uniqueIndex("websites_live_domain_idx").on(table.domain).where(sql`${table.startedAt} is not null and ${table.cancelledAt} is null`),
    index("websites_user_idx").on(table.userId, table.createdAt),
    index("websites_expiry_idx").on(table.expiresAt).where(sql`${table.cancelledAt} is null`),
  ],
);

/** One paid period of a website: each paid order adds exactly one (the order id is unique). */
export const websitePeriods = pgTable(
  "website_periods",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    websiteId: uuid("website_id")
      .notNull()
      .references(() => websites.id, { onDelete: "cascade" }),
    orderId: uuid("order_id")
      .notNull()
      .unique()
      .references((): AnyPgColumn => orders.id),
    planId: text("plan_id").notNull(),
    startsAt: at("starts_at").notNull(),
    endsAt: at("ends_at").notNull(),
    createdAt: at("created_at").notNull().defaultNow(),
  },
  (table) => [index("website_periods_website_idx").on(table.websiteId, table.startsAt)],
);

export const reminderKinds = ["30-days", "7-days", "1-day", "expiry-day", "suspended"] as const;
export type ReminderKind = (typeof reminderKinds)[number];

/**
 * Renewal reminders sent, one row per website, kind and the expiry it was about: the row is
 * written in the transaction that queues the mail, so a reminder goes out once, whichever process
 * sends it and whatever crashes in between.
 */
export const websiteReminders = pgTable(
  "website_reminders",
  {
    websiteId: uuid("website_id")
      .notNull()
      .references(() => websites.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: reminderKinds }).notNull(),
    expiresAt: at("expires_at").notNull(),
    sentAt: at("sent_at").notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.websiteId, table.kind, table.expiresAt] })],
);

/** A course purchase. Amounts are paise, computed on the server from content/ when the order is made. */
export const couponKinds = ["percent", "amount"] as const;
/** What a coupon may be used for: courses, hosting plans (a website's first period or a renewal), or both. */
export const couponScopes = ["courses", "hosting", "both"] as const;

/**
 * A code that takes money off a course's or a hosting plan's price at checkout (issue 27), made by finance: a share of
 * the price or an amount in paise, within an optional window, for a number of uses in all and per
 * person. A used coupon is never deleted (orders name it); it is turned off instead.
 */
export const coupons = pgTable(
  "coupons",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** As typed at checkout, in capitals: DIWALI20. */
    code: text("code").notNull().unique(),
    kind: text("kind", { enum: couponKinds }).notNull(),
    /** A percentage (1–100), or paise off. */
    value: integer("value").notNull(),
    appliesTo: text("applies_to", { enum: couponScopes }).notNull().default("courses"),
    startsAt: at("starts_at"),
    endsAt: at("ends_at"),
    /** Orders paid (or being paid) with it, in all; null for no limit. */
    maxUses: integer("max_uses"),
    perPersonLimit: integer("per_person_limit").notNull().default(1),
    createdAt: at("created_at").notNull().defaultNow(),
    disabledAt: at("disabled_at"),
  },
  (table) => [
    check("coupons_applies_to_check", sql.raw(`"applies_to" in (${couponScopes.map((scope) => `'${scope}'`).join(", ")})`)),
    check(
      "coupons_value_check",
      sql`${table.value} > 0 and (${table.kind} <> 'percent' or ${table.value} <= 100) and ${table.perPersonLimit} >= 1 and (${table.maxUses} is null or ${table.maxUses} >= 1) and (${table.startsAt} is null or ${table.endsAt} is null or ${table.startsAt} < ${table.endsAt})`,
    ),
  ],
);

export const orders = pgTable(
  "orders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Consecutive number printed on receipts and invoices. */
    number: bigserial("number", { mode: "number" }).notNull().unique(),
    /** Null once the buyer deleted their account: the invoice is kept (tax law), its link to a person is not. */
    userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
    kind: text("kind", { enum: ["course", "website"] }).notNull().default("course"),
    /** The course bought, for a course order. */
    courseId: text("course_id"),
    /** The hosted website a period is bought for, for a website order; the plan is from content/. */
    websiteId: uuid("website_id").references((): AnyPgColumn => websites.id, { onDelete: "set null" }),
    planId: text("plan_id"),
    /** What was bought, as the receipt and invoice print it. */
    title: text("title").notNull(),
    currency: text("currency").notNull(),
    amount: money("amount"),
    taxableAmount: money("taxable_amount"),
    taxAmount: money("tax_amount"),
    taxRatePercent: integer("tax_rate_percent").notNull(),
    taxMode: text("tax_mode", { enum: ["inclusive", "exclusive"] }).notNull(),
    buyerGstin: text("buyer_gstin"),
    /** The coupon applied, and how much it took off the taxable value: the invoice shows it as a discount before GST. */
    couponId: uuid("coupon_id").references((): AnyPgColumn => coupons.id),
    discountAmount: integer("discount_amount").notNull().default(0),
    /**
     * "Billed to" as it stood when the order was paid: the invoice prints these, so renaming the
     * profile later changes no invoice. A trigger (migration 0013) copies them from the account when
     * the order becomes paid, on every path that pays one, and clears them when the buyer deletes
     * their account (the privacy policy promises the invoice keeps no name or address then).
     */
    billingName: text("billing_name"),
    billingEmail: text("billing_email"),
    status: text("status", { enum: orderStatuses }).notNull().default("created"),
    provider: text("provider", { enum: ["razorpay", "sandbox", "free"] }).notNull(),
    providerOrderId: text("provider_order_id").unique(),
    /** The form submission that made the order; a resubmitted form finds the same order. */
    idempotencyKey: text("idempotency_key").notNull(),
    failureReason: text("failure_reason"),
    createdAt: at("created_at").notNull().defaultNow(),
    updatedAt: at("updated_at").notNull().defaultNow(),
    paidAt: at("paid_at"),
    refundedAt: at("refunded_at"),
  },
  (table) => [
    uniqueIndex("orders_idempotency_idx").on(table.userId, table.idempotencyKey),
    index("orders_user_idx").on(table.userId, table.createdAt),
    // The GST register reads a month of invoices by the day they were paid (issued).
    index("orders_paid_idx").on(table.paidAt),
    // A coupon's uses are counted from its orders.
    index("orders_coupon_idx").on(table.couponId),
  ],
);

/** One attempt to pay an order, as the payment provider reported it. */
export const payments = pgTable(
  "payments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    /** Null once the payer deleted their account, as for the order. */
    userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
    providerPaymentId: text("provider_payment_id").notNull().unique(),
    amount: money("amount"),
    currency: text("currency").notNull(),
    status: text("status", { enum: paymentStatuses }).notNull(),
    method: text("method"),
    failureCode: text("failure_code"),
    failureReason: text("failure_reason"),
    amountRefunded: integer("amount_refunded").notNull().default(0),
    createdAt: at("created_at").notNull().defaultNow(),
    updatedAt: at("updated_at").notNull().defaultNow(),
  },
  (table) => [index("payments_user_idx").on(table.userId, table.createdAt), index("payments_order_idx").on(table.orderId)],
);

/** Credit notes are numbered in one series, in the order refunds are processed. */
export const creditNoteNumbers = pgSequence("credit_note_numbers");

/**
 * A refund of a paid order, at most one per order: of the whole amount (the buyer's, or the company's),
 * or of part of it (the company's only, as goodwill: the buyer keeps what they bought).
 */
export const refunds = pgTable(
  "refunds",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    orderId: uuid("order_id")
      .notNull()
      .unique()
      .references(() => orders.id, { onDelete: "cascade" }),
    paymentId: uuid("payment_id")
      .notNull()
      .references(() => payments.id, { onDelete: "cascade" }),
    /** Null once the buyer deleted their account, as for the order. */
    userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
    amount: money("amount"),
    /** The amount's value before GST and its GST, as its credit note states them (refundSplit). */
    taxableAmount: money("taxable_amount"),
    taxAmount: money("tax_amount"),
    currency: text("currency").notNull(),
    status: text("status", { enum: refundStatuses }).notNull().default("requested"),
    providerRefundId: text("provider_refund_id").unique(),
    failureReason: text("failure_reason"),
    /**
     * The GST credit note's serial number, from creditNoteNumbers, given when the refund is
     * processed: the correction of the order's invoice, which itself never changes.
     */
    creditNoteNumber: bigint("credit_note_number", { mode: "number" }).unique(),
    createdAt: at("created_at").notNull().defaultNow(),
    processedAt: at("processed_at"),
  },
  (table) => [
    index("refunds_user_idx").on(table.userId),
    index("refunds_processed_idx").on(table.processedAt),
    check("refunds_amount_split", sql`${table.amount} > 0 and ${table.taxAmount} >= 0 and ${table.taxableAmount} + ${table.taxAmount} = ${table.amount}`),
  ],
);

/** Access to a course; revoked by a refund, made active again by a new purchase. */
export const enrolments = pgTable(
  "enrolments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    courseId: text("course_id").notNull(),
    orderId: uuid("order_id").references(() => orders.id, { onDelete: "set null" }),
    status: text("status", { enum: ["active", "revoked"] }).notNull().default("active"),
    /**
     * The highest share of the course's lessons ever completed, in whole per cent: it only rises,
     * in the transaction that marks a lesson complete, so un-marking lessons cannot lower it.
     */
    furthestProgressPercent: integer("furthest_progress_percent").notNull().default(0),
    createdAt: at("created_at").notNull().defaultNow(),
    revokedAt: at("revoked_at"),
  },
  (table) => [uniqueIndex("enrolments_user_course_idx").on(table.userId, table.courseId)],
);

/** Lessons a learner has completed. */
export const lessonProgress = pgTable(
  "lesson_progress",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    courseId: text("course_id").notNull(),
    lessonId: text("lesson_id").notNull(),
    completedAt: at("completed_at").notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.courseId, table.lessonId] })],
);

/** Payment-provider webhook deliveries already handled, by the provider's event id, with what they were about and what we did. */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    id: text("id").primaryKey(),
    event: text("event").notNull(),
    receivedAt: at("received_at").notNull().defaultNow(),
    /** The provider's order and payment the event names (a refund event names only its payment). */
    providerOrderId: text("provider_order_id"),
    providerPaymentId: text("provider_payment_id"),
    /** What handling it did: "fulfilled", "processed", "Ignored refund.created." … */
    outcome: text("outcome"),
  },
  (table) => [index("webhook_events_order_idx").on(table.providerOrderId), index("webhook_events_payment_idx").on(table.providerPaymentId)],
);

/**
 * The sandbox payment gateway's own books: it stands in for Razorpay's servers, so its state
 * outlives our process the way Razorpay's does.
 */
export const sandboxOrders = pgTable("sandbox_orders", {
  id: text("id").primaryKey(),
  amount: money("amount"),
  currency: text("currency").notNull(),
  receipt: text("receipt"),
  notes: jsonb("notes").$type<Record<string, string>>().notNull().default({}),
  status: text("status", { enum: ["created", "attempted", "paid"] }).notNull().default("created"),
  attempts: integer("attempts").notNull().default(0),
  createdAt: at("created_at").notNull().defaultNow(),
});

export const sandboxPayments = pgTable("sandbox_payments", {
  id: text("id").primaryKey(),
  orderId: text("order_id")
    .notNull()
    .references(() => sandboxOrders.id),
  amount: money("amount"),
  currency: text("currency").notNull(),
  status: text("status", { enum: ["authorized", "captured", "failed", "refunded"] }).notNull(),
  method: text("method").notNull(),
  errorCode: text("error_code"),
  errorDescription: text("error_description"),
  errorSource: text("error_source"),
  errorStep: text("error_step"),
  errorReason: text("error_reason"),
  amountRefunded: integer("amount_refunded").notNull().default(0),
  createdAt: at("created_at").notNull().defaultNow(),
});

export const sandboxRefunds = pgTable("sandbox_refunds", {
  id: text("id").primaryKey(),
  paymentId: text("payment_id")
    .notNull()
    .references(() => sandboxPayments.id),
  amount: money("amount"),
  currency: text("currency").notNull(),
  notes: jsonb("notes").$type<Record<string, string>>().notNull().default({}),
  status: text("status", { enum: ["pending", "processed", "failed"] }).notNull().default("pending"),
  createdAt: at("created_at").notNull().defaultNow(),
});

/** Signed webhook deliveries the sandbox still owes us, retried until we answer 2xx. */
export const sandboxWebhooks = pgTable(
  "sandbox_webhooks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    eventId: text("event_id").notNull(),
    event: text("event").notNull(),
    body: text("body").notNull(),
    deliverAt: at("deliver_at").notNull().defaultNow(),
    attempts: integer("attempts").notNull().default(0),
    deliveredAt: at("delivered_at"),
    lastError: text("last_error"),
  },
  (table) => [index("sandbox_webhooks_due_idx").on(table.deliveredAt, table.deliverAt)],
);

/** Where each learner last was in each course, for "Continue where you left off". */
export const coursePositions = pgTable(
  "course_positions",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    courseId: text("course_id").notNull(),
    lessonId: text("lesson_id").notNull(),
    updatedAt: at("updated_at").notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.courseId] })],
);

/** A learner's rating (1–5) and plain-text comment on a course; one per learner and course. */
export const feedback = pgTable(
  "feedback",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    courseId: text("course_id").notNull(),
    rating: integer("rating").notNull(),
    comment: text("comment").notNull(),
    createdAt: at("created_at").notNull().defaultNow(),
    updatedAt: at("updated_at").notNull().defaultNow(),
    /** Hidden by staff (the audit log says who): off the public page and out of the rating; its author sees why. */
    hiddenAt: at("hidden_at"),
    hiddenReason: text("hidden_reason"),
    /** The company's public answer, shown under the review. */
    reply: text("reply"),
    repliedAt: at("replied_at"),
  },
  (table) => [
    uniqueIndex("feedback_user_course_idx").on(table.userId, table.courseId),
    check("feedback_hidden_has_reason", sql`(${table.hiddenAt} is null) = (${table.hiddenReason} is null)`),
    index("feedback_course_created_idx").on(table.courseId, table.createdAt),
    check("feedback_rating_range", sql`${table.rating} between 1 and 5`),
  ],
);

/**
 * A learner's note; title and body are stored encrypted (DESIGN.md "Encryption at rest").
 * A deleted note keeps its row with deletedAt set for a short while so the delete can be undone.
 */
export const notes = pgTable(
  "notes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    body: text("body").notNull(),
    courseId: text("course_id"),
    lessonId: text("lesson_id"),
    /**
     * A keyed digest of the note as it stands (title, body, lesson), so a resubmitted note is found
     * without decrypting any; null on notes written before it existed, until they are next saved.
     */
    contentDigest: text("content_digest"),
    createdAt: at("created_at").notNull().defaultNow(),
    updatedAt: at("updated_at").notNull().defaultNow(),
    deletedAt: at("deleted_at"),
  },
  (table) => [
    index("notes_user_updated_idx").on(table.userId, table.updatedAt),
    index("notes_user_lesson_idx").on(table.userId, table.courseId, table.lessonId),
    index("notes_user_digest_idx").on(table.userId, table.contentDigest),
  ],
);

/**
 * A certificate of completion, issued once per learner and course. The id is the public,
 * unguessable verification code; the learner's name is kept as issued, encrypted. A refund revokes
 * it: the row stays, so its public page says it was revoked, and a later purchase may earn a new one.
 */
export const certificates = pgTable(
  "certificates",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    courseId: text("course_id").notNull(),
    courseTitle: text("course_title").notNull(),
    learnerName: text("learner_name").notNull(),
    issuedAt: at("issued_at").notNull().defaultNow(),
    /** The one correction of the name its holder may ask for: when, and the name first printed (encrypted). */
    nameCorrectedAt: at("name_corrected_at"),
    originalLearnerName: text("original_learner_name"),
    revokedAt: at("revoked_at"),
  },
  (table) => [uniqueIndex("certificates_user_course_idx").on(table.userId, table.courseId).where(sql`${table.revokedAt} is null`)],
);

/**
 * Personal API keys for /api/v1. Only a SHA-256 hash of the secret is kept (the secret is shown
 * once, when the key is made); the prefix lets its owner recognise it in the list.
 */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** The secret's first characters, as shown in the list. */
    prefix: text("prefix").notNull(),
    secretHash: text("secret_hash").notNull().unique(),
    scopes: jsonb("scopes").$type<string[]>().notNull(),
    expiresAt: at("expires_at"),
    lastUsedAt: at("last_used_at"),
    createdAt: at("created_at").notNull().defaultNow(),
    revokedAt: at("revoked_at"),
  },
  (table) => [index("api_keys_user_idx").on(table.userId, table.createdAt)],
);

/**
 * Who asked for a CLI sign-in code (the device grant's own table has no room for it): shown on
 * the approval page, so the person can tell their own terminal from someone else's.
 */
export const cliLoginRequests = pgTable("cli_login_requests", {
  userCode: text("user_code").primaryKey(),
  userAgent: text("user_agent"),
  ipAddress: text("ip_address"),
  createdAt: at("created_at").notNull().defaultNow(),
});

/**
 * Periodic work every process runs (renewal reminders, clean-ups): a run is claimed with a lease,
 * so each is done by one process per interval, and one that dies mid-run is taken over when its
 * lease ends.
 */
export const scheduledJobs = pgTable("scheduled_jobs", {
  name: text("name").primaryKey(),
  nextRunAt: at("next_run_at").notNull().defaultNow(),
  leaseUntil: at("lease_until"),
  lastStartedAt: at("last_started_at"),
  lastFinishedAt: at("last_finished_at"),
  lastError: text("last_error"),
});

/** Back-office roles (issue 27): a person may hold several; someone holding none is a customer. */
export const staffRoles = pgTable(
  "staff_roles",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    role: text("role", { enum: staffRoleNames }).notNull(),
    grantedAt: at("granted_at").notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.role] }), check("staff_roles_role_check", sql.raw(`"role" in (${staffRoleNames.map((r) => `'${r}'`).join(", ")})`))],
);

/**
 * Every change a staff member (or an operator at the command line) made, as it was made: who, in
 * which roles, what, to which record, before and after, why and from where. Append-only: a trigger
 * refuses UPDATE, DELETE and TRUNCATE (migration 0018). `actorId` has no foreign key, so an entry
 * outlives its author's account; `actor` keeps who they were.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: at("at").notNull().defaultNow(),
    actorId: text("actor_id"),
    actor: text("actor").notNull(),
    actorRoles: jsonb("actor_roles").$type<string[]>().notNull(),
    action: text("action").notNull(),
    subjectKind: text("subject_kind").notNull(),
    subjectId: text("subject_id").notNull(),
    before: jsonb("before"),
    after: jsonb("after"),
    reason: text("reason"),
    address: text("address"),
  },
  (table) => [index("audit_log_at_idx").on(table.at), index("audit_log_subject_idx").on(table.subjectKind, table.subjectId), index("audit_log_actor_idx").on(table.actorId, table.at)],
);

/** When a session last confirmed its second factor: the back office opens for 12 hours after. */
export const staffSessions = pgTable("staff_sessions", {
  sessionId: text("session_id")
    .primaryKey()
    .references(() => session.id, { onDelete: "cascade" }),
  secondFactorAt: at("second_factor_at").notNull(),
});

/**
 * Courses staff took off sale (issue 27): out of the catalogue, its search, the home page, the
 * sitemap and checkout; whoever has one keeps it. A course in content/ without a row is on sale.
 */
export const unpublishedCourses = pgTable("unpublished_courses", {
  courseId: text("course_id").primaryKey(),
  unpublishedAt: at("unpublished_at").notNull().defaultNow(),
  reason: text("reason").notNull(),
});
