// Limits kept per person, and what support reads and lifts of them (server/staff imports this module
// directly: the auth façade imports the staff one, and a cycle between them is refused by lint).
import { eq, or, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/client.ts";
import { throttles } from "../db/schema.ts";

/** Per-account limits, on top of the per-address ones. Sign-ins count only the attempts that fail. */
export const accountLimits = {
  "/sign-in/email": { windowSeconds: 15 * 60, max: 10 },
  "/request-password-reset": { windowSeconds: 60 * 60, max: 3 },
  "/send-verification-email": { windowSeconds: 15 * 60, max: 5 },
} as const;

/** What counts an account's failed sign-ins: from anywhere, or from one of its own devices (server/auth/known-device.ts). */
export const signInKey = (email: string, device: string | null = null) => `/sign-in/email:${email.trim().toLowerCase()}${device ? `:device:${device}` : ""}`;

/** When the account's sign-ins are refused until, after too many failed in a quarter of an hour; null when they are not. */
export async function signInLockedUntil(db: Db | Tx, email: string, now: Date): Promise<Date | null> {
  const { windowSeconds, max } = accountLimits["/sign-in/email"];
  const [row] = await db.select().from(throttles).where(eq(throttles.key, signInKey(email)));
  if (!row || row.count < max) return null;
  const until = new Date(row.windowStartedAt.getTime() + windowSeconds * 1000);
  return until > now ? until : null;
}

/** A right password: the count of failed sign-ins it was counted on (the account's, or the device's) starts over. */
export async function clearFailedSignIns(db: Db | Tx, email: string, device: string | null): Promise<void> {
  await db.delete(throttles).where(eq(throttles.key, signInKey(email, device)));
}

/** Lets the account sign in again at once, from anywhere: its counts of failed sign-ins, its devices' too, start over. */
export async function unlockSignIn(db: Db | Tx, email: string): Promise<void> {
  await db.delete(throttles).where(or(eq(throttles.key, signInKey(email)), sql`starts_with(${throttles.key}, ${`${signInKey(email)}:device:`})`));
}

/**
 * How many devices a person may be signed in on at once. Each sign-in is a row the devices list
 * shows and every revocation walks, so a script signing in again and again must not grow it without bound.
 */
export const maxSessionsPerPerson = 50;

