import { Link } from "react-router";
import { appServices } from "../../server/context.ts";
import { CourseCard, toCourseSummary } from "../components/course-card.tsx";
import { Container, PageIntro } from "../components/page-intro.tsx";
import { pageMeta } from "../lib/seo.ts";
import type { Route } from "./+types/courses";

export function loader({ request, context }: Route.LoaderArgs) {
  const { courses } = context.get(appServices).catalog;
  const category = new URL(request.url).searchParams.get("category");
  const categories = [...new Set(courses.map((c) => c.category))];
  const selected = category && categories.includes(category) ? category : null;
  return {
    categories,
    selected,
    courses: courses.filter((c) => !selected || c.category === selected).map(toCourseSummary),
  };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Courses",
    description:
      "Self-paced, project-based courses in front-end and back-end web development, React, Python data analysis, cloud and DevOps, and UI/UX design.",
  });

const chip = (active: boolean) =>
  `rounded-full border px-4 py-1.5 text-sm font-medium ${
    active
      ? "border-brand-600 bg-brand-600 text-white"
      : "border-slate-300 text-slate-700 hover:border-brand-500 hover:text-brand-700 dark:border-slate-700 dark:text-slate-300 dark:hover:text-white"
  }`;

export default function CoursesPage({ loaderData }: Route.ComponentProps) {
  const { categories, selected, courses } = loaderData;
  return (
    <Container className="py-12 sm:py-16">
      <PageIntro
        eyebrow="Courses"
        title="Learn by building real things"
        lead="Every course is self-paced, taught by working engineers and designers, and ends with a project you can show. Lifetime access and a certificate of completion are included."
      />
      <nav aria-label="Filter by category" className="mt-8">
        <ul className="flex flex-wrap gap-2">
          <li>
            <Link to="/courses" className={chip(selected === null)} aria-current={selected === null ? "page" : undefined}>
              All
            </Link>
          </li>
          {categories.map((category) => (
            <li key={category}>
              <Link
                to={`/courses?category=${encodeURIComponent(category)}`}
                className={chip(selected === category)}
                aria-current={selected === category ? "page" : undefined}
              >
                {category}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <p className="sr-only" aria-live="polite">
        {courses.length} courses shown
      </p>
      <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {courses.map((course) => (
          <li key={course.id} className="flex">
            <CourseCard course={course} headingLevel={2} />
          </li>
        ))}
      </ul>
    </Container>
  );
}
