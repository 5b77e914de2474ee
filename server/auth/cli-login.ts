import { createHmac } from "node:crypto";
import { and, eq, gt, isNull, lt, or } from "drizzle-orm";
import { jwtVerify, SignJWT } from "jose";
import type { Db } from "../db/client.ts";
import { cliLoginRequests, deviceCode, session, user } from "../db/schema.ts";
import { clientIpHeader, cliCodeLifetimeSeconds, cliPollSeconds } from "./options.ts";
import { consumeThrottle } from "./throttle.ts";

/** How long the page's proof of its session may be used to approve a CLI sign-in. */
const idTokenSeconds = 5 * 60;
/** How long the page after a decision may say what was decided. */
const outcomeSeconds = 30 * 60;

const issuer = "academy";
const audiences = { idToken: "academy-cli-auth", outcome: "academy-cli-outcome" } as const;

const signingKey = (secret: string) => createHmac("sha256", secret).update("academy cli id-token v1").digest();

async function sign(secret: string, audience: string, subject: string, claims: Record<string, string>, lifetimeSeconds: number, now: Date): Promise<string> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "HS256" })
    .setIssuer(issuer)
    .setAudience(audience)
    .setSubject(subject)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + lifetimeSeconds)
    .sign(signingKey(secret));
}

/** The token's text claims (and `sub`) when it is ours, for this audience and unexpired; else null. */
async function verify<K extends string>(secret: string, audience: string, token: string, names: readonly K[], now: Date): Promise<Record<K | "sub", string> | null> {
  try {
    const { payload } = await jwtVerify(token, signingKey(secret), { issuer, audience, algorithms: ["HS256"], currentDate: now });
    const claims: Record<string, unknown> = payload;
    return [...names, "sub"].every((name) => typeof claims[name] === "string") ? (claims as Record<K | "sub", string>) : null;
  } catch {
    return null;
  }
}

/**
 * A short-lived signed statement (a JWT, HS256) of the current session and the code the page
 * shows, for the sign-in page to post with its approval (spec §7's `idToken`). It names the
 * session, so signing out makes it worthless, and the code, so it approves no other; the session's
 * cookie itself never leaves the browser's cookie jar, and must come with the approval.
 */
const mintIdToken = (secret: string, claims: { sessionId: string; userId: string; email: string; code: string }, now: Date) =>
  sign(secret, audiences.idToken, claims.userId, { sid: claims.sessionId, email: claims.email, code: normaliseUserCode(claims.code) }, idTokenSeconds, now);

const readIdToken = (secret: string, token: string, now: Date) => verify(secret, audiences.idToken, token, ["sid", "email", "code"], now);

/** The code as the CLI prints it (ABCD-EFGH) or as typed (abcd efgh): what Better Auth stores. */
export function normaliseUserCode(code: string): string {
  return code.replaceAll(/[\s-]/g, "").toUpperCase();
}

/** Better Auth's codes: eight of its 32 letters and digits (no I, O, 0 or 1). Anything else is not looked up. */
const userCodePattern = /^[A-HJ-NP-Z2-9]{8}$/;
const issuedShape = (userCode: string) => userCodePattern.test(userCode);

/** The code as people read it, when it has the shape of one we issue; else null (nothing to compare). */
export function wellFormedUserCode(code: string): string | null {
  return issuedShape(normaliseUserCode(code)) ? displayUserCode(code) : null;
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
  otherCode: "This page was opened for another code. Open the link your terminal shows, or run academy login again.",
} as const;

const tooManyCodes = (retryAfterSeconds: number) =>
  `Too many CLI codes were tried from here. Wait ${Math.max(1, Math.ceil(retryAfterSeconds / 60))} minutes, then reload this page.`;

/**
 * Looking codes up (the approval page) and deciding them, counted per person and per address: a
 * person gets a few dozen in 15 minutes, an address (a classroom behind one NAT) twenty times that.
 * Codes are too many to guess either way; the limit keeps the page's device details from guessers.
 */
const codeLimits = {
  person: { windowSeconds: 15 * 60, max: 30 },
  address: { windowSeconds: 15 * 60, max: 600 },
} as const;

/** Who looks a code up or decides it: the person signed in (once known) and the address they came from. */
export interface CodeVisitor {
  userId?: string;
  address: string;
}

