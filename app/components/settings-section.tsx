import type { ReactNode } from "react";

/** One titled panel of the profile and settings pages. */
export function SettingsSection({ id, title, lead, children }: { id: string; title: string; lead?: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-2xl border border-slate-200 p-6 dark:border-slate-800">
      <h2 id={id} className="text-lg font-semibold text-slate-950 dark:text-white">
        {title}
      </h2>
      {lead && <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{lead}</p>}
      <div className="mt-4">{children}</div>
    </section>
  );
}
