import { and, eq, isNull, sql } from "drizzle-orm";
import { courseStats, coursesOnSale, courseWithdrawal, noStats, setCourseOnSale, type Catalog, type Course } from "../catalog/index.ts";
import type { Db } from "../db/client.ts";
import { certificates, enrolments, lessonProgress } from "../db/schema.ts";
import { NotFound } from "../errors.ts";
import { recordAudit, stateReason, type Actor } from "./audit.ts";

export interface CourseFigures {
  id: string;
  title: string;
  /** In the catalogue and for sale; false once staff took it off sale. */
  onSale: boolean;
  /** People who may open it now: bought or given, not refunded. */
  learners: number;
  /** People whose course was taken back by a refund. */
  refunded: number;
  /** Certificates issued and not withdrawn: learners who finished it. */
  completions: number;
  /** The average of the reviews the public sees, or null when there are none. */
  rating: number | null;
  reviewCount: number;
}

/** Every course in the catalogue with its learners, completions and rating, in three grouped queries. */
export async function courseFigures(db: Db, catalog: Pick<Catalog, "courses">): Promise<CourseFigures[]> {
  const [stats, refundedRows, completionRows, onSale] = await Promise.all([
    courseStats(db),
    db.select({ courseId: enrolments.courseId, n: sql<number>`count(*)::int` }).from(enrolments).where(eq(enrolments.status, "revoked")).groupBy(enrolments.courseId),
    db.select({ courseId: certificates.courseId, n: sql<number>`count(*)::int` }).from(certificates).where(isNull(certificates.revokedAt)).groupBy(certificates.courseId),
    coursesOnSale(db),
  ]);
  const refunded = new Map(refundedRows.map((row) => [row.courseId, row.n]));
  const completed = new Map(completionRows.map((row) => [row.courseId, row.n]));
  return catalog.courses.map((course) => {
    const { learners, reviewCount, rating } = stats.get(course.id) ?? noStats;
    return {
      id: course.id,
      title: course.title,
      onSale: onSale.has(course.id),
      learners,
      refunded: refunded.get(course.id) ?? 0,
      completions: completed.get(course.id) ?? 0,
      rating,
      reviewCount,
    };
  });
}

/**
 * Takes a course off sale or puts it back (the content role), with the reason in the audit log.
 * Off sale, it leaves the catalogue, its search, the home page, the sitemap and checkout; people who
 * have it keep it. Asking for the state it is in already changes nothing and writes nothing.
 */
export async function setCoursePublished(db: Db, actor: Actor, catalog: Pick<Catalog, "courses">, courseId: string, change: { publish: boolean; reason: string }): Promise<string> {
  if (!catalog.courses.some((course) => course.id === courseId)) throw new NotFound("No course in the catalogue has this id.");
  const reason = stateReason(change.reason, change.publish ? "why the course goes back on sale" : "why the course comes off sale");
  return db.transaction(async (tx) => {
    const withdrawn = await courseWithdrawal(tx, courseId);
    const changed = await setCourseOnSale(tx, courseId, change.publish ? { onSale: true } : { onSale: false, reason, at: new Date() });
    if (!changed) return change.publish ? "This course is on sale already." : "This course is off sale already.";
    await recordAudit(tx, actor, {
      action: change.publish ? "course.publish" : "course.unpublish",
      subject: { kind: "course", id: courseId },
      before: withdrawn ? { onSale: false, reason: withdrawn.reason } : { onSale: true },
      after: { onSale: change.publish },
      reason,
    });
    return change.publish
      ? "Published. It is back in the catalogue and on sale; visitors see it within a minute."
      : "Unpublished. It leaves the catalogue, search and sitemap within a minute; people who have it keep it.";
  });
}

export interface ModuleReach {
  title: string;
  lessons: number;
  /** Learners (who may open the course now) who completed at least one of its lessons. */
  reached: number;
}

/**
 * Where learners drop off: for each module of the course, in order, how many of the people who may
 * open it now completed at least one of its lessons. One grouped query over the course's progress.
 */
export async function courseReach(db: Db, course: Pick<Course, "id" | "modules">): Promise<{ learners: number; modules: ModuleReach[] }> {
  const lessonModules = course.modules.flatMap((module, index) => module.lessons.map((lesson) => sql`(${lesson.id}, ${index}::int)`));
  const active = and(eq(enrolments.userId, lessonProgress.userId), eq(enrolments.courseId, lessonProgress.courseId), eq(enrolments.status, "active"));
  const [[learners], rows] = await Promise.all([
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(enrolments)
      .where(and(eq(enrolments.courseId, course.id), eq(enrolments.status, "active"))),
    lessonModules.length === 0
      ? Promise.resolve([])
      : db
          .select({ module: sql<number>`lesson_module.module`, reached: sql<number>`count(distinct ${lessonProgress.userId})::int` })
          .from(lessonProgress)
          .innerJoin(enrolments, active)
          .innerJoin(sql`(values ${sql.join(lessonModules, sql`, `)}) as lesson_module (lesson_id, module)`, sql`lesson_module.lesson_id = ${lessonProgress.lessonId}`)
          .where(eq(lessonProgress.courseId, course.id))
          .groupBy(sql`lesson_module.module`),
  ]);
  const reachedIn = new Map(rows.map((row) => [Number(row.module), row.reached]));
  return {
    learners: learners?.n ?? 0,
    modules: course.modules.map((module, index) => ({ title: module.title, lessons: module.lessons.length, reached: reachedIn.get(index) ?? 0 })),
  };
}
