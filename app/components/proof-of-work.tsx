import { useEffect, useRef, useState } from "react";
import { proofField, type ProofChallenge } from "../../common/proof-of-work.ts";
import { solveProof } from "../lib/proof-of-work.ts";

/**
 * Inside a form the server refused because its network was past a limit: the browser solves the
 * challenge the refusal came with (a second or two of work, no third party) and sends the form
 * again with the solution, instead of the person waiting out the limit. Without JavaScript the
 * refusal's own words say how long to wait.
 */
export function ProofOfWork({ challenge }: { challenge: ProofChallenge | undefined }) {
  const field = useRef<HTMLInputElement>(null);
  const [finished, setFinished] = useState<ProofChallenge | undefined>(undefined);
  const checking = challenge !== undefined && finished !== challenge;
  useEffect(() => {
    if (!challenge) return;
    let current = true;
    void solveProof(challenge).then((solution) => {
      if (!current) return;
      setFinished(challenge);
      const input = field.current;
      if (!solution || !input) return;
      input.value = solution;
      input.form?.requestSubmit();
    });
    return () => {
      current = false;
    };
  }, [challenge]);
  return (
    <>
      <input ref={field} type="hidden" name={proofField} defaultValue="" />
      {challenge && (
        <p role="status" className="text-sm text-slate-700 dark:text-slate-300">
          {checking ? "Your browser is doing a short check instead, so you need not wait. This takes a few seconds…" : ""}
        </p>
      )}
    </>
  );
}
