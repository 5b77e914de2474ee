import { Form, Link, useNavigation } from "react-router";
import { z } from "zod";
import { formatDay, formatMoment } from "../../../common/format.ts";
import { replyFor } from "../../../common/forms.ts";
import { reviewReplyLength, staffReasonLength } from "../../../common/staff.ts";
import { appServices } from "../../../server/context.ts";
import { listStaffReviews, moderateReview, type StaffReviewFilter } from "../../../server/staff/index.ts";
import { Stars } from "../../components/feedback/stars.tsx";
import { ReplyAlert } from "../../components/form-controls.tsx";
import { StatusBadge } from "../../components/status-badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { cardClass } from "../../components/ui/card.tsx";
import { ConfirmDialog } from "../../components/ui/dialog.tsx";
import { Select, TextArea } from "../../components/ui/field.tsx";
import { attemptFor, readForm, succeed } from "../forms.server.ts";
import type { Route } from "./+types/reviews";
import { backOfficeMeta } from "./meta.ts";
import { OlderLink } from "./older-link.tsx";
import { actorFor, staffWith } from "./access.server.ts";
import { timeCursorIn, timeCursorText } from "./cursor.server.ts";
import { PageHeading } from "./page-heading.tsx";
import { Choices, FilterForm } from "./filter-form.tsx";

const states = { "": "Shown and hidden", shown: "Shown", hidden: "Hidden" } as const;
const isState = (value: string): value is "shown" | "hidden" => value === "shown" || value === "hidden";

/** Learners' reviews, newest first, to hide, show again or answer in public. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await staffWith(context, request, "reviews.moderate");
  const { db, catalog } = context.get(appServices);
  const params = new URL(request.url).searchParams;
  const state = params.get("state") ?? "";
  const rating = Number(params.get("rating"));
  const before = timeCursorIn(params);
  const filter: StaffReviewFilter = { state: isState(state) ? state : undefined, rating: Number.isInteger(rating) && rating >= 1 && rating <= 5 ? rating : undefined, before };
  const page = await listStaffReviews(db, filter);
  const titles = new Map(catalog.courses.map((course) => [course.id, course.title]));
  return {
    filter: { state: filter.state ?? "", rating: filter.rating ? String(filter.rating) : "" },
    next: timeCursorText(page.next),
    reviews: page.reviews.map(({ updatedAt, ...review }) => ({
      ...review,
      course: titles.get(review.courseId) ?? review.courseId,
      createdAt: review.createdAt.toISOString(),
      edited: updatedAt.getTime() !== review.createdAt.getTime(),
      hidden: review.hidden && { at: review.hidden.at.toISOString(), reason: review.hidden.reason },
      reply: review.reply && { text: review.reply.text, at: review.reply.at.toISOString() },
    })),
  };
}

const reviewId = z.uuid("Choose a review.");
const moderation = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("hide"), reviewId, reason: z.string() }),
    z.object({ intent: z.literal("restore"), reviewId, reason: z.string() }),
    z.object({ intent: z.literal("reply"), reviewId, text: z.string().max(reviewReplyLength.max, `Keep the reply to ${reviewReplyLength.max} characters.`) }),
  ],
  "Choose what to do with this review.",
);

/** Hide or show a review (with a reason its author reads), or set the company's reply. */
export async function action({ request, context }: Route.ActionArgs) {
  const member = await staffWith(context, request, "reviews.moderate");
  const form = await readForm(request, moderation);
  if (!form.ok) return form.reply;
  const value = form.value;
  const change = value.intent === "reply" ? { action: "reply" as const, text: value.text } : { action: value.intent, reason: value.reason };
  const done = await attemptFor(form, () => moderateReview(context.get(appServices).db, actorFor(member, request), value.reviewId, change));
  if (!done.ok) return done.reply;
  return succeed(form, done.value);
}

export const meta: Route.MetaFunction = () => backOfficeMeta("Reviews");

