// Limits kept per person, and what support reads and lifts of them (server/staff imports this module
// directly: the auth façade imports the staff one, and a cycle between them is refused by lint).
import { eq } from "drizzle-orm";
import type { Db, Tx } from "../db/client.ts";
import { throttles } from "../db/schema.ts";

/** Per-account limits, on top of Better Auth's per-address ones. */
export const accountLimits = {
  "/sign-in/email": { windowSeconds: 15 * 60, max: 10 },
  "/request-password-reset": { windowSeconds: 60 * 60, max: 3 },
  "/send-verification-email": { windowSeconds: 15 * 60, max: 5 },
} as const;

const signInKey = (email: string) => `/sign-in/email:${email.trim().toLowerCase()}`;

/** When the account's sign-ins are refused until, after too many in a quarter of an hour; null when they are not. */
export async function signInLockedUntil(db: Db | Tx, email: string, now: Date): Promise<Date | null> {
  const { windowSeconds, max } = accountLimits["/sign-in/email"];
  const [row] = await db.select().from(throttles).where(eq(throttles.key, signInKey(email)));
  if (!row || row.count < max) return null;
  const until = new Date(row.windowStartedAt.getTime() + windowSeconds * 1000);
  return until > now ? until : null;
}

/** Lets the account sign in again at once: its count of sign-in attempts starts over. */
export async function unlockSignIn(db: Db | Tx, email: string): Promise<void> {
  await db.delete(throttles).where(eq(throttles.key, signInKey(email)));
}

/**
 * How many devices a person may be signed in on at once. Each sign-in is a row the devices list
 * shows and every revocation walks, so a script signing in again and again must not grow it without bound.
 */
export const maxSessionsPerPerson = 50;

