import type { BetterAuthOptions } from "better-auth";

/** Options that shape the database schema; shared by the app and the schema generator. */
export const authOptions = {
  appName: "Academy",
  emailAndPassword: { enabled: true },
  rateLimit: { enabled: true, storage: "database" },
} satisfies BetterAuthOptions;
