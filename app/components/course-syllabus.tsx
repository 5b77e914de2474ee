import { useRef } from "react";
import { formatMoney } from "../../common/format.ts";
import type { CourseModule, Lesson, Money } from "../../common/view-types.ts";
import { useClientLinks } from "../lib/use-client-links.ts";
import { Badge } from "./ui/badge.tsx";

/** What enrolling in a course costs, as its page says it: "₹4,999" or "Free". */
export const coursePriceLabel = (price: Money) => (price.amount === 0 ? "Free" : formatMoney(price));

/**
 * A course's modules and lessons, as the items of the syllabus's list. A lesson the viewer can open (a
 * free preview, or any lesson once enrolled) is a link across its whole row; a locked one is marked
 * with a lock, and its module ends with what unlocks it (the page's own Enrol now is beside it, or on
 * a phone at the screen's foot). Rows repeat for every lesson, so they carry named classes (app.css)
 * and their lock is drawn by the stylesheet, not repeated in the page. The same for every visitor
 * (enrolled or not), so the server renders them to HTML once (app/routes/site/course-syllabus.server.tsx):
 * the links are plain, and `CourseSyllabus` makes them navigate within the app.
 */
export function CourseSyllabusItems({
  courseId,
  modules,
  enrolled,
  price,
}: {
  courseId: string;
  modules: (Pick<CourseModule, "title" | "summary"> & { lessons: Pick<Lesson, "id" | "title" | "minutes" | "preview">[] })[];
  enrolled: boolean;
  /** What enrolling costs: "₹4,999" or "Free". */
  price: string;
}) {
  return (
    <>
      {modules.map((mod, m) => (
        <li key={mod.title}>
          <details className="syllabus-module group" open={m === 0}>
            <summary className="syllabus-module-summary">
              <span className="syllabus-module-number">{m + 1}</span>
              <span className="flex-1">
                <span className="block font-semibold text-slate-950 dark:text-white">{mod.title}</span>
                <span className="mt-1 block text-sm text-slate-600 dark:text-slate-400">{mod.summary}</span>
              </span>
              <span aria-hidden="true" className="mt-1 text-slate-500 transition group-open:rotate-180">
                ▾
              </span>
            </summary>
            <ul className="syllabus-lessons">
              {mod.lessons.map((lesson) => {
                const number = <span className="syllabus-number">{lesson.id}</span>;
                const minutes = <span className="syllabus-minutes">{`${lesson.minutes} min`}</span>;
                if (enrolled || lesson.preview) {
                  return (
                    <li key={lesson.id}>
                      <a href={`/courses/${courseId}/submodule/${lesson.id}`} data-discover="true" className="syllabus-row syllabus-open">
                        {number}
                        <span className="flex flex-1 flex-wrap items-center gap-x-2 gap-y-1">
                          <span className="font-medium underline-offset-2 hover:underline">{lesson.title}</span>
                          {!enrolled && <Badge tone="success">Free preview</Badge>}
                        </span>
                        {minutes}
                      </a>
                    </li>
                  );
                }
                return (
                  <li key={lesson.id} className="syllabus-row syllabus-locked">
                    {number}
                    <span className="flex-1">
                      {lesson.title}
                      <span className="sr-only"> (locked)</span>
                    </span>
                    <span className="syllabus-lock" />
                    {minutes}
                  </li>
                );
              })}
            </ul>
            {!enrolled && mod.lessons.some((lesson) => !lesson.preview) && (
              <p className="syllabus-unlock">
                Locked lessons open when you enrol: <strong>{price}</strong>, one payment for every lesson.
              </p>
            )}
          </details>
        </li>
      ))}
    </>
  );
}

/** The syllabus's list, its items the HTML the server rendered once (`CourseSyllabusItems`). */
export function CourseSyllabus({ id, html }: { id: string; html: string }) {
  const list = useRef<HTMLOListElement>(null);
  useClientLinks(list);
  return <ol ref={list} id={id} className="mt-5 space-y-3" dangerouslySetInnerHTML={{ __html: html }} />;
}
