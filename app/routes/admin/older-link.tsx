import { Link } from "react-router";

/** The link to a list's next page, older entries, under the list. */
export function OlderLink({ to, children }: { to: string; children: string }) {
  return (
    <Link to={to} className="text-sm font-semibold text-brand-700 hover:underline dark:text-brand-300">
      {children}
    </Link>
  );
}
