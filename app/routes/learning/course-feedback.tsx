import { data, Link, useNavigation } from "react-router";
import { courseOffSale, coursesOnSale } from "../../../server/catalog/index.ts";
import { appServices, viewerContext } from "../../../server/context.ts";
import { z } from "zod";
import { formatDay } from "../../../common/format.ts";
import { replyFor, type FormReply } from "../../../common/forms.ts";
import {
  courseRating,
  deleteReview,
  InvalidReview,
  listReviews,
  maxCommentLength,
  reviewerStanding,
  reviewsPerPage,
  saveReview,
  type SaveOutcome,
} from "../../../server/feedback/index.ts";
import { BackLink } from "../../components/back-link.tsx";
import { DeleteReviewDialog } from "../../components/feedback/delete-review-dialog.tsx";
import { RatingHistogram } from "../../components/feedback/rating-histogram.tsx";
import { ReviewCard } from "../../components/feedback/review-card.tsx";
import { ReviewForm } from "../../components/feedback/review-form.tsx";
import { ratingText, reviewCount, Stars } from "../../components/feedback/stars.tsx";
import { FormAlert } from "../../components/form-alert.tsx";
import { StarIcon } from "../../components/icons.tsx";
import { Container, PageIntro } from "../../components/page-intro.tsx";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/course-feedback";
import { ButtonLink } from "../../components/ui/button.tsx";
import { cardClass } from "../../components/ui/card.tsx";
import { attemptFor, readForm, refuse, succeed } from "../forms.server.ts";

/** Query values that are not a star count or a page number are ignored, as if absent. */
function listFilter(params: URLSearchParams): { rating: number | null; page: number } {
  const rating = params.get("rating") ?? "";
  const page = params.get("page") ?? "";
  return { rating: /^[1-5]$/.test(rating) ? Number(rating) : null, page: /^[1-9]\d{0,5}$/.test(page) ? Number(page) : 1 };
}

export async function loader({ params, url, context }: Route.LoaderArgs) {
  const { catalog, db, cipher } = context.get(appServices);
  const viewer = context.get(viewerContext);
  const course = catalog.courses.find((c) => c.id === params.courseId);
  if (!course) throw data(null, { status: 404 });
  const { rating, page } = listFilter(url.searchParams);
  const [summary, reviews, standing, onSale] = await Promise.all([
    courseRating(db, course.id),
    listReviews(db, cipher, { courseId: course.id, rating, page }),
    viewer ? reviewerStanding(db, viewer.id, course.id) : null,
    coursesOnSale(db),
  ]);
  // Off sale, its reviews stay for those who have it (and may still write one).
  if (!onSale.has(course.id) && standing?.enrolment !== "active") throw data({ message: courseOffSale }, { status: 410 });
  const matching = rating ? (summary.histogram.find((h) => h.stars === rating)?.count ?? 0) : summary.count;
  return {
    course: { id: course.id, title: course.title },
    summary,
    reviews,
    rating,
    page,
    perPage: reviewsPerPage,
    pageCount: Math.max(1, Math.ceil(matching / reviewsPerPage)),
    matching,
    standing,
    maxCommentLength,
  };
}

export const meta: Route.MetaFunction = (args) =>
  args.loaderData
    ? pageMeta(args, {
        title: `Feedback for ${args.loaderData.course.title}${args.loaderData.page > 1 ? ` (page ${args.loaderData.page})` : ""}`,
        description: `What learners say about ${args.loaderData.course.title}: ratings and reviews from verified learners.`,
      })
    : [];

const saved: Record<SaveOutcome, string> = {
  created: "Thank you. Your review is posted.",
  updated: "Your review was updated.",
  unchanged: "Your review is saved; nothing had changed.",
};

// The rating and comment are checked by saveReview, for every caller, with a message per field.
const feedbackForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("save"), rating: z.string().optional(), comment: z.string().optional() }),
  z.object({ intent: z.literal("delete") }),
]);

export async function action({ params, request, context }: Route.ActionArgs) {
  const { catalog, db } = context.get(appServices);
  const viewer = context.get(viewerContext);
  if (!catalog.courses.some((c) => c.id === params.courseId)) throw data(null, { status: 404 });
  const form = await readForm(request, feedbackForm);
  if (!form.ok) return form.reply;
  if (!viewer) return refuse(form, { status: 403, message: "Sign in to leave feedback." });
  const input = form.value;
  switch (input.intent) {
    case "delete":
      await deleteReview(db, viewer.id, params.courseId);
      return succeed(form, "Your review was deleted.");
    case "save": {
      const outcome = await attemptFor(
        form,
        () => saveReview(db, catalog, viewer.id, params.courseId, { rating: input.rating, comment: input.comment }),
        (error) => (error instanceof InvalidReview ? { message: "Your review was not saved. Please fix what is marked below.", fieldErrors: error.errors } : undefined),
      );
      return outcome.ok ? succeed(form, saved[outcome.value]) : outcome.reply;
    }
  }
}

