import { createHash } from "node:crypto";
import { encodeProof, type ProofChallenge } from "../../common/proof-of-work.ts";

/** Solves a challenge as a browser would (app/lib/proof-of-work.ts), with Node's hash: the solution to send back. */
export function solveProof(challenge: ProofChallenge): string {
  for (let number = 0; number <= challenge.maxnumber; number++) {
    if (createHash("sha256").update(`${challenge.salt}${number}`).digest("hex") === challenge.challenge) {
      const { algorithm, challenge: hidden, salt, signature } = challenge;
      return encodeProof({ algorithm, challenge: hidden, salt, signature, number });
    }
  }
  throw new Error("The challenge has no solution: it was not made by the server's proofOfWork.");
}
