import type { ReactNode } from "react";

/** One fact about a record, in the card of facts at the top of its page (a `<dl>`). */
export function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-sm text-slate-600 dark:text-slate-400">{term}</dt>
      <dd className="mt-1 font-medium text-slate-950 dark:text-white">{children}</dd>
    </div>
  );
}