type LoaderData = Route.ComponentProps["loaderData"];

function pageLink(filter: { rating: number | null; page: number }): string {
  const query = new URLSearchParams();
  if (filter.rating) query.set("rating", String(filter.rating));
  if (filter.page > 1) query.set("page", String(filter.page));
  const text = query.toString();
  return text ? `?${text}` : ".";
}

function YourReview({ loaderData, actionData }: { loaderData: LoaderData; actionData: FormReply | undefined }) {
  const { course, standing } = loaderData;
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  const signIn = `/login?redirectTo=${encodeURIComponent(`/course/${course.id}/feedback#your-review`)}`;
  const failed = replyFor(actionData, "save");
  const review = standing?.review ?? null;

  let body;
  if (!standing) {
    body = (
      <p className="text-slate-700 dark:text-slate-300">
        Took this course?{" "}
        <Link to={signIn} className="font-semibold text-brand-700 underline underline-offset-2 dark:text-brand-300">
          Sign in to leave feedback
        </Link>
        .
      </p>
    );
  } else if (standing.enrolment === "active") {
    body = (
      <ReviewForm
        // A saved or deleted review starts the form afresh from what is stored.
        key={review?.updatedAt ?? "new"}
        initial={failed && !failed.ok ? failed.values : { rating: String(review?.rating ?? ""), comment: review?.comment ?? "" }}
        errors={failed?.fieldErrors}
        maxLength={loaderData.maxCommentLength}
        existing={review !== null}
        pending={busy("save")}
      />
    );
  } else {
    body = (
      <div className="space-y-3 text-slate-700 dark:text-slate-300">
        <p>
          {standing.enrolment === "revoked"
            ? "Your access to this course ended with its refund, so you cannot review it any more."
            : "Only learners enrolled in this course can review it, so every review here comes from someone who took it."}
        </p>
        {review && !review.hidden && <p>Your earlier review ({review.rating} out of 5) stays up until you delete it.</p>}
        {standing.enrolment === "none" && (
          <Link to={`/course/${course.id}`} className="inline-block font-semibold text-brand-700 underline underline-offset-2 dark:text-brand-300">
            See the course and how to enrol
          </Link>
        )}
      </div>
    );
  }

  return (
    <section id="your-review" aria-labelledby="your-review-heading" className={cardClass({ className: "scroll-mt-24 p-6" })}>
      <h2 id="your-review-heading" className="text-xl font-semibold text-slate-950 dark:text-white">
        Your review
      </h2>
      {actionData?.message && (
        <div className="mt-4">
          <FormAlert tone={actionData.ok ? "success" : "error"}>{actionData.message}</FormAlert>
        </div>
      )}
      {review?.hidden && (
        <div className="mt-4">
          <FormAlert tone="info">
            We hid your review from this page on {formatDay(review.hidden.at)}: {review.hidden.reason} It does not count towards the course&apos;s rating. You can still change or delete it;
            if you think we got it wrong, reply to any of our mails.
          </FormAlert>
        </div>
      )}
      <div className="mt-4">{body}</div>
      {review && (
        <div className="mt-4 border-t border-slate-200 pt-4 dark:border-slate-800">
          <DeleteReviewDialog courseTitle={course.title} pending={busy("delete")} />
        </div>
      )}
    </section>
  );
}

