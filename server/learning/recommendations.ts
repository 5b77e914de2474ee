import { and, eq } from "drizzle-orm";
import { coursesOnSale, type Catalog, type Course } from "../catalog/index.ts";
import type { Db } from "../db/client.ts";
import { enrolments } from "../db/schema.ts";

/**
 * Up to `count` courses to take after `finished`, those of its category first. A course counts as
 * the learner's only while its enrolment is active: one refunded (revoked) is recommended again.
 * Only courses on sale are recommended.
 */
export async function recommendedCourses(db: Db, catalog: Catalog, userId: string, finished: Course, count = 3): Promise<Course[]> {
  const [held, onSale] = await Promise.all([
    db
      .select({ courseId: enrolments.courseId })
      .from(enrolments)
      .where(and(eq(enrolments.userId, userId), eq(enrolments.status, "active"))),
    coursesOnSale(db),
  ]);
  const owned = new Set([finished.id, ...held.map((e) => e.courseId)]);
  return onSale
    .of(catalog.courses)
    .filter((c) => !owned.has(c.id))
    .toSorted((a, b) => Number(b.category === finished.category) - Number(a.category === finished.category))
    .slice(0, count);
}
