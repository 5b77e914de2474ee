import type { ProofChallenge } from "../../common/proof-of-work.ts";
import type { Db } from "../db/client.ts";
import type { ProofOfWork } from "./proof-of-work.ts";
import { consumeThrottle } from "./throttle.ts";

/**
 * Per-address limits on the forms anyone can send to make accounts, check passwords and send reset links, in fixed
 * windows of a quarter of an hour: enough for a classroom of forty behind one address to sign up
 * and in, typing mistakes included. Past one, a request still goes through with a solved
 * proof-of-work challenge (docs/decisions/027), so a busy network slows a script down without
 * locking people out; the per-account limits keep any one password from being guessed.
 */
export const networkLimits = {
  "/sign-in/email": { window: 15 * 60, max: 150 },
  "/sign-up/email": { window: 15 * 60, max: 60 },
  "/request-password-reset": { window: 15 * 60, max: 30 },
} as const;

type NetworkPath = keyof typeof networkLimits;

export const isNetworkLimited = (path: string): path is NetworkPath => Object.hasOwn(networkLimits, path);

/** The wait, in whole minutes as people say it. */
export function waitInMinutes(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return minutes === 1 ? "1 minute" : `${minutes} minutes`;
}

const refusals: Record<NetworkPath, (wait: string) => string> = {
  "/sign-in/email": (wait) => `Too many sign-ins from this network. Try again in ${wait}.`,
  "/sign-up/email": (wait) => `Too many accounts were created from this network. Try again in ${wait}.`,
  "/request-password-reset": (wait) => `Too many password reset links were asked for from this network. Try again in ${wait}.`,
};

export interface NetworkRefusal {
  message: string;
  retryAfterSeconds: number;
  /** A new challenge whose solution lets the request through now. */
  challenge: ProofChallenge;
}

/**
 * Counts one request on `path` from `address`. Past the limit it is let through only with a solved
 * challenge (`proof`); otherwise the refusal says how long to wait and gives a challenge to solve.
 */
export async function networkRefusal(
  deps: { db: Db; proofOfWork: ProofOfWork },
  request: { path: NetworkPath; address: string; proof: string | null | undefined },
  now: Date,
): Promise<NetworkRefusal | null> {
  const rule = networkLimits[request.path];
  const hit = await consumeThrottle(deps.db, `address:${request.address}:${request.path}`, { windowSeconds: rule.window, max: rule.max });
  if (hit.allowed || (await deps.proofOfWork.accepts(deps.db, request.proof, now))) return null;
  const retryAfterSeconds = Math.max(1, hit.retryAfterSeconds);
  return { message: refusals[request.path](waitInMinutes(retryAfterSeconds)), retryAfterSeconds, challenge: deps.proofOfWork.challenge(now) };
}
