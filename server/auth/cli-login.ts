import { createHmac } from "node:crypto";
import { and, eq, gt, isNull, lt, or } from "drizzle-orm";
import { jwtVerify, SignJWT } from "jose";
import type { Db } from "../db/client.ts";
import { cliLoginRequests, deviceCode, session, user } from "../db/schema.ts";
import { clientIpHeader, cliCodeLifetimeSeconds, cliPollSeconds } from "./options.ts";
import { consumeThrottle } from "./throttle.ts";

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

/** Better Auth's codes: eight of its 32 letters and digits (no I, O, 0 or 1). Anything else is not looked up. */
const userCodePattern = /^[A-HJ-NP-Z2-9]{8}$/;
const issuedShape = (userCode: string) => userCodePattern.test(userCode);

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
export type CliDecisionResult = { ok: true } | { ok: false; status: number; message: string; retryAfterSeconds?: number };

const refused = (message: string, status = 400): CliDecisionResult => ({ ok: false, status, message });
const limited = (retryAfterSeconds: number): CliDecisionResult => ({ ok: false, status: 429, message: tooManyCodes(retryAfterSeconds), retryAfterSeconds });

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
async function decideCliLogin(db: Db, secret: string, decision: CliDecision, now: Date, from: CodeVisitor): Promise<CliDecisionResult> {
  const addressWait = await overCodeLimit(db, { address: from.address });
  if (addressWait !== null) return limited(addressWait);
  const claims = await readIdToken(secret, decision.idToken, now);
  if (!claims) return refused(cliAuthMessages.signedOut);
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
  if (code.expiresAt <= now) return refused(cliAuthMessages.expiredCode);
  const [decided] = await db
    .update(deviceCode)
    .set({ status: decision.approve ? "approved" : "denied", userId: claims.sub })
    .where(and(eq(deviceCode.id, code.id), eq(deviceCode.status, "pending"), or(isNull(deviceCode.userId), eq(deviceCode.userId, claims.sub))))
    .returning({ id: deviceCode.id });
  if (!decided) return refused(cliAuthMessages.usedCode);
  return { ok: true };
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
    idTokenFor: (claims: { sessionId: string; userId: string; email: string }, now: Date) => mintIdToken(secret, claims, now),
    decide: (decision: CliDecision, now: Date, from: CodeVisitor) => decideCliLogin(db, secret, decision, now, from),
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
