import { data, Link } from "react-router";
import { appServices } from "../../server/context.ts";
import { BackLink } from "../components/back-link.tsx";
import { StarIcon } from "../components/icons.tsx";
import { Container, PageIntro } from "../components/page-intro.tsx";
import { pageMeta } from "../lib/seo.ts";
import type { Route } from "./+types/course-feedback";

export function loader({ params, context }: Route.LoaderArgs) {
  const course = context.get(appServices).catalog.courses.find((c) => c.id === params.courseId);
  if (!course) throw data(null, { status: 404 });
  return { course: { id: course.id, title: course.title } };
}

export const meta: Route.MetaFunction = (args) =>
  args.loaderData
    ? pageMeta(args, {
        title: `Feedback for ${args.loaderData.course.title}`,
        description: `What learners say about ${args.loaderData.course.title}: ratings and reviews from verified learners.`,
      })
    : [];

export default function CourseFeedbackPage({ loaderData: { course } }: Route.ComponentProps) {
  return (
    <Container className="py-12 sm:py-16">
      <BackLink fallback={`/course/${course.id}`} label={`Back to ${course.title}`} />
      <div className="mt-6">
        <PageIntro eyebrow="Learner feedback" title={course.title} />
      </div>
      <div className="mt-10 flex flex-col items-center rounded-2xl border border-dashed border-slate-300 px-6 py-14 text-center dark:border-slate-700">
        <StarIcon className="size-10 text-amber-500" />
        <h2 className="mt-4 text-xl font-semibold text-slate-950 dark:text-white">No feedback yet</h2>
        <p className="mt-2 max-w-md text-slate-600 dark:text-slate-400">
          Reviews appear here once learners enrolled in this course share their rating. Only verified learners can
          leave feedback, so every review you read here comes from someone who took the course.
        </p>
        <Link
          to={`/course/${course.id}`}
          className="mt-6 rounded-full bg-brand-600 px-5 py-2.5 text-sm font-semibold text-white hover:bg-brand-700"
        >
          See the course
        </Link>
      </div>
    </Container>
  );
}
