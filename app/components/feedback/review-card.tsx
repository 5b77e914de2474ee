import { Link } from "react-router";
import type { Review } from "../../../common/view-types.ts";
import { formatDay } from "../../../common/format.ts";
import { Stars } from "./stars.tsx";
import { Badge } from "../ui/badge.tsx";
import { cardClass } from "../ui/card.tsx";

/** A review as a page shows it; which course it is about is the page's business. */
type ReviewView = Omit<Review, "courseId">;

/** One learner's review. The comment is plain text: React escapes it, and its line breaks are kept. */
export function ReviewCard({ review, course }: { review: ReviewView; course?: { id: string; title: string } }) {
  return (
    <article className={cardClass({ className: "flex h-full flex-col bg-white p-5 dark:bg-slate-900" })}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <Stars rating={review.rating} />
        <span className="sr-only">{review.rating} out of 5 stars</span>
        {review.verified && <Badge tone="success">Verified learner</Badge>}
      </div>
      <p className="mt-3 flex-1 whitespace-pre-line break-words leading-7 text-slate-800 dark:text-slate-200">{review.comment}</p>
      <p className="mt-4 text-sm text-slate-600 dark:text-slate-400">
        <span className="font-semibold text-slate-950 dark:text-white">{review.reviewer}</span>
        {" · "}
        <time dateTime={review.createdAt}>{formatDay(review.createdAt)}</time>
        {review.edited && " · edited"}
      </p>
      {review.reply && (
        <div className="mt-4 border-l-2 border-brand-300 pl-3 dark:border-brand-700">
          <p className="text-sm font-semibold text-slate-950 dark:text-white">
            Our reply · <time dateTime={review.reply.at}>{formatDay(review.reply.at)}</time>
          </p>
          <p className="mt-1 whitespace-pre-line break-words text-sm leading-6 text-slate-700 dark:text-slate-300">{review.reply.text}</p>
        </div>
      )}
      {course && (
        <Link
          to={`/course/${course.id}`}
          className="mt-2 text-sm font-semibold text-brand-700 hover:underline dark:text-brand-300"
        >
          {course.title}
        </Link>
      )}
    </article>
  );
}
