import { createHmac } from "node:crypto";
import { and, eq, gt, isNull, lt, or } from "drizzle-orm";
import { jwtVerify, SignJWT } from "jose";
import type { Db } from "../db/client.ts";
import { cliLoginRequests, deviceCode, session, user } from "../db/schema.ts";
import { ValidationError } from "../errors.ts";

/** How long the page's proof of its session may be used to approve a CLI sign-in. */
const idTokenSeconds = 5 * 60;

const issuer = "academy";
const audience = "academy-cli-auth";

const signingKey = (secret: string) => createHmac("sha256", secret).update("academy cli id-token v1").digest();

/**
 * A short-lived signed statement (a JWT, HS256) of the current session, for the sign-in page to
 * post with its approval (spec §7's `idToken`). It names the session, so signing out makes it
 * worthless; the session's cookie itself never leaves the browser's cookie jar.
 */
async function mintIdToken(secret: string, claims: { sessionId: string; userId: string; email: string }, now: Date): Promise<string> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  return new SignJWT({ sid: claims.sessionId, email: claims.email })
    .setProtectedHeader({ alg: "HS256" })
    .setIssuer(issuer)
    .setAudience(audience)
    .setSubject(claims.userId)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + idTokenSeconds)
    .sign(signingKey(secret));
}

async function readIdToken(secret: string, token: string, now: Date): Promise<{ sid: string; sub: string; email: string } | null> {
  try {
    const { payload } = await jwtVerify(token, signingKey(secret), { issuer, audience, algorithms: ["HS256"], currentDate: now });
    const { sid, sub, email } = payload;
    return typeof sid === "string" && typeof sub === "string" && typeof email === "string" ? { sid, sub, email } : null;
  } catch {
    return null;
  }
}

/** The code as the CLI prints it (ABCD-EFGH) or as typed (abcd efgh): what Better Auth stores. */
export function normaliseUserCode(code: string): string {
  return code.replaceAll(/[\s-]/g, "").toUpperCase();
}

/** The code as people read it: two groups of four. */
export function displayUserCode(code: string): string {
  const plain = normaliseUserCode(code);
  return plain.length === 8 ? `${plain.slice(0, 4)}-${plain.slice(4)}` : plain;
}

export const cliAuthMessages = {
  signedOut: "Your sign-in on this page has expired. Reload the page, sign in again if asked, and approve once more.",
  emailMismatch: "The e-mail address sent does not match the account signed in on this page. Reload the page and try again.",
  unverified: "Verify your e-mail address first, then approve the CLI.",
  unknownCode: "That code is not one we issued. Check it against your terminal, or run academy login again.",
  expiredCode: "That code has expired. Run academy login again for a new one.",
  usedCode: "That code has already been used. If your terminal is still waiting, run academy login again.",
} as const;

export interface CliDecision {
  cliToken: string;
  email: string;
  idToken: string;
  approve: boolean;
}

/**
 * The signed-in person approves (or denies) the CLI sign-in with this code. The id token must be
 * ours, unexpired, for a session that still exists and for the e-mail sent; the code must be
 * pending, unexpired and not claimed by someone else. The update is one conditional statement, so
 * an approval replayed or raced with another changes the code once.
 */
async function decideCliLogin(db: Db, secret: string, decision: CliDecision, now: Date): Promise<void> {
  const claims = await readIdToken(secret, decision.idToken, now);
  if (!claims) throw new ValidationError(cliAuthMessages.signedOut);
  const [current] = await db
    .select({ email: user.email, emailVerified: user.emailVerified })
    .from(session)
    .innerJoin(user, eq(user.id, session.userId))
    .where(and(eq(session.id, claims.sid), eq(session.userId, claims.sub), gt(session.expiresAt, now)));
  if (!current) throw new ValidationError(cliAuthMessages.signedOut);
  const email = decision.email.trim().toLowerCase();
  if (email !== claims.email.toLowerCase() || email !== current.email.toLowerCase()) throw new ValidationError(cliAuthMessages.emailMismatch);
  if (!current.emailVerified) throw new ValidationError(cliAuthMessages.unverified);

  const userCode = normaliseUserCode(decision.cliToken);
  const [code] = userCode ? await db.select().from(deviceCode).where(eq(deviceCode.userCode, userCode)) : [];
  if (!code) throw new ValidationError(cliAuthMessages.unknownCode);
  if (code.expiresAt <= now) throw new ValidationError(cliAuthMessages.expiredCode);
  const [decided] = await db
    .update(deviceCode)
    .set({ status: decision.approve ? "approved" : "denied", userId: claims.sub })
    .where(and(eq(deviceCode.id, code.id), eq(deviceCode.status, "pending"), or(isNull(deviceCode.userId), eq(deviceCode.userId, claims.sub))))
    .returning({ id: deviceCode.id });
  if (!decided) throw new ValidationError(cliAuthMessages.usedCode);
}

/**
 * Notes which device asked for a code (its User-Agent and address). Codes a CLI never came back
 * for, and these notes, are forgotten a day later, so unanswered requests do not pile up.
 */
export async function recordCliLoginRequest(db: Db, request: { userCode: string; userAgent: string | null; ipAddress: string | null }): Promise<void> {
  const dayAgo = new Date(Date.now() - 86_400_000);
  await db.delete(cliLoginRequests).where(lt(cliLoginRequests.createdAt, dayAgo));
  await db.delete(deviceCode).where(lt(deviceCode.expiresAt, dayAgo));
  await db.insert(cliLoginRequests).values(request).onConflictDoNothing();
}

export interface PendingCliLogin {
  code: string;
  expiresAt: Date;
  /** The device that asked, as it said it was, and from where. */
  userAgent: string | null;
  ipAddress: string | null;
  requestedAt: Date | null;
}

/** What the approval page shows about a code before the person decides, or why there is nothing to decide. */
async function pendingCliLogin(db: Db, cliToken: string, now: Date): Promise<PendingCliLogin | { problem: string }> {
  const userCode = normaliseUserCode(cliToken);
  const [code] = userCode ? await db.select().from(deviceCode).where(eq(deviceCode.userCode, userCode)) : [];
  if (!code) return { problem: cliAuthMessages.unknownCode };
  if (code.expiresAt <= now) return { problem: cliAuthMessages.expiredCode };
  if (code.status !== "pending") return { problem: cliAuthMessages.usedCode };
  const [asked] = await db.select().from(cliLoginRequests).where(eq(cliLoginRequests.userCode, userCode));
  return { code: displayUserCode(userCode), expiresAt: code.expiresAt, userAgent: asked?.userAgent ?? null, ipAddress: asked?.ipAddress ?? null, requestedAt: asked?.createdAt ?? null };
}

/** CLI sign-in, bound to the database and the secret that signs the page's id tokens. */
export function createCliLogin(db: Db, secret: string) {
  return {
    idTokenFor: (claims: { sessionId: string; userId: string; email: string }, now: Date) => mintIdToken(secret, claims, now),
    decide: (decision: CliDecision, now: Date) => decideCliLogin(db, secret, decision, now),
    pending: (cliToken: string, now: Date) => pendingCliLogin(db, cliToken, now),
  };
}

export type CliLogin = ReturnType<typeof createCliLogin>;
