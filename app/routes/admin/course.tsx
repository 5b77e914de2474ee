import { data } from "react-router";
import { appServices } from "../../../server/context.ts";
import { courseFigures, courseReach } from "../../../server/staff/index.ts";
import { cardClass } from "../../components/ui/card.tsx";
import type { Route } from "./+types/course";
import { backOfficeMeta } from "./meta.ts";
import { staffWith } from "./access.server.ts";
import { percentOf, ratingText } from "./course-figures.ts";
import { Fact } from "./fact.tsx";
import { PageHeading, Section } from "./page-heading.tsx";

/** One course's figures and, module by module, how many of its learners got there. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await staffWith(context, request, "courses.view");
  const { db, catalog } = context.get(appServices);
  const course = catalog.courses.find((known) => known.id === params.courseId);
  if (!course) throw data({ message: "No course in the catalogue has this id." }, { status: 404 });
  const [[figures], reach] = await Promise.all([courseFigures(db, { courses: [course] }), courseReach(db, course)]);
  return { figures, reach };
}

export const meta: Route.MetaFunction = ({ loaderData }) => backOfficeMeta(loaderData?.figures ? `${loaderData.figures.title} · Courses` : "Course");


export default function CoursePage({ loaderData: { figures, reach } }: Route.ComponentProps) {
  if (!figures) return null;
  return (
    <div className="space-y-8">
      <PageHeading title={figures.title} back={{ to: "/admin/courses", label: "Courses" }} />
      <dl className={cardClass({ className: "grid gap-4 p-6 sm:grid-cols-4" })}>
        <Fact term="Learners">{figures.learners}</Fact>
        <Fact term="Finished">
          {figures.completions} ({percentOf(figures.completions, figures.learners)}%)
        </Fact>
        <Fact term="Refunded">{figures.refunded}</Fact>
        <Fact term="Rating">{ratingText(figures)}</Fact>
      </dl>
      <Section id="reach" title="Where learners stop">
        {reach.learners === 0 ? (
          <p className="text-slate-600 dark:text-slate-400">No one is learning this course yet.</p>
        ) : (
          <>
            <p className="max-w-3xl text-slate-600 dark:text-slate-400">
              Of the {reach.learners} {reach.learners === 1 ? "person" : "people"} who may open the course now, how many completed at least one lesson of each module. A drop
              from one module to the next is where learners stop.
            </p>
            <ol className="space-y-4" aria-label="Modules">
            {reach.modules.map((module, index) => {
              const share = percentOf(module.reached, reach.learners);
              return (
                <li key={module.title} className="space-y-1">
                  <p className="flex justify-between gap-4 text-sm">
                    <span className="font-medium text-slate-950 dark:text-white">
                      {index + 1}. {module.title}
                    </span>
                    <span className="shrink-0 tabular-nums text-slate-700 dark:text-slate-300">
                      {share}% ({module.reached} of {reach.learners})
                    </span>
                  </p>
                  <div className="h-2 rounded-full bg-slate-200 dark:bg-slate-800" aria-hidden="true">
                    <div className="h-2 rounded-full bg-brand-600 dark:bg-brand-400" style={{ width: `${share}%` }} />
                  </div>
                </li>
              );
            })}
            </ol>
          </>
        )}
      </Section>
    </div>
  );
}
