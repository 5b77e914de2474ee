import { Link } from "react-router";
import type { Course } from "../../server/catalog/index.ts";
import { formatMoney, levelLabel } from "../lib/format.ts";
import { BookIcon, ClockIcon, SignalIcon } from "./icons.tsx";

export type CourseSummary = Pick<
  Course,
  "id" | "title" | "summary" | "level" | "category" | "durationHours" | "price" | "lessonCount"
>;

export function toCourseSummary(course: Course): CourseSummary {
  const { id, title, summary, level, category, durationHours, price, lessonCount } = course;
  return { id, title, summary, level, category, durationHours, price, lessonCount };
}

export function CourseCard({ course, headingLevel = 3 }: { course: CourseSummary; headingLevel?: 2 | 3 }) {
  const Heading = `h${headingLevel}` as const;
  return (
    <article className="group relative flex w-full flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm transition hover:-translate-y-0.5 hover:shadow-md dark:border-slate-800 dark:bg-slate-900">
      <p className="text-xs font-semibold uppercase tracking-wide text-brand-700 dark:text-brand-300">{course.category}</p>
      <Heading className="mt-2 text-lg font-semibold text-slate-950 dark:text-white">
        <Link to={`/course/${course.id}`} className="after:absolute after:inset-0 after:rounded-2xl">
          {course.title}
        </Link>
      </Heading>
      <p className="mt-2 flex-1 text-sm leading-6 text-slate-600 dark:text-slate-400">{course.summary}</p>
      <CourseFacts course={course} />
      <p className="mt-4 text-lg font-bold text-slate-950 dark:text-white">{formatMoney(course.price)}</p>
    </article>
  );
}

/** Level, hours and lessons in one line of small print, under a course's title. */
export function CourseFacts({ course }: { course: Pick<Course, "level" | "durationHours" | "lessonCount"> }) {
  return (
    <ul className="mt-4 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600 dark:text-slate-400">
      <li className="inline-flex items-center gap-1">
        <SignalIcon className="size-3.5" />
        {levelLabel[course.level]}
      </li>
      <li className="inline-flex items-center gap-1">
        <ClockIcon className="size-3.5" />
        {course.durationHours} hours
      </li>
      <li className="inline-flex items-center gap-1">
        <BookIcon className="size-3.5" />
        {course.lessonCount} lessons
      </li>
    </ul>
  );
}
