import { and, eq, ne, sql } from "drizzle-orm";
import type { Catalog, Course, Lesson } from "../catalog/index.ts";
import type { RenderedLesson } from "../catalog/markdown.ts";
import type { Db } from "../db/client.ts";
import { preparedStatement } from "../db/prepared.ts";
import { coursePositions, enrolments, lessonProgress } from "../db/schema.ts";
import { Forbidden, NotFound } from "../errors.ts";
import { courseProgressPercent, progressPercent } from "./progress.ts";
import type { OutlineModule } from "../../common/view-types.ts";

export type { LessonState, OutlineModule } from "../../common/view-types.ts";

export type LessonAccess = "enrolled" | "preview" | "locked";

export interface CourseState {
  course: Course;
  enrolled: boolean;
  completed: Set<string>;
  percent: number;
  /** The last lesson the learner opened, if any. */
  lastLessonId: string | null;
  /** The first lesson not yet completed, in course order; null when all are done. */
  nextLessonId: string | null;
}

export function findCourse(catalog: Catalog, courseId: string): Course {
  const course = catalog.courses.find((c) => c.id === courseId);
  if (!course) throw new NotFound("We could not find that course.");
  return course;
}

export function allLessons(course: Course): Lesson[] {
  return course.modules.flatMap((m) => m.lessons);
}

const userAndCourse = { userId: sql.placeholder("userId"), courseId: sql.placeholder("courseId") };
const ofLearnerInCourse = (table: typeof enrolments | typeof lessonProgress | typeof coursePositions) =>
  sql`${table.userId} = ${userAndCourse.userId} and ${table.courseId} = ${userAndCourse.courseId}`;
/** The learner's enrolment, completed lessons and last position in the course: one round trip, as every page of the player waits on all three. */
const learnerInCourse = preparedStatement((db) =>
  db
    .select({
      enrolled: sql<boolean>`exists (select 1 from ${enrolments} where ${ofLearnerInCourse(enrolments)} and ${enrolments.status} = 'active')`,
      completed: sql<string[]>`array(select ${lessonProgress.lessonId} from ${lessonProgress} where ${ofLearnerInCourse(lessonProgress)})`,
      lastLessonId: sql<string | null>`(select ${coursePositions.lessonId} from ${coursePositions} where ${ofLearnerInCourse(coursePositions)})`,
    })
    .from(sql`(values (1)) as one`)
    .prepare("course_state"),
);

/** A learner's standing in one course: enrolment, completed lessons, where they were, what is next. */
export async function courseState(db: Db, course: Course, userId: string): Promise<CourseState> {
  const [found] = await learnerInCourse(db).execute({ userId, courseId: course.id });
  const lessons = allLessons(course);
  const ids = new Set(lessons.map((l) => l.id));
  const completed = new Set((found?.completed ?? []).filter((id) => ids.has(id)));
  const lastLessonId = found?.lastLessonId ?? null;
  return {
    course,
    enrolled: found?.enrolled === true,
    completed,
    percent: progressPercent(completed.size, course),
    lastLessonId: lastLessonId !== null && ids.has(lastLessonId) ? lastLessonId : null,
    nextLessonId: lessons.find((l) => !completed.has(l.id))?.id ?? null,
  };
}

/** A visitor's standing in a course: not enrolled, nothing completed. */
export function visitorState(course: Course): CourseState {
  const first = allLessons(course)[0];
  return { course, enrolled: false, completed: new Set(), percent: 0, lastLessonId: null, nextLessonId: first?.id ?? null };
}

/** Enrolled learners see every lesson; free previews are open to anyone, signed in or not; the rest is locked. */
export function lessonAccess(state: Pick<CourseState, "enrolled">, lesson: Pick<Lesson, "preview">): LessonAccess {
  if (state.enrolled) return "enrolled";
  return lesson.preview ? "preview" : "locked";
}

export interface LessonView {
  lesson: Lesson;
  moduleNumber: number;
  previous: Lesson | null;
  next: Lesson | null;
  access: LessonAccess;
  /** Only when access allows it. */
  body: RenderedLesson | null;
}

