import type { ReactNode } from "react";
import { ButtonLink } from "./ui/button.tsx";

/** What an account list shows before there is anything in it, with the one useful next step. */
export function AccountEmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: { to: string; label: string } }) {
  return (
    <div className="rounded-2xl border border-dashed border-slate-300 px-6 py-10 text-center dark:border-slate-700">
      <p className="font-semibold text-slate-950 dark:text-white">{title}</p>
      {children && <div className="mx-auto mt-2 max-w-md text-sm text-slate-600 dark:text-slate-400">{children}</div>}
      {action && (
        <ButtonLink
          to={action.to}
          className="mt-5 inline-block"
        >
          {action.label}
        </ButtonLink>
      )}
    </div>
  );
}