function ReviewList({ loaderData }: { loaderData: LoaderData }) {
  const { reviews, rating, page, perPage, pageCount, matching, summary } = loaderData;
  const showAll = (
    <Link to="." preventScrollReset className="font-semibold text-brand-700 underline underline-offset-2 dark:text-brand-300">
      Show all reviews
    </Link>
  );
  if (matching === 0) {
    return (
      <div className="rounded-2xl border border-dashed border-slate-300 px-6 py-10 text-center dark:border-slate-700">
        <p className="font-semibold text-slate-950 dark:text-white">No {rating}-star reviews yet.</p>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          {reviewCount(summary.count)} in all. {showAll}
        </p>
      </div>
    );
  }
  if (reviews.length === 0) {
    return (
      <div className="rounded-2xl border border-dashed border-slate-300 px-6 py-10 text-center dark:border-slate-700">
        <p className="font-semibold text-slate-950 dark:text-white">There is no page {page} of these reviews.</p>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          They fit on {pageCount} {pageCount === 1 ? "page" : "pages"}.{" "}
          <Link to={pageLink({ rating, page: pageCount })} className="font-semibold text-brand-700 underline underline-offset-2 dark:text-brand-300">
            Go to the last page
          </Link>
        </p>
      </div>
    );
  }
  const first = (page - 1) * perPage + 1;
  return (
    <>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Showing {first}–{first + reviews.length - 1} of {reviewCount(matching)}
        {rating && ` with ${rating} ${rating === 1 ? "star" : "stars"}`}, newest first.
        {rating && <> {showAll}</>}
      </p>
      <ul className="mt-4 space-y-4">
        {reviews.map((review) => (
          <li key={review.id}>
            <ReviewCard review={review} />
          </li>
        ))}
      </ul>
      {pageCount > 1 && (
        <nav aria-label="Pages of reviews" className="mt-6 flex items-center justify-between gap-4 text-sm">
          {page > 1 ? (
            <ButtonLink to={pageLink({ rating, page: page - 1 })} variant="secondary" size="sm">
              ← Newer reviews
            </ButtonLink>
          ) : (
            <span />
          )}
          <span className="text-slate-600 dark:text-slate-400">
            Page {page} of {pageCount}
          </span>
          {page < pageCount ? (
            <ButtonLink to={pageLink({ rating, page: page + 1 })} variant="secondary" size="sm">
              Older reviews →
            </ButtonLink>
          ) : (
            <span />
          )}
        </nav>
      )}
    </>
  );
}

export default function CourseFeedbackPage({ loaderData, actionData }: Route.ComponentProps) {
  const { course, summary, rating, standing } = loaderData;
  const yourReview = <YourReview loaderData={loaderData} actionData={actionData} />;
  return (
    <Container className="py-12 sm:py-16">
      <BackLink fallback={`/course/${course.id}`} label={`Back to ${course.title}`} />
      <div className="mt-6">
        <PageIntro eyebrow="Learner feedback" title={course.title} />
      </div>
      {summary.count === 0 ? (
        <div className="mt-10 max-w-3xl space-y-8">
          <div className="flex flex-col items-center rounded-2xl border border-dashed border-slate-300 px-6 py-14 text-center dark:border-slate-700">
            <StarIcon className="size-10 text-amber-500" />
            <h2 className="mt-4 text-xl font-semibold text-slate-950 dark:text-white">No feedback yet</h2>
            <p className="mt-2 max-w-md text-slate-600 dark:text-slate-400">
              Reviews appear here once learners enrolled in this course share their rating. Only verified learners can
              leave feedback, so every review you read here comes from someone who took the course.
            </p>
            <ButtonLink
              to={standing?.enrolment === "active" ? "#your-review" : `/course/${course.id}`}
              className="mt-6"
            >
              {standing?.enrolment === "active" ? "Be the first to review it" : "See the course"}
            </ButtonLink>
          </div>
          {yourReview}
        </div>
      ) : (
        <div className="mt-10 grid gap-10 lg:grid-cols-[22rem_1fr]">
          <div className="space-y-8">
            <section aria-labelledby="rating-heading">
              <h2 id="rating-heading" className="sr-only">
                Rating
              </h2>
              <div className="flex items-center gap-4">
                <p className="text-5xl font-bold text-slate-950 dark:text-white" aria-hidden="true">
                  {summary.average.toFixed(1)}
                </p>
                <div>
                  <Stars rating={summary.average} className="size-5" />
                  <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
                    <span className="sr-only">{ratingText(summary)}</span>
                    <span aria-hidden="true">{reviewCount(summary.count)}</span>
                  </p>
                </div>
              </div>
              <div className="mt-6">
                <RatingHistogram histogram={summary.histogram} total={summary.count} selected={rating} />
              </div>
            </section>
            {yourReview}
          </div>
          <section aria-labelledby="reviews-heading" className="min-w-0">
            <h2 id="reviews-heading" className="text-xl font-semibold text-slate-950 dark:text-white">
              {rating ? `${rating}-star reviews` : "All reviews"}
            </h2>
            <div className="mt-3">
              <ReviewList loaderData={loaderData} />
            </div>
          </section>
        </div>
      )}
    </Container>
  );
}
