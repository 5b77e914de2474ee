/**
 * A proof-of-work challenge in ALTCHA's format: find the `number` from 0 to `maxnumber` whose
 * SHA-256 of `salt + number`, in hex, is `challenge`. The server signs `challenge`, so it needs
 * to remember nothing until a solution comes back. (The server reads both shapes with zod, in
 * server/auth/proof-of-work.ts; this file is in every page's scripts, so it carries no validator.)
 */
export interface ProofChallenge {
  algorithm: "SHA-256";
  challenge: string;
  maxnumber: number;
  salt: string;
  signature: string;
}

/** A solved challenge as it travels back: the challenge and the number found. */
export type ProofSolution = Omit<ProofChallenge, "maxnumber"> & { number: number };

/** The form field, and the request header for JSON callers, that carry a solution (base64 of its JSON). */
export const proofField = "proof";
export const proofHeader = "x-academy-proof";

export function encodeProof(solution: ProofSolution): string {
  return btoa(JSON.stringify(solution));
}
