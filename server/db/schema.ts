import { index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { user } from "./auth-schema.ts";

export * from "./auth-schema.ts";

/** Application-wide configuration documents (spec §3: collection appRoots, e.g. document "Encryption"). */
export const appRoots = pgTable("app_roots", {
  id: text("id").primaryKey(),
  key: text("key"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

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
