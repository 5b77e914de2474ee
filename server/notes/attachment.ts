import type { Catalog, Lesson } from "../catalog/index.ts";
import type { Db } from "../db/client.ts";
import { Forbidden, NotFound } from "../errors.ts";
import { allLessons, courseState, findCourse, lessonAccess } from "../learning/player.ts";
import type { NoteLesson } from "../../common/view-types.ts";

export type { NoteLesson } from "../../common/view-types.ts";

/** The lesson a note is attached to, when the learner may open it: enrolled, or a free preview. */
export async function accessibleLesson(db: Db, catalog: Catalog, userId: string, courseId: string, lessonId: string): Promise<Lesson> {
  const course = findCourse(catalog, courseId);
  const lesson = allLessons(course).find((l) => l.id === lessonId);
  if (!lesson) throw new NotFound("We could not find that lesson.");
  if (lessonAccess(await courseState(db, course, userId), lesson) === "locked") {
    throw new Forbidden("Enrol in this course to keep notes on this lesson.");
  }
  return lesson;
}

/** What a note's lesson is called today, or null when it is not attached or the lesson is no longer in the catalogue. */
export function describeNoteLesson(catalog: Catalog, note: { courseId: string | null; lessonId: string | null }): NoteLesson | null {
  if (!note.courseId || !note.lessonId) return null;
  const course = catalog.courses.find((c) => c.id === note.courseId);
  const lesson = course && allLessons(course).find((l) => l.id === note.lessonId);
  if (!course || !lesson) return null;
  return { courseId: course.id, courseTitle: course.title, lessonId: lesson.id, lessonTitle: lesson.title };
}
