import { StarIcon } from "../icons.tsx";

const five = [1, 2, 3, 4, 5];

/** Five stars filled up to `rating` (fractions too); decorative, so callers always say the rating in words. */
export function Stars({ rating, className = "size-4" }: { rating: number; className?: string }) {
  const row = (tone: string) => (
    <span className={`flex ${tone}`}>
      {five.map((n) => (
        <StarIcon key={n} fill="currentColor" strokeWidth={1.2} className={`shrink-0 ${className}`} />
      ))}
    </span>
  );
  return (
    <span aria-hidden="true" className="relative inline-flex shrink-0">
      {row("text-slate-300 dark:text-slate-600")}
      <span className="absolute inset-y-0 left-0 overflow-hidden" style={{ width: `${(Math.min(Math.max(rating, 0), 5) / 5) * 100}%` }}>
        {row("text-amber-500 dark:text-amber-400")}
      </span>
    </span>
  );
}

/** "Rated 4.5 out of 5 from 12 reviews", as a screen reader hears a course's rating. */
export function ratingText(summary: { average: number; count: number }): string {
  return `Rated ${summary.average.toFixed(1)} out of 5 from ${reviewCount(summary.count)}`;
}

/** The course page's link to every review: "See all 12 reviews", but not "See all 1 review". */
export function allReviewsLink(count: number): string {
  return count === 1 ? "Go to the feedback page" : `See all ${reviewCount(count)}`;
}

export function reviewCount(count: number): string {
  return `${count.toLocaleString("en-IN")} ${count === 1 ? "review" : "reviews"}`;
}
