/** Where a course's learning pages are: a lesson, a module's overview, the end of the course. */
export const lessonPath = (courseId: string, lessonId: string) => `/courses/${courseId}/submodule/${lessonId}`;
export const finishPath = (courseId: string) => `/courses/${courseId}/complete`;
export const modulePath = (courseId: string, n: number) => `/courses/${courseId}/module/${n}`;
