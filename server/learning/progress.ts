import { and, eq, inArray } from "drizzle-orm";
import type { Course } from "../catalog/index.ts";
import type { Db } from "../db/client.ts";
import { certificates, enrolments, lessonProgress } from "../db/schema.ts";

/** Lessons of each course the learner has completed, by course id; only lessons the course still has count. */
export async function completedLessons(db: Db, userId: string, courses: Course[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (courses.length === 0) return counts;
  const rows = await db
    .select({ courseId: lessonProgress.courseId, lessonId: lessonProgress.lessonId })
    .from(lessonProgress)
    .where(and(eq(lessonProgress.userId, userId), inArray(lessonProgress.courseId, courses.map((c) => c.id))));
  for (const course of courses) {
    const lessons = new Set(course.modules.flatMap((m) => m.lessons.map((l) => l.id)));
    counts.set(course.id, rows.filter((r) => r.courseId === course.id && lessons.has(r.lessonId)).length);
  }
  return counts;
}

/** Whole per cent of the course's lessons completed, rounded down (so 99.6 % is not "done"). */
export function progressPercent(completed: number, course: Pick<Course, "lessonCount">): number {
  return course.lessonCount === 0 ? 0 : Math.floor((completed * 100) / course.lessonCount);
}

export async function courseProgressPercent(db: Db, userId: string, course: Course): Promise<number> {
  const completed = (await completedLessons(db, userId, [course])).get(course.id) ?? 0;
  return progressPercent(completed, course);
}


/** What the refund policy weighs about a learner's course. */
export interface RefundStanding {
  /** The furthest progress ever reached, whatever has been un-marked since. */
  furthestPercent: number;
  /** Whether a certificate was ever issued for the course, revoked or not. */
  certificateIssued: boolean;
}

/**
 * The learner's standing in a course, for the refund policy. With `lock` (inside the refund's
 * transaction) the enrolment row is locked first, so a lesson being completed or a certificate
 * being issued at the same moment is either seen here or waits until the refund has revoked access.
 */
export async function refundStanding(tx: Db, userId: string, course: Course, options: { lock: boolean }): Promise<RefundStanding> {
  const query = tx
    .select({ furthest: enrolments.furthestProgressPercent })
    .from(enrolments)
    .where(and(eq(enrolments.userId, userId), eq(enrolments.courseId, course.id)));
  const [enrolment] = options.lock ? await query.for("update") : await query;
  const [certificate] = await tx
    .select({ id: certificates.id })
    .from(certificates)
    .where(and(eq(certificates.userId, userId), eq(certificates.courseId, course.id)))
    .limit(1);
  // Progress recorded before the high-water mark existed counts too.
  const current = await courseProgressPercent(tx, userId, course);
  return { furthestPercent: Math.max(enrolment?.furthest ?? 0, current), certificateIssued: certificate !== undefined };
}
