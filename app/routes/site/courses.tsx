import { useEffect, useRef } from "react";
import { Form, Link, useSubmit } from "react-router";
import { noStats, parseCourseQuery, searchCourses, sharedCourseStats, sharedCoursesOnSale, type CourseQuery, type CourseSort } from "../../../server/catalog/index.ts";
import { appServices } from "../../../server/context.ts";
import { CourseCard, toCourseSummary } from "../../components/course-card.tsx";
import { Container, PageIntro } from "../../components/page-intro.tsx";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/courses";
import { ButtonLink } from "../../components/ui/button.tsx";
import { controlClass } from "../../components/ui/field.tsx";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { catalog, db, sharedReads } = context.get(appServices);
  const [stats, onSale] = await Promise.all([sharedCourseStats(sharedReads, db), sharedCoursesOnSale(sharedReads, db)]);
  const courses = onSale.of(catalog.courses);
  const categories = [...new Set(courses.map((c) => c.category))];
  const query = parseCourseQuery(new URL(request.url).searchParams, categories);
  return {
    categories,
    query,
    total: courses.length,
    courses: searchCourses(courses, catalog.team, stats, query).map((c) => toCourseSummary(c, catalog.team, stats.get(c.id) ?? noStats)),
  };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Courses",
    description:
      "Self-paced, project-based courses in front-end and back-end web development, React, Python data analysis, cloud and DevOps, and UI/UX design.",
  });

const sortLabels: Record<CourseSort, string> = {
  popular: "Most popular",
  rating: "Highest rated",
  "price-low": "Price: low to high",
  "price-high": "Price: high to low",
  newest: "Newest",
};

/** The catalogue's URL for a query; the defaults stay out of it so the plain address is the canonical one. */
function coursesUrl({ q, sort, category }: CourseQuery): string {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (sort !== "popular") params.set("sort", sort);
  if (category) params.set("category", category);
  const search = params.toString();
  return search ? `/courses?${search}` : "/courses";
}

const chip = (active: boolean) =>
  `inline-block rounded-full border px-4 py-1.5 text-sm font-medium ${
    active
      ? "border-brand-600 bg-brand-600 text-white"
      : "border-slate-300 text-slate-700 hover:border-brand-500 hover:text-brand-700 dark:border-slate-700 dark:text-slate-300 dark:hover:text-white"
  }`;

const field = controlClass({ compact: true });

function SearchForm({ query }: { query: CourseQuery }) {
  const submit = useSubmit();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const input = useRef<HTMLInputElement>(null);
  const sort = useRef<HTMLSelectElement>(null);
  useEffect(() => () => clearTimeout(timer.current), []);
  // A link (a category, "Clear search") changed the query: show it, unless the person is typing in the box.
  useEffect(() => {
    if (input.current && document.activeElement !== input.current) input.current.value = query.q;
    if (sort.current) sort.current.value = query.sort;
  }, [query.q, query.sort]);
  // Results follow the typing after a pause, and the sort at once; the button is there without JavaScript.
  const submitSoon = (form: HTMLFormElement, delay: number) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void submit(form, { replace: true, preventScrollReset: true }), delay);
  };
  return (
    <Form
      method="get"
      action="/courses"
      role="search"
      aria-label="Courses"
      className="mt-8 flex flex-col gap-3 sm:flex-row sm:items-end"
      onChange={(event) => submitSoon(event.currentTarget, (event.target as HTMLElement).tagName === "SELECT" ? 0 : 300)}
    >
      {query.category && <input type="hidden" name="category" value={query.category} />}
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <label htmlFor="courses-q" className="text-sm font-medium text-slate-700 dark:text-slate-300">
          Search courses
        </label>
        <div className="flex gap-2">
          <input
            ref={input}
            id="courses-q"
            type="search"
            name="q"
            defaultValue={query.q}
            maxLength={100}
            placeholder="Title, topic or instructor"
            className={`min-w-0 flex-1 ${field}`}
          />
          <button
            type="submit"
            className="rounded-lg border border-slate-300 px-4 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50 dark:border-slate-700 dark:text-slate-200 dark:hover:bg-slate-800"
          >
            Search
          </button>
        </div>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor="courses-sort" className="text-sm font-medium text-slate-700 dark:text-slate-300">
          Sort by
        </label>
        <select ref={sort} id="courses-sort" name="sort" defaultValue={query.sort} className={field}>
          {Object.entries(sortLabels).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
    </Form>
  );
}

export default function CoursesPage({ loaderData }: Route.ComponentProps) {
  const { categories, query, courses, total } = loaderData;
  const filtered = query.q !== "" || query.category !== null;
  return (
    <Container className="py-12 sm:py-16">
      <PageIntro
        eyebrow="Courses"
        title="Learn by building real things"
        lead="Every course is self-paced, taught by working engineers and designers, and ends with a project you can show. Lifetime access and a certificate of completion are included."
      />
      <SearchForm query={query} />
      <nav aria-label="Filter by category" className="mt-6">
        <ul className="flex flex-wrap gap-2">
          <li>
            <Link to={coursesUrl({ ...query, category: null })} className={chip(query.category === null)} aria-current={query.category === null ? "page" : undefined}>
              All
            </Link>
          </li>
          {categories.map((category) => (
            <li key={category}>
              <Link
                to={coursesUrl({ ...query, category })}
                className={chip(query.category === category)}
                aria-current={query.category === category ? "page" : undefined}
              >
                {category}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <p className="mt-6 text-sm text-slate-600 dark:text-slate-400" aria-live="polite">
        {filtered ? `${courses.length} of ${total} courses` : `${total} courses`}
      </p>
      {courses.length > 0 ? (
        <ul className="mt-4 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {courses.map((course) => (
            <li key={course.id} className="flex">
              <CourseCard course={course} headingLevel={2} />
            </li>
          ))}
        </ul>
      ) : (
        <div className="mt-4 rounded-2xl border border-dashed border-slate-300 p-8 text-center dark:border-slate-700">
          <h2 className="text-lg font-semibold text-slate-950 dark:text-white">No courses match {query.q ? `“${query.q}”` : "this filter"}</h2>
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">Try fewer or different words, such as a language, a tool or an instructor's name.</p>
          <ButtonLink to="/courses" className="mt-4 inline-block">
            Clear search and filters
          </ButtonLink>
        </div>
      )}
    </Container>
  );
}
