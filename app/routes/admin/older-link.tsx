import { Link } from "react-router";

/** The link to a list's next page (older entries, or `param` "after" for a list in rising order), keeping its filters; nothing when there is none. */
export function OlderLink({ path, filter, next, param = "before", children }: { path: string; filter: Record<string, string>; next: string | number | null; param?: "before" | "after"; children: string }) {
  if (next === null) return null;
  const params = new URLSearchParams(Object.entries(filter).filter(([, value]) => value !== ""));
  params.set(param, String(next));
  return (
    <Link to={`${path}?${params}`} className="text-sm font-semibold text-brand-700 hover:underline dark:text-brand-300">
      {children}
    </Link>
  );
}
