import { NavLink } from "react-router";

/** A tab of an area's navigation (the account, the back office): underlined while its page is shown. */
export function TabLink({ to, end = false, children }: { to: string; end?: boolean; children: React.ReactNode }) {
  return (
    <NavLink
      to={to}
      end={end}
      className={({ isActive }) =>
        `inline-flex items-center whitespace-nowrap border-b-2 px-3 py-3 text-sm font-medium transition-colors ${
          isActive
            ? "border-brand-600 text-brand-700 dark:border-brand-300 dark:text-brand-300"
            : "border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-950 dark:text-slate-400 dark:hover:border-slate-600 dark:hover:text-white"
        }`
      }
    >
      {children}
    </NavLink>
  );
}