export default function ReviewsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { reviews, filter, next } = loaderData;
  const navigation = useNavigation();
  const sending = (intent: string, id: string) =>
    navigation.state === "submitting" && navigation.formData?.get("intent") === intent && navigation.formData.get("reviewId") === id;
  const answer = replyFor(actionData, "hide", "restore", "reply");
  return (
    <div className="space-y-6">
      <PageHeading title="Reviews" lead="What learners wrote, newest first. A hidden review leaves the course's page and rating, and its author sees that it was hidden and why." />
      <FilterForm clear={Boolean(filter.state || filter.rating) && "/admin/reviews"}>
        <Select label="Show" name="state" defaultValue={filter.state}>
          <Choices choices={Object.entries(states)} />
        </Select>
        <Select label="Stars" name="rating" defaultValue={filter.rating}>
          <Choices any="Any" choices={[5, 4, 3, 2, 1].map((stars) => [stars, String(stars)] as const)} />
        </Select>
      </FilterForm>
      <ReplyAlert reply={answer} />
      {reviews.length === 0 ? (
        <p className="text-slate-600 dark:text-slate-400">{filter.state || filter.rating ? "No reviews match these filters." : "No one has written a review yet."}</p>
      ) : (
        <ul className="space-y-4" aria-label="Reviews">
          {reviews.map((review) => (
            <li key={review.id} className={cardClass({ className: "space-y-3 p-5" })} aria-label={`Review by ${review.author.name}`}>
              <div className="flex flex-wrap items-center gap-3">
                <Stars rating={review.rating} />
                <span className="sr-only">{review.rating} out of 5 stars</span>
                {review.hidden ? <StatusBadge tone="warning">Hidden</StatusBadge> : <StatusBadge tone="success">Shown</StatusBadge>}
                <span className="text-sm text-slate-600 dark:text-slate-400">{review.course}</span>
              </div>
              <p className="whitespace-pre-line break-words text-slate-800 dark:text-slate-200">{review.comment}</p>
              <p className="break-all text-sm text-slate-600 dark:text-slate-400">
                <Link to={`/admin/customers/${review.author.id}`} className="font-semibold text-brand-700 hover:underline dark:text-brand-300">
                  {review.author.name}
                </Link>{" "}
                &lt;{review.author.email}&gt; · <time dateTime={review.createdAt}>{formatDay(review.createdAt)}</time>
                {review.edited && " · edited"}
              </p>
              {review.hidden && (
                <p className="text-sm text-slate-700 dark:text-slate-300">
                  Hidden {formatMoment(review.hidden.at)}: {review.hidden.reason}
                </p>
              )}
              <div className="flex flex-wrap items-start gap-3">
                <ConfirmDialog
                  trigger={review.hidden ? "Show again…" : "Hide…"}
                  triggerStyle={{ variant: review.hidden ? "secondary" : "danger-outline", size: "sm" }}
                  title={review.hidden ? `Show ${review.author.name}'s review again?` : `Hide ${review.author.name}'s review?`}
                  fields={{ intent: review.hidden ? "restore" : "hide", reviewId: review.id }}
                  inputs={
                    <TextArea
                      label={review.hidden ? "Why (kept in the audit log)" : "Why (its author reads this)"}
                      name="reason"
                      required
                      minLength={staffReasonLength.min}
                      maxLength={staffReasonLength.max}
                      rows={3}
                    />
                  }
                  confirmLabel={review.hidden ? "Show it again" : "Hide the review"}
                  pendingLabel={review.hidden ? "Showing…" : "Hiding…"}
                  pending={sending(review.hidden ? "restore" : "hide", review.id)}
                >
                  {review.hidden
                    ? "It comes back on the course's page and counts towards its rating again."
                    : "It leaves the course's page and rating. Its author still sees it, with your reason, and may change or delete it."}
                </ConfirmDialog>
              </div>
              <Form method="post" preventScrollReset className="space-y-2">
                <input type="hidden" name="intent" value="reply" />
                <input type="hidden" name="reviewId" value={review.id} />
                <TextArea
                  label="Public reply"
                  hint={review.reply ? `Replied ${formatMoment(review.reply.at)}. Empty it to remove the reply.` : "Shown under the review as our reply."}
                  name="text"
                  defaultValue={review.reply?.text ?? ""}
                  maxLength={reviewReplyLength.max}
                  rows={2}
                />
                <Button type="submit" variant="secondary" size="sm" disabled={sending("reply", review.id)}>
                  {sending("reply", review.id) ? "Saving…" : "Save reply"}
                </Button>
              </Form>
            </li>
          ))}
        </ul>
      )}
      <OlderLink path="/admin/reviews" filter={filter} next={next}>Older reviews</OlderLink>
    </div>
  );
}
