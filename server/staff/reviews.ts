import { and, desc, eq, isNotNull, isNull, type SQL } from "drizzle-orm";
import { reviewReplyLength, staffReasonLength } from "../../common/staff.ts";
import type { Db } from "../db/client.ts";
import { feedback, user } from "../db/schema.ts";
import { NotFound, ValidationError } from "../errors.ts";
import { recordAudit, type Actor } from "./audit.ts";
import { olderThan, toTheMillisecond, type TimeCursor } from "./pages.ts";

export const staffReviewPageSize = 30;

const writtenAt = toTheMillisecond(feedback.createdAt);

export interface StaffReview {
  id: string;
  courseId: string;
  rating: number;
  comment: string;
  createdAt: Date;
  updatedAt: Date;
  /** The account's name and e-mail, for staff: the public page shows "Lata S.". */
  author: { id: string; name: string; email: string };
  hidden: { at: Date; reason: string } | null;
  reply: { text: string; at: Date } | null;
}

export interface StaffReviewFilter {
  state?: "shown" | "hidden";
  courseId?: string;
  rating?: number;
  /** Reviews written before this one (its time and id), for the next page. */
  before?: TimeCursor;
}

/** Reviews newest first, with their author, whether they are hidden and the company's reply. */
export async function listStaffReviews(db: Db, filter: StaffReviewFilter = {}): Promise<{ reviews: StaffReview[]; next: TimeCursor | null }> {
  const conditions: (SQL | undefined)[] = [
    filter.state === "hidden" ? isNotNull(feedback.hiddenAt) : filter.state === "shown" ? isNull(feedback.hiddenAt) : undefined,
    filter.courseId ? eq(feedback.courseId, filter.courseId) : undefined,
    filter.rating ? eq(feedback.rating, filter.rating) : undefined,
    filter.before ? olderThan(writtenAt, feedback.id, filter.before) : undefined,
  ];
  const rows = await db
    .select({ review: feedback, name: user.name, email: user.email })
    .from(feedback)
    .innerJoin(user, eq(user.id, feedback.userId))
    .where(and(...conditions))
    .orderBy(desc(writtenAt), desc(feedback.id))
    .limit(staffReviewPageSize + 1);
  const reviews = rows.slice(0, staffReviewPageSize).map(({ review, name, email }) => ({
    id: review.id,
    courseId: review.courseId,
    rating: review.rating,
    comment: review.comment,
    createdAt: review.createdAt,
    updatedAt: review.updatedAt,
    author: { id: review.userId, name, email },
    hidden: review.hiddenAt ? { at: review.hiddenAt, reason: review.hiddenReason ?? "" } : null,
    reply: review.reply && review.repliedAt ? { text: review.reply, at: review.repliedAt } : null,
  }));
  const last = reviews.at(-1);
  return { reviews, next: rows.length > staffReviewPageSize && last ? { createdAt: last.createdAt, id: last.id } : null };
}

/** `text` trimmed, within `length`, or a ValidationError that says what `what` must be. */
function bounded(text: string, length: { min: number; max: number }, what: string): string {
  const trimmed = text.trim();
  if (trimmed.length < length.min || trimmed.length > length.max) throw new ValidationError(`${what} must be ${length.min} to ${length.max} characters long.`);
  return trimmed;
}

export type ReviewModeration = { action: "hide" | "restore"; reason: string } | { action: "reply"; text: string };

/**
 * Hides a review from the public page and the rating, shows it again, or sets the company's public
 * reply (an empty reply removes it); each written to the audit log with what it was before.
 * Hiding a hidden review, or showing a shown one, changes nothing and writes nothing.
 */
export async function moderateReview(db: Db, actor: Actor, reviewId: string, change: ReviewModeration): Promise<string> {
  return db.transaction(async (tx) => {
    const [review] = await tx.select().from(feedback).where(eq(feedback.id, reviewId)).for("update");
    if (!review) throw new NotFound("No review has this id: its author may have deleted it.");
    const subject = { kind: "review", id: review.id };
    const now = new Date();
    switch (change.action) {
      case "hide": {
        const reason = bounded(change.reason, staffReasonLength, "The reason, which its author reads,");
        if (review.hiddenAt) return "This review is hidden already.";
        await tx.update(feedback).set({ hiddenAt: now, hiddenReason: reason }).where(eq(feedback.id, review.id));
        await recordAudit(tx, actor, { action: "review.hide", subject, before: { hidden: false }, after: { hidden: true }, reason });
        return "Hidden. It leaves the course's page and rating within a minute, and its author sees why.";
      }
      case "restore": {
        const reason = bounded(change.reason, staffReasonLength, "The reason");
        if (!review.hiddenAt) return "This review is shown already.";
        await tx.update(feedback).set({ hiddenAt: null, hiddenReason: null }).where(eq(feedback.id, review.id));
        await recordAudit(tx, actor, { action: "review.restore", subject, before: { hidden: true, reason: review.hiddenReason }, after: { hidden: false }, reason });
        return "Shown again on the course's page, within a minute.";
      }
      case "reply": {
        const text = change.text.trim() === "" ? null : bounded(change.text, reviewReplyLength, "A reply");
        if (text === review.reply) return "The reply is unchanged.";
        await tx.update(feedback).set({ reply: text, repliedAt: text === null ? null : now }).where(eq(feedback.id, review.id));
        await recordAudit(tx, actor, { action: "review.reply", subject, before: { reply: review.reply }, after: { reply: text } });
        return text === null ? "The reply is removed." : "Replied. The reply shows under the review on the course's page.";
      }
    }
  });
}
