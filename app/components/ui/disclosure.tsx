import type { ReactNode } from "react";

/** Something most people skip, folded away behind a line that says what it is; open without scripts too. */
export function Disclosure({ summary, open, className = "", children }: { summary: ReactNode; open?: boolean; className?: string; children: ReactNode }) {
  return (
    <details className={`text-sm ${className}`} open={open}>
      <summary className="cursor-pointer font-medium text-brand-700 dark:text-brand-300">{summary}</summary>
      {children}
    </details>
  );
}
