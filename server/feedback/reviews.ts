import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Catalog } from "../catalog/index.ts";
import type { Db } from "../db/client.ts";
import { enrolments, feedback } from "../db/schema.ts";
import { Forbidden, NotFound, ValidationError } from "../errors.ts";

export const maxCommentLength = 2000;

const ratingMessage = "Choose a rating: a whole number of stars from 1 to 5.";
const commentMessage = "Write a few words about the course: the comment cannot be empty.";

/** A review says something: "ok" or "good" alone tells the next learner nothing. */
export const minCommentWords = 3;
const wordCount = (text: string) => text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;

const reviewSchema = z.object({
  rating: z.coerce
    .number({ error: ratingMessage })
    .int({ error: ratingMessage })
    .min(1, { error: ratingMessage })
    .max(5, { error: ratingMessage }),
  comment: z
    .string({ error: commentMessage })
    .trim()
    .min(1, { error: commentMessage })
    .max(maxCommentLength, {
      error: (issue) =>
        `Keep your comment to ${maxCommentLength.toLocaleString("en-IN")} characters or fewer; it has ${(issue.input as string).length.toLocaleString("en-IN")}.`,
    })
    .refine((comment) => comment === "" || wordCount(comment) >= minCommentWords, {
      error: `Tell other learners a little more: a review needs at least ${minCommentWords} words. What did you learn, and who would you recommend it to?`,
    }),
});

export type ReviewInput = z.infer<typeof reviewSchema>;
export type ReviewFieldErrors = Partial<Record<keyof ReviewInput, string>>;

/** A review that failed its checks; each bad field has its own message. */
export class InvalidReview extends ValidationError {
  readonly errors: ReviewFieldErrors;
  constructor(errors: ReviewFieldErrors) {
    super(Object.values(errors).join(" "));
    this.errors = errors;
  }
}

function parseReview(input: { rating?: unknown; comment?: unknown }): ReviewInput {
  const parsed = reviewSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const errors: ReviewFieldErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as keyof ReviewInput;
    errors[field] ??= issue.message;
  }
  throw new InvalidReview(errors);
}

export type SaveOutcome = "created" | "updated" | "unchanged";

/**
 * Writes the learner's one review of a course: the first submit creates it, later ones change it,
 * and a resubmit of the same form changes nothing. Only a learner with an active enrolment may
 * write; bad input is refused (InvalidReview) before anything is written.
 */
export async function saveReview(
  db: Db,
  catalog: Pick<Catalog, "courses">,
  userId: string,
  courseId: string,
  input: { rating?: unknown; comment?: unknown },
): Promise<SaveOutcome> {
  if (!catalog.courses.some((c) => c.id === courseId)) throw new NotFound("We could not find that course.");
  return db.transaction(async (tx) => {
    const [enrolment] = await tx
      .select({ id: enrolments.id })
      .from(enrolments)
      .where(and(eq(enrolments.userId, userId), eq(enrolments.courseId, courseId), eq(enrolments.status, "active")))
      .for("share");
    if (!enrolment) throw new Forbidden("Only learners enrolled in this course can review it.");
    const { rating, comment } = parseReview(input);
    const [row] = await tx
      .insert(feedback)
      .values({ userId, courseId, rating, comment })
      .onConflictDoUpdate({
        target: [feedback.userId, feedback.courseId],
        set: { rating, comment, updatedAt: sql`now()` },
        setWhere: sql`(${feedback.rating}, ${feedback.comment}) is distinct from (excluded.rating, excluded.comment)`,
      })
      // xmax is 0 only on a row this statement inserted rather than updated.
      .returning({ inserted: sql<boolean>`xmax = 0` });
    if (!row) return "unchanged";
    return row.inserted ? "created" : "updated";
  });
}

/**
 * Removes the learner's own review of a course, if there is one; true when one was removed. Anyone
 * may take back what they wrote, enrolled or not any more.
 */
export async function deleteReview(db: Db, userId: string, courseId: string): Promise<boolean> {
  const removed = await db
    .delete(feedback)
    .where(and(eq(feedback.userId, userId), eq(feedback.courseId, courseId)))
    .returning({ id: feedback.id });
  return removed.length > 0;
}