/** One more look-up by this visitor; the seconds to wait when it is one too many, else null. */
async function overCodeLimit(db: Db, visitor: CodeVisitor): Promise<number | null> {
  const byAddress = await consumeThrottle(db, `cli-code:address:${visitor.address}`, codeLimits.address);
  if (!byAddress.allowed) return byAddress.retryAfterSeconds;
  if (visitor.userId === undefined) return null;
  const byPerson = await consumeThrottle(db, `cli-code:person:${visitor.userId}`, codeLimits.person);
  return byPerson.allowed ? null : byPerson.retryAfterSeconds;
}

/**
 * A decision's outcome. Refusals are values, not thrown errors: the approval page shows each with
 * its status, and a retry wait where there is one.
 */
export type CliDecisionResult = { ok: true; next: string } | { ok: false; status: number; message: string; retryAfterSeconds?: number };

const refused = (message: string, status = 400): CliDecisionResult => ({ ok: false, status, message });
const limited = (retryAfterSeconds: number): CliDecisionResult => ({ ok: false, status: 429, message: tooManyCodes(retryAfterSeconds), retryAfterSeconds });

export interface CliDecision {
  cliToken: string;
  email: string;
  idToken: string;
  approve: boolean;
}

/** Who sends a decision: their address, and the session their browser's cookie names (null without one). */
export interface Decider {
  address: string;
  sessionId: string | null;
}

/**
 * The signed-in person approves (or denies) the CLI sign-in with this code. The id token must be
 * ours, unexpired, for the session the request's cookie names (a session that still exists), for
 * the e-mail sent and for this code; the code must be pending, unexpired and not claimed by someone
 * else. The update is one conditional statement, so an approval replayed or raced with another
 * changes the code once. The answer names the page that says what was decided.
 */
async function decideCliLogin(db: Db, secret: string, decision: CliDecision, now: Date, from: Decider): Promise<CliDecisionResult> {
  const addressWait = await overCodeLimit(db, { address: from.address });
  if (addressWait !== null) return limited(addressWait);
  const claims = await readIdToken(secret, decision.idToken, now);
  if (!claims || from.sessionId === null || claims.sid !== from.sessionId) return refused(cliAuthMessages.signedOut);
  const [current] = await db
    .select({ email: user.email, emailVerified: user.emailVerified })
    .from(session)
    .innerJoin(user, eq(user.id, session.userId))
    .where(and(eq(session.id, claims.sid), eq(session.userId, claims.sub), gt(session.expiresAt, now)));
  if (!current) return refused(cliAuthMessages.signedOut);
  const email = decision.email.trim().toLowerCase();
  if (email !== claims.email.toLowerCase() || email !== current.email.toLowerCase()) return refused(cliAuthMessages.emailMismatch);
  if (!current.emailVerified) return refused(cliAuthMessages.unverified, 403);
  const personWait = await overCodeLimit(db, { userId: claims.sub, address: from.address });
  if (personWait !== null) return limited(personWait);

  const userCode = normaliseUserCode(decision.cliToken);
  const [code] = issuedShape(userCode) ? await db.select().from(deviceCode).where(eq(deviceCode.userCode, userCode)) : [];
  if (!code) return refused(cliAuthMessages.unknownCode);
  if (claims.code !== userCode) return refused(cliAuthMessages.otherCode);
  if (code.expiresAt <= now) return refused(cliAuthMessages.expiredCode);
  const [decided] = await db
    .update(deviceCode)
    .set({ status: decision.approve ? "approved" : "denied", userId: claims.sub })
    .where(and(eq(deviceCode.id, code.id), eq(deviceCode.status, "pending"), or(isNull(deviceCode.userId), eq(deviceCode.userId, claims.sub))))
    .returning({ id: deviceCode.id });
  if (!decided) return refused(cliAuthMessages.usedCode);
  const outcome = await sign(secret, audiences.outcome, claims.sub, { sid: claims.sid, code: userCode, decision: decision.approve ? "approved" : "denied" }, outcomeSeconds, now);
  return { ok: true, next: `/cli-auth-success?outcome=${outcome}` };
}

/**
 * What /cli-auth-success may say to this visitor: `none` unless the outcome it was sent to comes
 * from a decision made in this session in the last half hour. An approved code still in the
 * database waits for the terminal (or expired before it came); one gone was collected, since an
 * approved code is removed only when the CLI claims its token.
 */
export type CliOutcome =
  | { state: "none" }
  | { state: "denied" | "approved" | "signed-in" | "expired"; code: string };

