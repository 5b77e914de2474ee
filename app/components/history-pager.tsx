import { Link } from "react-router";

/** The foot of a long history shown a page at a time: how many a page holds, and the way to older and back to the latest. */
export function HistoryPager({ pageSize, older, latest, noun }: { pageSize: number; older: string | null; latest: string | null; noun: string }) {
  if (!older && !latest) return null;
  const link = "font-semibold text-brand-700 hover:underline dark:text-brand-300";
  return (
    <nav aria-label={`More ${noun}`} className="mt-6 flex flex-wrap items-center justify-between gap-3 text-sm text-slate-600 dark:text-slate-400">
      <p>
        Showing {pageSize} {noun} at a time, newest first.
      </p>
      <p className="flex gap-4">
        {latest && (
          <Link to={latest} className={link}>
            Latest {noun}
          </Link>
        )}
        {older && (
          <Link to={older} className={link}>
            Older {noun}
          </Link>
        )}
      </p>
    </nav>
  );
}
