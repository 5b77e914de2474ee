import { encodeProof, type ProofChallenge } from "../../common/proof-of-work.ts";

const hex = (bytes: ArrayBuffer) => Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, "0")).join("");

/**
 * Finds the number a challenge hides by trying each in turn, as the form's solution (null when none
 * matches, or the browser has no Web Crypto: a page over plain http on another host than localhost).
 */
export async function solveProof(challenge: ProofChallenge): Promise<string | null> {
  if (!globalThis.crypto?.subtle) return null;
  const encoder = new TextEncoder();
  for (let number = 0; number <= challenge.maxnumber; number++) {
    const digest = await crypto.subtle.digest("SHA-256", encoder.encode(`${challenge.salt}${number}`));
    if (hex(digest) === challenge.challenge) {
      const { algorithm, challenge: hidden, salt, signature } = challenge;
      return encodeProof({ algorithm, challenge: hidden, salt, signature, number });
    }
  }
  return null;
}
