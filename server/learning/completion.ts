import { and, eq } from "drizzle-orm";
import type { Catalog } from "../catalog/index.ts";
import { courseBuyer, courseUse, refundEligibility } from "../commerce/refunds.ts";
import type { Db } from "../db/client.ts";
import { enrolments, orders } from "../db/schema.ts";
import { Conflict } from "../errors.ts";
import { courseState, type CourseState, findCourse, setLessonComplete } from "./player.ts";
import { progressPercent } from "./progress.ts";

/** Completing the lesson would end a refund the learner can still ask for, and they have not said they accept that. */
export class RefundLimitAhead extends Conflict {
  override name = "RefundLimitAhead";
}

/**
 * What the learner is told before completing `lessonId` would take them to the refund policy's
 * progress limit while their purchase of the course can still be refunded; null when it would not.
 */
export async function refundLimitNotice(db: Db, catalog: Catalog, userId: string, state: CourseState, lessonId: string, now: Date): Promise<string | null> {
  if (!state.enrolled || state.completed.has(lessonId)) return null;
  const policy = catalog.site.refund;
  const after = progressPercent(state.completed.size + 1, state.course);
  if (after < policy.maxProgressPercent) return null;
  const [order] = await db
    .select({ id: orders.id, courseId: orders.courseId, userId: orders.userId, status: orders.status, paidAt: orders.paidAt, amount: orders.amount })
    .from(enrolments)
    .innerJoin(orders, eq(orders.id, enrolments.orderId))
    .where(and(eq(enrolments.userId, userId), eq(enrolments.courseId, state.course.id), eq(enrolments.status, "active")));
  const bought = order && courseBuyer(order);
  if (!order || !bought) return null;
  const eligibility = refundEligibility(order, { now, use: await courseUse(db, catalog, bought, { lock: false }), policy });
  if (!eligibility.eligible) return null;
  return `Completing this lesson takes you to ${after}% of the course. Refunds are available until ${policy.maxProgressPercent}% is completed, so you could no longer ask for your money back (un-marking lessons later does not change that).`;
}

export interface CompletionOptions {
  /** The learner has been told that this completion ends their refund, and goes ahead. */
  acceptRefundLimit?: boolean;
  now: Date;
}

/**
 * The learner's own act of marking a lesson done or not done. A completion that would end a refund
 * they can still ask for is refused (RefundLimitAhead, with what to tell them) until they accept it.
 */
export async function completeLesson(
  db: Db,
  catalog: Catalog,
  userId: string,
  target: { courseId: string; lessonId: string; complete: boolean },
  options: CompletionOptions,
): Promise<CourseState> {
  const { courseId, lessonId, complete } = target;
  if (complete && !options.acceptRefundLimit) {
    const state = await courseState(db, findCourse(catalog, courseId), userId);
    const notice = await refundLimitNotice(db, catalog, userId, state, lessonId, options.now);
    if (notice) throw new RefundLimitAhead(notice);
  }
  return setLessonComplete(db, catalog, userId, courseId, lessonId, complete);
}
