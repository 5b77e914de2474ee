import type { ReactNode } from "react";

/**
 * A page's price and its one action, stuck to the foot of the screen on phones and tablets (from lg up
 * the page's side column shows them). Placed last in the page, it takes its own room at the end, so
 * it covers no content once scrolled to, and it comes last in the keyboard's order; while it is
 * shown, a focused control is scrolled clear of it (app.css, `data-sticky-action-bar`).
 */
export function StickyActionBar({
  label,
  price,
  per,
  note,
  action,
}: {
  label: string;
  price: ReactNode;
  /** What the price is for, after it in small type: "per month". */
  per?: string;
  note?: ReactNode;
  action: ReactNode;
}) {
  return (
    <section
      aria-label={label}
      data-sticky-action-bar
      className="sticky bottom-0 z-10 border-t border-slate-200 bg-white/95 px-4 py-3 shadow-[0_-4px_12px_rgb(0_0_0/0.06)] backdrop-blur lg:hidden dark:border-slate-800 dark:bg-slate-950/95"
    >
      <div className="mx-auto flex max-w-3xl items-center justify-between gap-4">
        <div className="min-w-0">
          <p className="text-xl font-bold text-slate-950 dark:text-white">
            {price}
            {per && <span className="text-sm font-normal text-slate-600 dark:text-slate-400"> {per}</span>}
          </p>
          {note && <p className="text-xs text-slate-600 dark:text-slate-400">{note}</p>}
        </div>
        <div className="shrink-0">{action}</div>
      </div>
    </section>
  );
}
