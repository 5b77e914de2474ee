import { Link } from "react-router";
import type { Course, CourseStats, TeamMember } from "../../common/view-types.ts";
import { formatDuration, formatMoney, levelLabel } from "../../common/format.ts";
import { ContentImage, type ContentPicture } from "./content-image.tsx";
import { ratingText, Stars } from "./feedback/stars.tsx";
import { BookIcon, ClockIcon, SignalIcon } from "./icons.tsx";
import { cardClass } from "./ui/card.tsx";
import { Badge } from "./ui/badge.tsx";

export interface CourseSummary {
  id: string;
  title: string;
  summary: string;
  cover: ContentPicture;
  level: Course["level"];
  category: string;
  price: Course["price"];
  lessonCount: number;
  totalMinutes: number;
  instructor: string | null;
  learners: number;
  reviewCount: number;
  /** null when nobody has reviewed the course yet. */
  rating: number | null;
}

export function toCourseSummary(course: Course, team: TeamMember[], stats: CourseStats): CourseSummary {
  const { id, title, summary, cover, level, category, price, lessonCount, totalMinutes } = course;
  const instructor = team.find((m) => m.id === course.instructor)?.name ?? null;
  return { id, title, summary, cover, level, category, price, lessonCount, totalMinutes, instructor, ...stats };
}

export function CourseCard({ course, headingLevel = 3 }: { course: CourseSummary; headingLevel?: 2 | 3 }) {
  const Heading = `h${headingLevel}` as const;
  return (
    <article className={cardClass({ raised: true, className: "group relative flex w-full flex-col p-6 transition hover:-translate-y-0.5 hover:shadow-md" })}>
      <ContentImage picture={course.cover} className="-mx-6 -mt-6 mb-5 block w-[calc(100%+3rem)] max-w-none rounded-t-2xl" />
      <p className="text-xs font-semibold uppercase tracking-wide text-brand-700 dark:text-brand-300">{course.category}</p>
      <Heading className="mt-2 text-lg font-semibold text-slate-950 dark:text-white">
        <Link to={`/course/${course.id}`} className="after:absolute after:inset-0 after:rounded-2xl">
          {course.title}
        </Link>
      </Heading>
      {course.instructor && <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">by {course.instructor}</p>}
      <p className="mt-2 flex-1 text-sm leading-6 text-slate-600 dark:text-slate-400">{course.summary}</p>
      <CourseRating course={course} />
      <ul className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600 dark:text-slate-400">
        <FactItems level={course.level} duration={formatDuration(course.totalMinutes)} lessonCount={course.lessonCount} />
      </ul>
      <p className="mt-4 text-lg font-bold text-slate-950 dark:text-white">{formatMoney(course.price)}</p>
    </article>
  );
}

/** Stars with the average and review count, or "New" for a course nobody has reviewed; learners beside it. */
function CourseRating({ course }: { course: Pick<CourseSummary, "rating" | "reviewCount" | "learners"> }) {
  const learners = course.learners > 0 && `${course.learners.toLocaleString("en-IN")} ${course.learners === 1 ? "learner" : "learners"}`;
  return (
    <p className="mt-4 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-700 dark:text-slate-300">
      {course.rating === null ? (
        <Badge tone="success">New</Badge>
      ) : (
        <>
          <span aria-hidden="true" className="font-semibold text-slate-950 dark:text-white">
            {course.rating.toFixed(1)}
          </span>
          <Stars rating={course.rating} className="size-3.5" />
          <span aria-hidden="true">({course.reviewCount.toLocaleString("en-IN")})</span>
          <span className="sr-only">{ratingText({ average: course.rating, count: course.reviewCount })}</span>
        </>
      )}
      {learners && (
        <>
          <span aria-hidden="true">·</span>
          <span>{learners}</span>
        </>
      )}
    </p>
  );
}

function FactItems({ level, duration, lessonCount }: { level: Course["level"]; duration: string; lessonCount: number }) {
  return (
    <>
      <li className="inline-flex items-center gap-1">
        <SignalIcon className="size-3.5" />
        {levelLabel[level]}
      </li>
      <li className="inline-flex items-center gap-1">
        <ClockIcon className="size-3.5" />
        {duration}
      </li>
      <li className="inline-flex items-center gap-1">
        <BookIcon className="size-3.5" />
        {lessonCount} lessons
      </li>
    </>
  );
}

/** Level, hours and lessons in one line of small print, under a course's title. */
export function CourseFacts({ course }: { course: Pick<Course, "level" | "durationHours" | "lessonCount"> }) {
  return (
    <ul className="mt-4 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600 dark:text-slate-400">
      <FactItems level={course.level} duration={`${course.durationHours} hours`} lessonCount={course.lessonCount} />
    </ul>
  );
}
