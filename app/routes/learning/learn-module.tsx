import { data } from "react-router";
import { BackLink } from "../../components/back-link.tsx";
import { CheckList } from "../../components/check-list.tsx";
import { EnrolBanner, LessonList } from "../../components/player/course-outline.tsx";
import { Container } from "../../components/page-intro.tsx";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/learn-module";
import { loadCourseState, playerSummary } from "./player.server.ts";

export async function loader({ params, context }: Route.LoaderArgs) {
  const { state } = await loadCourseState(context, params.courseId);
  const summary = playerSummary(state);
  const mod = /^[1-9][0-9]*$/.test(params.n) ? summary.outline[Number(params.n) - 1] : undefined;
  if (!mod) throw data(null, { status: 404 });
  return { course: summary.course, enrolled: summary.enrolled, mod };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: args.loaderData ? `Module ${args.loaderData.mod.number}: ${args.loaderData.mod.title}` : "Module",
    description: args.loaderData?.mod.summary ?? "",
  });

export default function ModulePage({ loaderData }: Route.ComponentProps) {
  const { course, enrolled, mod } = loaderData;
  return (
    <Container className="py-10 sm:py-14">
      <BackLink fallback={`/courses/${course.id}/modules`} label="All modules" />
      <p className="mt-6 text-sm font-semibold uppercase tracking-wide text-brand-700 dark:text-brand-300">
        {course.title} · Module {mod.number} of {course.moduleCount}
      </p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-slate-950 dark:text-white">{mod.title}</h1>
      <p className="mt-3 max-w-3xl text-lg text-slate-600 dark:text-slate-300">{mod.summary}</p>
      <div className="mt-8 grid max-w-5xl gap-8 lg:grid-cols-2">
        <section aria-labelledby="objectives-heading">
          <h2 id="objectives-heading" className="text-lg font-semibold text-slate-950 dark:text-white">
            By the end of this module you will
          </h2>
          <CheckList items={mod.objectives} className="mt-3 space-y-2" />
        </section>
        <section aria-labelledby="lessons-heading">
          <h2 id="lessons-heading" className="text-lg font-semibold text-slate-950 dark:text-white">
            Lessons <span className="text-sm font-normal text-slate-500 dark:text-slate-400">({mod.completed} of {mod.lessons.length} done)</span>
          </h2>
          <div className="mt-3">
            <LessonList courseId={course.id} mod={mod} />
          </div>
        </section>
      </div>
      {!enrolled && (
        <div className="mt-8 max-w-3xl">
          <EnrolBanner course={course} />
        </div>
      )}
    </Container>
  );
}
