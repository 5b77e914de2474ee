import type { NoteLesson } from "../../../common/view-types.ts";
import { lessonPath } from "../../lib/course-paths.ts";

export interface NotesQuery {
  note?: string | null;
  q?: string | null;
  sort?: "newest" | "oldest";
  view?: "write" | "preview";
  deleted?: string | null;
  /** The whole list, not only its first part. */
  all?: boolean;
}

/** A /notes address: the selected note, search and sort live in the URL so links and back/forward work. */
export function notesHref({ note, q, sort, view, deleted, all }: NotesQuery): string {
  const params = new URLSearchParams();
  if (note) params.set("note", note);
  if (q) params.set("q", q);
  if (sort === "oldest") params.set("sort", sort);
  if (view === "preview") params.set("view", view);
  if (deleted) params.set("deleted", deleted);
  if (all) params.set("all", "1");
  const search = params.toString();
  return search ? `/notes?${search}` : "/notes";
}

/** "Front-End Web Development · 1-2 Document structure" and where it leads. */
export function noteLessonLink(lesson: NoteLesson): { to: string; label: string } {
  return { to: lessonPath(lesson.courseId, lesson.lessonId), label: `${lesson.courseTitle} · ${lesson.lessonId} ${lesson.lessonTitle}` };
}
