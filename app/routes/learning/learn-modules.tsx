import { CourseOutline, EnrolBanner } from "../../components/player/course-outline.tsx";
import { BackLink } from "../../components/back-link.tsx";
import { Container } from "../../components/page-intro.tsx";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/learn-modules";
import { loadCourseState, playerSummary } from "./player.server.ts";

export async function loader({ params, context }: Route.LoaderArgs) {
  const { state } = await loadCourseState(context, params.courseId);
  return playerSummary(state);
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: `Modules: ${args.loaderData?.course.title ?? "Course"}`, description: "Every module and lesson, with what you have done." });

export default function ModulesPage({ loaderData }: Route.ComponentProps) {
  const { course, enrolled, outline } = loaderData;
  return (
    <Container className="py-10 sm:py-14">
      <BackLink fallback={`/courses/${course.id}/MainPage`} label="Course home" />
      <h1 className="mt-6 text-3xl font-bold tracking-tight text-slate-950 dark:text-white">{course.title}: all modules</h1>
      <div className="mt-6 max-w-3xl space-y-6">
        {!enrolled && <EnrolBanner course={course} />}
        <CourseOutline courseId={course.id} outline={outline} />
      </div>
    </Container>
  );
}
