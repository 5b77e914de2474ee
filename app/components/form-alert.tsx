import { useEffect, useRef, type ReactNode } from "react";

/** A message at the head of a form or a page: what went wrong, what was done, or something to know. */
export function FormAlert({ tone = "error", children }: { tone?: "error" | "success" | "info"; children: ReactNode }) {
  const styles = {
    error: "border-red-200 bg-red-50 text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200",
    success: "border-emerald-200 bg-emerald-50 text-emerald-800 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-200",
    info: "border-brand-200 bg-brand-50 text-brand-900 dark:border-brand-800 dark:bg-slate-900 dark:text-brand-100",
  }[tone];
  const box = useRef<HTMLDivElement>(null);
  // A form refused at its foot on a phone says why at its head: bring the reason into view (below the sticky header).
  useEffect(() => {
    if (tone === "error") box.current?.scrollIntoView({ block: "nearest" });
  }, [tone]);
  return (
    <div ref={box} role={tone === "error" ? "alert" : "status"} className={`scroll-mt-24 rounded-lg border px-4 py-3 text-sm ${styles}`}>
      {children}
    </div>
  );
}
