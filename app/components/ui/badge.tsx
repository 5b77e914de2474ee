import type { ReactNode } from "react";

export type BadgeTone = "success" | "warning" | "neutral";

const tones: Record<BadgeTone, string> = {
  success: "bg-emerald-100 text-emerald-800 dark:bg-emerald-900 dark:text-emerald-100",
  warning: "bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100",
  neutral: "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300",
};

/** A small pill beside a name ("Free", "Verified", "This device"); the word carries the meaning. */
export function Badge({ tone = "neutral", className, children }: { tone?: BadgeTone; className?: string; children: ReactNode }) {
  return <span className={["rounded-full px-2 py-0.5 text-xs font-medium", tones[tone], className].filter(Boolean).join(" ")}>{children}</span>;
}