/** One lesson as the player shows it; the body is read only when the learner may see it. */
export function lessonView(catalog: Catalog, state: CourseState, lessonId: string): LessonView {
  const lessons = allLessons(state.course);
  const index = lessons.findIndex((l) => l.id === lessonId);
  const lesson = lessons[index];
  if (!lesson) throw new NotFound("We could not find that lesson.");
  const access = lessonAccess(state, lesson);
  return {
    lesson,
    moduleNumber: Number(lesson.id.split("-")[0]),
    previous: lessons[index - 1] ?? null,
    next: lessons[index + 1] ?? null,
    access,
    body: access === "locked" ? null : (catalog.lessonBody(state.course.id, lesson.id) ?? null),
  };
}

/** Remembers the lesson a learner opened last, for "Continue where you left off". Enrolled learners only. */
export async function recordLessonOpened(db: Db, catalog: Catalog, userId: string, courseId: string, lessonId: string): Promise<void> {
  const state = await courseState(db, findCourse(catalog, courseId), userId);
  if (!state.enrolled || !allLessons(state.course).some((l) => l.id === lessonId)) return;
  await rememberLesson(db, userId, state.course.id, lessonId);
}

/** The same for a lesson the caller knows the learner is enrolled in and the course has. */
export async function rememberLesson(db: Db, userId: string, courseId: string, lessonId: string): Promise<void> {
  await db
    .insert(coursePositions)
    .values({ userId, courseId, lessonId })
    // Opening the same lesson again writes nothing.
    .onConflictDoUpdate({ target: [coursePositions.userId, coursePositions.courseId], set: { lessonId, updatedAt: new Date() }, setWhere: ne(coursePositions.lessonId, lessonId) });
}

/**
 * Marks a lesson done, or not done; only an enrolled learner's progress counts. Returns the new state.
 * The enrolment row is locked, so a refund asked for at the same moment sees this lesson or revokes
 * access first; completing a lesson raises the enrolment's furthest progress, which un-marking
 * never lowers (learners reach this through completeLesson, which warns them first).
 */
export async function setLessonComplete(
  db: Db,
  catalog: Catalog,
  userId: string,
  courseId: string,
  lessonId: string,
  complete: boolean,
): Promise<CourseState> {
  const course = findCourse(catalog, courseId);
  const state = await courseState(db, course, userId);
  const view = lessonView(catalog, state, lessonId);
  if (view.access !== "enrolled") throw new Forbidden("Enrol in this course to keep track of your progress.");
  await db.transaction(async (tx) => {
    const [enrolment] = await tx
      .select({ id: enrolments.id })
      .from(enrolments)
      .where(and(eq(enrolments.userId, userId), eq(enrolments.courseId, course.id), eq(enrolments.status, "active")))
      .for("update");
    if (!enrolment) throw new Forbidden("Enrol in this course to keep track of your progress.");
    if (!complete) {
      await tx
        .delete(lessonProgress)
        .where(and(eq(lessonProgress.userId, userId), eq(lessonProgress.courseId, course.id), eq(lessonProgress.lessonId, lessonId)));
      return;
    }
    await tx.insert(lessonProgress).values({ userId, courseId: course.id, lessonId }).onConflictDoNothing();
    const percent = await courseProgressPercent(tx, userId, course);
    await tx
      .update(enrolments)
      .set({ furthestProgressPercent: sql`greatest(${enrolments.furthestProgressPercent}, ${percent})` })
      .where(eq(enrolments.id, enrolment.id));
  });
  return courseState(db, course, userId);
}

/** The course's modules and lessons as the player lists them, each lesson with the learner's state. */
export function courseOutline(state: CourseState): OutlineModule[] {
  return state.course.modules.map((mod, m) => ({
    number: m + 1,
    title: mod.title,
    summary: mod.summary,
    objectives: mod.objectives,
    completed: mod.lessons.filter((l) => state.completed.has(l.id)).length,
    lessons: mod.lessons.map((lesson) => ({
      id: lesson.id,
      title: lesson.title,
      minutes: lesson.minutes,
      preview: lesson.preview,
      state: state.completed.has(lesson.id)
        ? "done"
        : lessonAccess(state, lesson) === "locked"
          ? "locked"
          : lesson.id === state.lastLessonId
            ? "in-progress"
            : "todo",
    })),
  }));
}
