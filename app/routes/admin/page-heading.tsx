import type { ReactNode } from "react";
import { BackLink } from "../../components/back-link.tsx";

/**
 * The top of every back-office page: a way back to the list it was opened from (a record's page),
 * the title, a sentence on what the page is for, and anything that belongs beside them (badges).
 */
export function PageHeading({ title, lead, back, children }: { title: ReactNode; lead?: ReactNode; back?: { to: string; label: string }; children?: ReactNode }) {
  return (
    <div>
      {back && <BackLink fallback={back.to} label={back.label} />}
      <h1 className={`${back ? "mt-2 " : ""}text-2xl font-bold tracking-tight text-slate-950 dark:text-white`}>{title}</h1>
      {lead && <p className="mt-2 max-w-3xl text-slate-600 dark:text-slate-300">{lead}</p>}
      {children}
    </div>
  );
}

/** A titled part of a back-office page, named by its heading for assistive technology. */
export function Section({ id, title, className = "space-y-3", children }: { id: string; title: ReactNode; className?: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-heading`} className={className}>
      <h2 id={`${id}-heading`} className="text-lg font-semibold text-slate-950 dark:text-white">
        {title}
      </h2>
      {children}
    </section>
  );
}
