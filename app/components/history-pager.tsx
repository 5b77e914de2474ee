import { Link } from "react-router";

const link = "font-semibold text-brand-700 hover:underline dark:text-brand-300";

/** What a page past the end of a history says: there is nothing older, and the way back to the latest. */
export function NoOlderHistory({ latest, noun }: { latest: string; noun: string }) {
  return (
    <p className="mt-6 text-sm text-slate-600 dark:text-slate-400">
      There are no older {noun}.{" "}
      <Link to={latest} className={link}>
        See your latest {noun}
      </Link>
    </p>
  );
}

/** The foot of a long history shown a page at a time: how many a page holds, and the way to older and back to the latest. */
export function HistoryPager({ pageSize, older, latest, noun }: { pageSize: number; older: string | null; latest: string | null; noun: string }) {
  if (!older && !latest) return null;
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
