import { data, type RouterContextProvider } from "react-router";
import { appServices, requireViewer, viewerContext } from "../../../server/context.ts";
import { courseOutline, courseState, findCourse, visitorState } from "../../../server/learning/index.ts";
import { NotFound } from "../../../server/errors.ts";

/** The course of this URL; an unknown course is a 404 page. */
function courseOf(context: Readonly<RouterContextProvider>, courseId: string) {
  try {
    return findCourse(context.get(appServices).catalog, courseId);
  } catch (error) {
    if (error instanceof NotFound) throw data(null, { status: 404 });
    throw error;
  }
}

/** The viewer's state in the course of this URL; a visitor's on a page visitors may see too (a lesson: free previews are open to everyone). */
export async function loadCourseStateOrVisitor(context: Readonly<RouterContextProvider>, courseId: string) {
  const viewer = context.get(viewerContext);
  const { catalog, db } = context.get(appServices);
  const course = courseOf(context, courseId);
  const state = viewer ? await courseState(db, course, viewer.id) : visitorState(course);
  return { viewer, catalog, db, state };
}

/** The signed-in learner's state in the course of this URL. */
export async function loadCourseState(context: Readonly<RouterContextProvider>, courseId: string) {
  const viewer = requireViewer(context);
  return { ...(await loadCourseStateOrVisitor(context, courseId)), viewer };
}

/** What every player page shows about the course: title, progress and the outline. */
export function playerSummary(state: Awaited<ReturnType<typeof loadCourseState>>["state"]) {
  const { course } = state;
  return {
    course: { id: course.id, title: course.title, lessonCount: course.lessonCount, moduleCount: course.modules.length, price: course.price },
    enrolled: state.enrolled,
    percent: state.percent,
    completed: state.completed.size,
    lastLessonId: state.lastLessonId,
    nextLessonId: state.nextLessonId,
    outline: courseOutline(state),
  };
}
