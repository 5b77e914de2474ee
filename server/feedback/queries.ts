import { and, desc, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import type { Catalog } from "../catalog/index.ts";
import { decryptFields, type FieldCipher } from "../crypto/field-encryption.ts";
import type { Db } from "../db/client.ts";
import { preparedStatement } from "../db/prepared.ts";
import type { SharedReads } from "../db/shared-reads.ts";
import { enrolments, feedback, user, users } from "../db/schema.ts";
import type { Review } from "../../common/view-types.ts";

export type { Review } from "../../common/view-types.ts";

export const reviewsPerPage = 10;

/** What a comment needs to be featured on the home page: more than a word or two. */
const featuredMinLength = 40;

export interface RatingSummary {
  count: number;
  /** Rounded to one decimal; 0 when there are no reviews. */
  average: number;
  /** Reviews per number of stars, from 5 down to 1. */
  histogram: { stars: number; count: number }[];
}

/** Reviews the public sees: not hidden by staff. */
export const shown = isNull(feedback.hiddenAt);

const starCount = (n: number) => sql<number>`(count(*) filter (where ${feedback.rating} = ${n}))::int`;

const ratingOfCourse = preparedStatement((db) =>
  db
    .select({
      count: sql<number>`count(*)::int`,
      average: sql<number | null>`avg(${feedback.rating})::float8`,
      s5: starCount(5),
      s4: starCount(4),
      s3: starCount(3),
      s2: starCount(2),
      s1: starCount(1),
    })
    .from(feedback)
    .where(and(eq(feedback.courseId, sql.placeholder("courseId")), shown))
    .prepare("course_rating"),
);

/** Count, average and per-star counts of one course's reviews, in one query. */
export async function courseRating(db: Db, courseId: string): Promise<RatingSummary> {
  const [row] = await ratingOfCourse(db).execute({ courseId });
  if (!row) return { count: 0, average: 0, histogram: [5, 4, 3, 2, 1].map((n) => ({ stars: n, count: 0 })) };
  return {
    count: row.count,
    average: row.average === null ? 0 : Math.round(row.average * 10) / 10,
    histogram: [
      { stars: 5, count: row.s5 },
      { stars: 4, count: row.s4 },
      { stars: 3, count: row.s3 },
      { stars: 2, count: row.s2 },
      { stars: 1, count: row.s1 },
    ],
  };
}

/** courseRating, kept in the process until a review changes (server/db/shared-reads.ts). */
export function sharedCourseRating(reads: SharedReads, db: Db, courseId: string): Promise<RatingSummary> {
  return reads.read(`course rating ${courseId}`, ["feedback"], () => courseRating(db, courseId));
}

/** "Lata S." from "Lata Sharma"; a single name stays as it is; no name at all reads "Academy learner". */
export function reviewerName(name: string | null | undefined): string {
  const parts = (name ?? "").trim().split(/\s+/).filter(Boolean);
  const [first] = parts;
  if (!first) return "Academy learner";
  const last = parts.length > 1 ? parts[parts.length - 1] : undefined;
  const initial = last ? Array.from(last)[0]?.toLocaleUpperCase("en-IN") : undefined;
  return initial ? `${first} ${initial}.` : first;
}

/**
 * Reviews with their reviewers' names and whether each is a verified learner, in one query: the
 * name comes from the encrypted user document, else the account, joined rather than asked per review.
 */
async function reviews(db: Db, cipher: FieldCipher, where: SQL | undefined, order: SQL[], limit: number, offset = 0): Promise<Review[]> {
  const rows = await db
    .select({
      id: feedback.id,
      courseId: feedback.courseId,
      rating: feedback.rating,
      comment: feedback.comment,
      createdAt: feedback.createdAt,
      updatedAt: feedback.updatedAt,
      reply: feedback.reply,
      repliedAt: feedback.repliedAt,
      documentName: users.name,
      accountName: user.name,
      enrolmentId: enrolments.id,
    })
    .from(feedback)
    .leftJoin(users, eq(users.uid, feedback.userId))
    .leftJoin(user, eq(user.id, feedback.userId))
    .leftJoin(
      enrolments,
      and(eq(enrolments.userId, feedback.userId), eq(enrolments.courseId, feedback.courseId), eq(enrolments.status, "active")),
    )
    .where(and(where, shown))
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  return rows.map((row) => {
    const { documentName } = decryptFields(cipher, row, ["documentName"]);
    return {
      id: row.id,
      courseId: row.courseId,
      rating: row.rating,
      comment: row.comment,
      reviewer: reviewerName(documentName?.trim() || row.accountName),
      verified: row.enrolmentId !== null,
      createdAt: row.createdAt.toISOString(),
      edited: row.updatedAt.getTime() !== row.createdAt.getTime(),
      reply: row.reply && row.repliedAt ? { text: row.reply, at: row.repliedAt.toISOString() } : null,
    };
  });
}

const newestFirst = [desc(feedback.createdAt), desc(feedback.id)];

/** One page of a course's reviews, newest first, optionally only those with a given number of stars. */
export function listReviews(
  db: Db,
  cipher: FieldCipher,
  options: { courseId: string; rating?: number | null; page?: number; perPage?: number },
): Promise<Review[]> {
  const perPage = options.perPage ?? reviewsPerPage;
  const page = options.page ?? 1;
  const where = and(eq(feedback.courseId, options.courseId), options.rating ? eq(feedback.rating, options.rating) : undefined);
  return reviews(db, cipher, where, newestFirst, perPage, (page - 1) * perPage);
}

/** What a review shown to the public is read from: a change to any of these may change what it says. */
const reviewTables = ["feedback", "users", "user", "enrolments"] as const;

/** The newest `count` reviews of a course, kept in the process until a review, a reviewer's name or an enrolment changes. */
export function sharedNewestReviews(reads: SharedReads, db: Db, cipher: FieldCipher, courseId: string, count: number): Promise<Review[]> {
  return reads.read(`newest reviews ${courseId} ${count}`, reviewTables, () => listReviews(db, cipher, { courseId, perPage: count }));
}

/** The best reviews across the catalogue: most stars, then newest, with comments of some substance. */
export function topReviews(db: Db, cipher: FieldCipher, catalog: Pick<Catalog, "courses">, limit = 3): Promise<Review[]> {
  const courseIds = catalog.courses.map((c) => c.id);
  if (courseIds.length === 0) return Promise.resolve([]);
  const where = and(inArray(feedback.courseId, courseIds), sql`char_length(${feedback.comment}) >= ${featuredMinLength}`);
  return reviews(db, cipher, where, [desc(feedback.rating), ...newestFirst], limit);
}

/** topReviews of the courses on sale (`courses`), kept like sharedNewestReviews. */
export function sharedTopReviews(reads: SharedReads, db: Db, cipher: FieldCipher, courses: Pick<Catalog, "courses">["courses"], limit = 3): Promise<Review[]> {
  const key = `top reviews ${limit} ${courses.map((c) => c.id).join(",")}`;
  return reads.read(key, reviewTables, () => topReviews(db, cipher, { courses }, limit));
}

export interface ReviewerStanding {
  /** The learner's enrolment in the course: only "active" may write. */
  enrolment: "active" | "revoked" | "none";
  review: { rating: number; comment: string; updatedAt: string; hidden: { at: string; reason: string } | null } | null;
}

/** Whether the learner may review the course, and their review if they wrote one. */
export async function reviewerStanding(db: Db, userId: string, courseId: string): Promise<ReviewerStanding> {
  const [[enrolment], [review]] = await Promise.all([
    db
      .select({ status: enrolments.status })
      .from(enrolments)
      .where(and(eq(enrolments.userId, userId), eq(enrolments.courseId, courseId))),
    db
      .select({ rating: feedback.rating, comment: feedback.comment, updatedAt: feedback.updatedAt, hiddenAt: feedback.hiddenAt, hiddenReason: feedback.hiddenReason })
      .from(feedback)
      .where(and(eq(feedback.userId, userId), eq(feedback.courseId, courseId))),
  ]);
  return {
    enrolment: enrolment?.status ?? "none",
    review: review
      ? {
          rating: review.rating,
          comment: review.comment,
          updatedAt: review.updatedAt.toISOString(),
          hidden: review.hiddenAt ? { at: review.hiddenAt.toISOString(), reason: review.hiddenReason ?? "" } : null,
        }
      : null,
  };
}
