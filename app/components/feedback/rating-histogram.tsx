import { Link } from "react-router";

/** Reviews per number of stars; each bar is a link that shows only those reviews. */
export function RatingHistogram({
  histogram,
  total,
  selected,
}: {
  histogram: { stars: number; count: number }[];
  total: number;
  selected: number | null;
}) {
  return (
    <ul className="space-y-1">
      {histogram.map(({ stars, count }) => {
        const percent = total === 0 ? 0 : Math.round((count / total) * 100);
        const current = selected === stars;
        return (
          <li key={stars}>
            <Link
              to={`?rating=${stars}`}
              preventScrollReset
              aria-current={current ? "true" : undefined}
              className={`grid grid-cols-[4rem_1fr_3rem] items-center gap-3 rounded-lg px-2 py-1.5 text-sm hover:bg-slate-100 dark:hover:bg-slate-800 ${
                current ? "bg-brand-50 font-semibold ring-1 ring-brand-600/40 dark:bg-slate-800 dark:ring-brand-300/40" : ""
              }`}
            >
              <span className="text-slate-800 dark:text-slate-200">
                {stars} {stars === 1 ? "star" : "stars"}
                <span className="sr-only">
                  : {count} {count === 1 ? "review" : "reviews"}, {percent}%
                </span>
              </span>
              <span aria-hidden="true" className="h-2.5 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700">
                <span className="block h-full rounded-full bg-amber-500 dark:bg-amber-400" style={{ width: `${percent}%` }} />
              </span>
              <span aria-hidden="true" className="text-right tabular-nums text-slate-600 dark:text-slate-400">
                {count}
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
