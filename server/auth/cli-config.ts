// Read only by the Better Auth CLI to generate server/db/auth-schema.ts; the app builds its instance in index.ts.
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { authOptions } from "./options.ts";

export const auth = betterAuth({
  ...authOptions,
  database: drizzleAdapter({}, { provider: "pg" }),
});
