import type { ReactNode } from "react";
import { cardClass } from "./ui/card.tsx";

/** One titled panel of the profile and settings pages (under the account's page heading), or of /api-tools (`headingLevel` 2). */
export function SettingsSection({
  id,
  title,
  lead,
  headingLevel = 3,
  children,
}: {
  id: string;
  title: string;
  lead?: string;
  headingLevel?: 2 | 3;
  children: ReactNode;
}) {
  const Heading = `h${headingLevel}` as const;
  return (
    <section aria-labelledby={id} className={cardClass({ className: "p-6" })}>
      <Heading id={id} className="text-lg font-semibold text-slate-950 dark:text-white">
        {title}
      </Heading>
      {lead && <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{lead}</p>}
      <div className="mt-4">{children}</div>
    </section>
  );
}
