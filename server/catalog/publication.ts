import { eq } from "drizzle-orm";
import type { Db, Tx } from "../db/client.ts";
import { unpublishedCourses } from "../db/schema.ts";
import type { SharedReads } from "../db/shared-reads.ts";
import type { Course } from "./index.ts";

/**
 * Which courses are on sale. Staff take one off sale (issue 27): it leaves the catalogue, its search,
 * the home page, the sitemap and checkout, while whoever has it keeps it. Read from the database on
 * every use, so every process agrees at once; the table holds a row per course taken off sale.
 */
export interface OnSale {
  /** Whether `courseId` may be shown to new learners and bought. */
  has(courseId: string): boolean;
  /** `courses` without those taken off sale, in their order. */
  of<T extends Pick<Course, "id">>(courses: readonly T[]): T[];
}

/** What a visitor is told of a course taken off sale (410 Gone: search engines drop it). */
export const courseOffSale = "This course is no longer offered. Everyone who bought it keeps it in their account.";

/** What is on sale now, in one query of the (small) table of courses taken off sale. */
export async function coursesOnSale(db: Db | Tx): Promise<OnSale> {
  const rows = await db.select({ courseId: unpublishedCourses.courseId }).from(unpublishedCourses);
  const withdrawn = new Set(rows.map((row) => row.courseId));
  return {
    has: (courseId) => !withdrawn.has(courseId),
    of: (courses) => courses.filter((course) => !withdrawn.has(course.id)),
  };
}

/**
 * What is on sale, for the pages that show it: kept in the process until a course is taken off or
 * put back on sale (every process hears of it, server/db/shared-reads.ts). Checkout and the API ask
 * the database itself.
 */
export function sharedCoursesOnSale(reads: SharedReads, db: Db): Promise<OnSale> {
  return reads.read("courses on sale", ["unpublished_courses"], () => coursesOnSale(db));
}

/** When and why `courseId` was taken off sale, or null while it is on sale. */
export async function courseWithdrawal(db: Db | Tx, courseId: string): Promise<{ at: Date; reason: string } | null> {
  const [row] = await db.select().from(unpublishedCourses).where(eq(unpublishedCourses.courseId, courseId));
  return row ? { at: row.unpublishedAt, reason: row.reason } : null;
}

/**
 * Takes `courseId` off sale with `reason`, or puts it back on sale (reason null). Whether it changed
 * anything: taking off a course already off sale, or publishing one on sale, changes nothing.
 */
export async function setCourseOnSale(tx: Tx, courseId: string, change: { onSale: true } | { onSale: false; reason: string; at: Date }): Promise<boolean> {
  if (change.onSale) {
    const removed = await tx.delete(unpublishedCourses).where(eq(unpublishedCourses.courseId, courseId)).returning({ courseId: unpublishedCourses.courseId });
    return removed.length > 0;
  }
  const added = await tx
    .insert(unpublishedCourses)
    .values({ courseId, reason: change.reason, unpublishedAt: change.at })
    .onConflictDoNothing()
    .returning({ courseId: unpublishedCourses.courseId });
  return added.length > 0;
}