async function cliOutcome(db: Db, secret: string, token: string | null, sessionId: string | null, now: Date): Promise<CliOutcome> {
  const claims = token && sessionId ? await verify(secret, audiences.outcome, token, ["sid", "code", "decision"], now) : null;
  if (!claims || claims.sid !== sessionId) return { state: "none" };
  const code = displayUserCode(claims.code);
  if (claims.decision !== "approved") return { state: "denied", code };
  const [row] = await db.select({ expiresAt: deviceCode.expiresAt }).from(deviceCode).where(and(eq(deviceCode.userCode, claims.code), eq(deviceCode.userId, claims.sub)));
  if (!row) return { state: "signed-in", code };
  return { state: row.expiresAt <= now ? "expired" : "approved", code };
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

/** Why the approval page has nothing to decide; `retryAfterSeconds` when the visitor has looked up too many codes. */
export interface NoCliLogin {
  problem: string;
  retryAfterSeconds?: number;
}

/** What the approval page shows about a code before the person decides, or why there is nothing to decide. */
async function pendingCliLogin(db: Db, cliToken: string, now: Date, visitor: Required<CodeVisitor>): Promise<PendingCliLogin | NoCliLogin> {
  const wait = await overCodeLimit(db, visitor);
  if (wait !== null) return { problem: tooManyCodes(wait), retryAfterSeconds: wait };
  const userCode = normaliseUserCode(cliToken);
  const [code] = issuedShape(userCode) ? await db.select().from(deviceCode).where(eq(deviceCode.userCode, userCode)) : [];
  if (!code) return { problem: cliAuthMessages.unknownCode };
  if (code.expiresAt <= now) return { problem: cliAuthMessages.expiredCode };
  if (code.status !== "pending") return { problem: cliAuthMessages.usedCode };
  const [asked] = await db.select().from(cliLoginRequests).where(eq(cliLoginRequests.userCode, userCode));
  return { code: displayUserCode(userCode), expiresAt: code.expiresAt, userAgent: asked?.userAgent ?? null, ipAddress: asked?.ipAddress ?? null, requestedAt: asked?.createdAt ?? null };
}

/** CLI sign-in, bound to the database and the secret that signs the page's id tokens. */
export function createCliLogin(db: Db, secret: string) {
  return {
    /** The address a page's request came from, as the HTTP layer recorded it, for the limits on codes. */
    addressOf: (headers: Headers) => headers.get(clientIpHeader) ?? "unknown",
    idTokenFor: (claims: { sessionId: string; userId: string; email: string; code: string }, now: Date) => mintIdToken(secret, claims, now),
    decide: (decision: CliDecision, now: Date, from: Decider) => decideCliLogin(db, secret, decision, now, from),
    outcome: (token: string | null, sessionId: string | null, now: Date) => cliOutcome(db, secret, token, sessionId, now),
    pending: (cliToken: string, now: Date, visitor: Required<CodeVisitor>) => pendingCliLogin(db, cliToken, now, visitor),
  };
}

export type CliLogin = ReturnType<typeof createCliLogin>;

/** Polls a code may take over its life: twice what a CLI keeping to the interval needs. */
const pollLimit = { windowSeconds: cliCodeLifetimeSeconds, max: (2 * cliCodeLifetimeSeconds) / cliPollSeconds } as const;

/**
 * Why a poll of the device-token endpoint is refused before Better Auth answers it, in RFC 8628's
 * terms, or null to let it answer: a device code not of the shape Better Auth issues; a code polled
 * more than its life allows (`slow_down`, counted per code, so people behind one address never
 * share a limit); an approved code whose account is not verified.
 */
export async function devicePollRefusal(db: Db, code: unknown): Promise<{ error: string; error_description: string } | null> {
  // A missing or non-text code is the endpoint's own validation error to give.
  if (typeof code !== "string") return null;
  if (!/^[\w-]{1,128}$/.test(code)) return { error: "invalid_grant", error_description: "Invalid device code" };
  const [row] = await db
    .select({ id: deviceCode.id, status: deviceCode.status, verified: user.emailVerified })
    .from(deviceCode)
    .leftJoin(user, eq(user.id, deviceCode.userId))
    .where(eq(deviceCode.deviceCode, code));
  if (!row) return null;
  const { allowed } = await consumeThrottle(db, `device-token:${row.id}`, pollLimit);
  if (!allowed) return { error: "slow_down", error_description: `This code was polled too often. Poll at most every ${cliPollSeconds} seconds.` };
  if (row.status === "approved" && !row.verified) return { error: "access_denied", error_description: cliAuthMessages.unverified };
  return null;
}
