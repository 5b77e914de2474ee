import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import type { ProofChallenge, ProofSolution } from "../../common/proof-of-work.ts";
import type { Db } from "../db/client.ts";
import { consumeThrottle } from "./throttle.ts";

const challengeShape = z.object({
  algorithm: z.literal("SHA-256"),
  challenge: z.string().regex(/^[0-9a-f]{64}$/),
  maxnumber: z.number().int().nonnegative(),
  salt: z.string().max(200),
  signature: z.string().regex(/^[0-9a-f]{64}$/),
});

/** A challenge as a client sends it back, read before it is trusted. */
export const proofChallenge: z.ZodType<ProofChallenge> = challengeShape;

const proofSolution: z.ZodType<ProofSolution> = challengeShape.omit({ maxnumber: true }).extend({ number: z.number().int().nonnegative() });

/** A solution sent by a client, or null when it is not one. */
export function decodeProof(encoded: string): ProofSolution | null {
  try {
    const parsed = proofSolution.safeParse(JSON.parse(atob(encoded)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** How long a challenge may be solved and sent back for. */
export const proofLifetimeSeconds = 5 * 60;

/** The largest number a challenge hides: half of it is tried on average, about a second of a phone's time. */
export const proofMaxNumber = 60_000;

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** Makes and checks proof-of-work challenges signed with `key` (derived from the auth secret). */
export function proofOfWork(secret: string) {
  const key = createHmac("sha256", secret).update("academy proof of work").digest();
  const sign = (challenge: string) => createHmac("sha256", key).update(challenge).digest("hex");
  return {
    challenge(now: Date, maxNumber = proofMaxNumber): ProofChallenge {
      const expires = Math.floor(now.getTime() / 1000) + proofLifetimeSeconds;
      const salt = `${randomBytes(12).toString("hex")}?expires=${expires}`;
      const challenge = sha256(`${salt}${randomInt(0, maxNumber + 1)}`);
      return { algorithm: "SHA-256", challenge, maxnumber: maxNumber, salt, signature: sign(challenge) };
    },

    /**
     * Whether `encoded` solves a challenge this server made, not yet expired and never used before:
     * each solution lets one request through, however often it is sent.
     */
    async accepts(db: Db, encoded: string | null | undefined, now: Date): Promise<boolean> {
      const solution = encoded ? decodeProof(encoded) : null;
      if (!solution) return false;
      const expires = Number(new URLSearchParams(solution.salt.split("?")[1] ?? "").get("expires"));
      if (!Number.isFinite(expires) || expires * 1000 <= now.getTime()) return false;
      const expected = Buffer.from(sign(solution.challenge), "hex");
      if (!timingSafeEqual(expected, Buffer.from(solution.signature, "hex"))) return false;
      if (sha256(`${solution.salt}${solution.number}`) !== solution.challenge) return false;
      const use = await consumeThrottle(db, `proof:${solution.challenge}`, { windowSeconds: proofLifetimeSeconds, max: 1 });
      return use.allowed;
    },
  };
}

export type ProofOfWork = ReturnType<typeof proofOfWork>;

