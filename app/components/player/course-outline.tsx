import { useRef } from "react";
import type { LessonState, Money, OutlineModule } from "../../../common/view-types.ts";
import { formatMoney } from "../../../common/format.ts";
import { lessonPath, modulePath } from "../../lib/course-paths.ts";
import { useClientLinks } from "../../lib/use-client-links.ts";
import { ButtonLink } from "../ui/button.tsx";

const stateLabel: Record<LessonState, string> = { done: "Done", "in-progress": "In progress", todo: "Not started", locked: "Locked" };

/** The learner's state of a lesson as a mark: a tick, a ring, a lock (drawn by app.css from data-state). */
function StateMark({ state }: { state: LessonState }) {
  return <span aria-hidden="true" className="outline-mark" data-state={state} />;
}

/**
 * A module's lessons, each with the learner's state; the current lesson is marked for assistive
 * technology too (and drawn by its aria-current). Rows repeat for every lesson of the course, so
 * their looks are named in app.css. They are plain links made to navigate within the app (a
 * <Link> costs several times more to render, and a lesson shows the whole course's); data-discover
 * has React Router learn their routes ahead, as a <Link>'s.
 */
export function LessonList({ courseId, mod, currentLessonId }: { courseId: string; mod: OutlineModule; currentLessonId?: string }) {
  const list = useRef<HTMLOListElement>(null);
  useClientLinks(list);
  return (
    <ol ref={list} className="space-y-1">
      {mod.lessons.map((lesson) => (
        <li key={lesson.id}>
          <a
            href={lessonPath(courseId, lesson.id)}
            data-discover="true"
            aria-current={lesson.id === currentLessonId ? "page" : undefined}
            className="outline-row"
          >
            <StateMark state={lesson.state} />
            <span className="flex-1">
              <span className="outline-number">{lesson.id}</span> {lesson.title}
              <span className="sr-only">{` (${stateLabel[lesson.state]}${lesson.preview ? ", free preview" : ""})`}</span>
            </span>
            <span className="outline-minutes">{`${lesson.minutes} min`}</span>
          </a>
        </li>
      ))}
    </ol>
  );
}

/** Every module with its lessons, for the modules page and the lesson sidebar; its links are plain ones too. */
export function CourseOutline({ courseId, outline, currentLessonId }: { courseId: string; outline: OutlineModule[]; currentLessonId?: string }) {
  const modules = useRef<HTMLOListElement>(null);
  useClientLinks(modules);
  return (
    <ol ref={modules} className="space-y-6">
      {outline.map((mod) => (
        <li key={mod.number}>
          <h3 className="flex items-baseline justify-between gap-2 px-3 text-sm font-semibold text-slate-950 dark:text-white">
            <a href={modulePath(courseId, mod.number)} data-discover="true" className="hover:underline">
              {mod.number}. {mod.title}
            </a>
            <span className="shrink-0 text-xs font-normal text-slate-500 dark:text-slate-400">
              {mod.completed}/{mod.lessons.length}
            </span>
          </h3>
          <div className="mt-2">
            <LessonList courseId={courseId} mod={mod} currentLessonId={currentLessonId} />
          </div>
        </li>
      ))}
    </ol>
  );
}

/** Shown to signed-in people who do not own the course. */
/**
 * What a learner who is not enrolled can do next: the price and the way to enrol. On a lesson it
 * says whether this one is a free preview or part of the full course.
 */
export function EnrolBanner({ course, lesson = "none" }: { course: { id: string; price: Money; lessonCount: number }; lesson?: "preview" | "locked" | "none" }) {
  const heading = lesson === "locked" ? "This lesson is part of the full course" : lesson === "preview" ? "You are reading a free preview" : "Enrol to continue";
  return (
    <div role="status" className="rounded-2xl border border-brand-200 bg-brand-50 p-5 dark:border-brand-800 dark:bg-slate-900">
      <p className="font-semibold text-slate-950 dark:text-white">{heading}</p>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
        Enrol for {formatMoney(course.price)} (GST included) to unlock all {course.lessonCount} lessons, keep track of your progress and earn a certificate. Lessons
        marked as free previews stay open to everyone.
      </p>
      <ButtonLink to={`/courses/${course.id}/confirm`} className="mt-3 inline-block">
        Enrol now for {formatMoney(course.price)}
      </ButtonLink>
    </div>
  );
}
