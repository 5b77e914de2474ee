import { data, type RouterContextProvider } from "react-router";
import { appServices, requireViewer } from "../../server/context.ts";
import { courseOutline, courseState, findCourse } from "../../server/learning/player.ts";
import { NotFound } from "../../server/errors.ts";

/** The signed-in learner's state in the course of this URL; an unknown course is a 404 page. */
export async function loadCourseState(context: Readonly<RouterContextProvider>, courseId: string) {
  const viewer = requireViewer(context);
  const { catalog, db } = context.get(appServices);
  let course;
  try {
    course = findCourse(catalog, courseId);
  } catch (error) {
    if (error instanceof NotFound) throw data(null, { status: 404 });
    throw error;
  }
  const state = await courseState(db, course, viewer.id);
  return { viewer, catalog, db, state };
}

/** What every player page shows about the course: title, progress and the outline. */
export function playerSummary(state: Awaited<ReturnType<typeof loadCourseState>>["state"]) {
  const { course } = state;
  return {
    course: { id: course.id, title: course.title, lessonCount: course.lessonCount, moduleCount: course.modules.length },
    enrolled: state.enrolled,
    percent: state.percent,
    completed: state.completed.size,
    lastLessonId: state.lastLessonId,
    nextLessonId: state.nextLessonId,
    outline: courseOutline(state),
  };
}
