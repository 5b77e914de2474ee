import { z } from "zod";

/**
 * A proof-of-work challenge in ALTCHA's format: find the `number` from 0 to `maxnumber` whose
 * SHA-256 of `salt + number`, in hex, is `challenge`. The server signs `challenge`, so it needs
 * to remember nothing until a solution comes back.
 */
export const proofChallenge = z.object({
  algorithm: z.literal("SHA-256"),
  challenge: z.string().regex(/^[0-9a-f]{64}$/),
  maxnumber: z.number().int().nonnegative(),
  salt: z.string().max(200),
  signature: z.string().regex(/^[0-9a-f]{64}$/),
});
export type ProofChallenge = z.infer<typeof proofChallenge>;

/** A solved challenge as it travels back: the challenge and the number found. */
export const proofSolution = proofChallenge.omit({ maxnumber: true }).extend({ number: z.number().int().nonnegative() });
export type ProofSolution = z.infer<typeof proofSolution>;

/** The form field, and the request header for JSON callers, that carry a solution (base64 of its JSON). */
export const proofField = "proof";
export const proofHeader = "x-academy-proof";

export function encodeProof(solution: ProofSolution): string {
  return btoa(JSON.stringify(solution));
}

/** A solution sent by a client, or null when it is not one. */
export function decodeProof(encoded: string): ProofSolution | null {
  try {
    const parsed = proofSolution.safeParse(JSON.parse(atob(encoded)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
