import { pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** Application-wide configuration documents (spec §3: collection appRoots, e.g. document "Encryption"). */
export const appRoots = pgTable("app_roots", {
  id: text("id").primaryKey(),
  key: text("key"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
