import { Link } from "react-router";
import { type Course, noStats, sharedCourseStats, sharedCoursesOnSale, sharedLearnerCount } from "../../../server/catalog/index.ts";
import { appServices } from "../../../server/context.ts";
import { sharedTopReviews } from "../../../server/feedback/index.ts";
import { ContentImage } from "../../components/content-image.tsx";
import { CourseCard, toCourseSummary } from "../../components/course-card.tsx";
import { ReviewCard } from "../../components/feedback/review-card.tsx";
import { FormAlert } from "../../components/form-alert.tsx";
import { ArrowRightIcon } from "../../components/icons.tsx";
import { lessonPath } from "../../lib/course-paths.ts";
import { Container } from "../../components/page-intro.tsx";
import { ServiceCard, toServiceSummary } from "../../components/service-card.tsx";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/home";
import { ButtonLink } from "../../components/ui/button.tsx";
import { cardClass } from "../../components/ui/card.tsx";

export async function loader({ url, context }: Route.LoaderArgs) {
  const { catalog, db, cipher, sharedReads } = context.get(appServices);
  const { site, services, portfolio } = catalog;
  const [stats, onSale, learners] = await Promise.all([sharedCourseStats(sharedReads, db), sharedCoursesOnSale(sharedReads, db), sharedLearnerCount(sharedReads, db)]);
  const courses = onSale.of(catalog.courses);
  const reviews = await sharedTopReviews(sharedReads, db, cipher, courses);
  return {
    accountDeleted: url.searchParams.get("deleted") === "1",
    hero: site.hero,
    figures: catalogueFigures(courses, learners),
    previews: previewLessons(courses),
    siteName: site.name,
    description: site.description,
    courses: courses
      .filter((c) => c.featured)
      .slice(0, 3)
      .map((c) => toCourseSummary(c, catalog.team, stats.get(c.id) ?? noStats)),
    courseCount: courses.length,
    reviews: reviews.map((review) => ({ ...review, course: { id: review.courseId, title: courses.find((c) => c.id === review.courseId)?.title ?? "" } })),
    services: services.slice(0, 3).map(toServiceSummary),
    projects: portfolio.slice(0, 3).map(({ id, title, client, industry, summary, image }) => ({ id, title, client, industry, summary, image })),
  };
}

/** What the hero counts, all of it from the catalogue and the database; learners only once there are some. */
function catalogueFigures(courses: Course[], learners: number): { value: string; label: string }[] {
  const lessons = courses.reduce((sum, c) => sum + c.lessonCount, 0);
  const hours = Math.floor(courses.reduce((sum, c) => sum + c.totalMinutes, 0) / 60);
  const instructors = new Set(courses.map((c) => c.instructor)).size;
  return [
    ...(learners > 0 ? [{ value: learners.toLocaleString("en-IN"), label: learners === 1 ? "learner enrolled" : "learners enrolled" }] : []),
    { value: String(lessons), label: "lessons" },
    { value: String(hours), label: "hours of lessons" },
    { value: String(instructors), label: instructors === 1 ? "instructor" : "instructors" },
  ];
}

/** Each course's first free lesson, featured courses first: lessons anyone can open without an account. */
function previewLessons(courses: Course[]) {
  return courses
    .toSorted((a, b) => Number(b.featured) - Number(a.featured))
    .flatMap((course) => {
      const lesson = course.modules.flatMap((m) => m.lessons).find((l) => l.preview);
      return lesson ? [{ courseId: course.id, courseTitle: course.title, cover: { ...course.cover, alt: "" }, lessonId: lesson.id, title: lesson.title, minutes: lesson.minutes }] : [];
    })
    .slice(0, 4);
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: args.loaderData?.siteName ?? "Academy",
    description: args.loaderData?.description ?? "",
  });

function PreviewLessons({ lessons }: { lessons: ReturnType<typeof previewLessons> }) {
  return (
    <section aria-labelledby="try-a-lesson" className={cardClass({ raised: true, className: "p-6" })}>
      <p className="text-xs font-semibold uppercase tracking-wide text-brand-700 dark:text-brand-300">Free preview lessons</p>
      <h2 id="try-a-lesson" className="mt-1 text-xl font-bold text-slate-950 dark:text-white">
        Try a lesson before you buy
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">Open to everyone, no account needed.</p>
      <ul className="mt-4 divide-y divide-slate-200 dark:divide-slate-800">
        {lessons.map((lesson) => (
          <li key={lesson.courseId}>
            <Link to={lessonPath(lesson.courseId, lesson.lessonId)} className="group flex items-center gap-4 py-3">
              <ContentImage picture={lesson.cover} className="w-16 shrink-0 rounded-lg sm:w-20" />
              <span className="min-w-0 flex-1">
                <span className="block font-semibold text-slate-950 group-hover:text-brand-700 dark:text-white dark:group-hover:text-brand-300">{lesson.title}</span>
                <span className="block text-sm text-slate-600 dark:text-slate-400">
                  {lesson.courseTitle} · {lesson.minutes} min
                </span>
              </span>
              <ArrowRightIcon className="size-4 shrink-0 text-slate-500 group-hover:text-brand-700 dark:text-slate-400 dark:group-hover:text-brand-300" />
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

function SectionHeading({ id, title, lead, to, linkLabel }: { id: string; title: string; lead: string; to: string; linkLabel: string }) {
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <div className="max-w-2xl">
        <h2 id={id} className="text-2xl font-bold tracking-tight text-slate-950 sm:text-3xl dark:text-white">
          {title}
        </h2>
        <p className="mt-2 text-slate-600 dark:text-slate-400">{lead}</p>
      </div>
      <Link
        to={to}
        className="inline-flex shrink-0 items-center gap-1 text-sm font-semibold text-brand-700 hover:text-brand-900 dark:text-brand-300 dark:hover:text-brand-200"
      >
        {linkLabel} <ArrowRightIcon className="size-4" />
      </Link>
    </div>
  );
}

export default function HomePage({ loaderData }: Route.ComponentProps) {
  const { hero, figures, previews, courses, courseCount, reviews, services, projects, accountDeleted } = loaderData;
  return (
    <>
      {accountDeleted && (
        <Container className="pt-6">
          <FormAlert tone="success">Your account and everything we held about you were deleted. Thank you for learning with us.</FormAlert>
        </Container>
      )}
      <section className="relative overflow-hidden border-b border-slate-200 bg-gradient-to-b from-brand-50 to-white dark:border-slate-800 dark:from-slate-900 dark:to-slate-950">
        <Container className="grid gap-12 py-16 sm:py-24 lg:grid-cols-[minmax(0,1fr)_26rem] lg:items-center">
          <div>
            <h1 className="max-w-3xl text-4xl font-extrabold tracking-tight text-slate-950 sm:text-6xl dark:text-white">
              {hero.title}
            </h1>
            <p className="mt-6 max-w-2xl text-lg leading-8 text-slate-700 dark:text-slate-300">{hero.text}</p>
            <div className="mt-8 flex flex-wrap gap-3">
              <ButtonLink to="/courses" size="xl" className="shadow-sm">
                Browse {courseCount} courses
              </ButtonLink>
              <Link
                to="/services"
                className="rounded-full border border-slate-300 bg-white px-6 py-3 font-semibold text-slate-900 hover:border-slate-400 dark:border-slate-700 dark:bg-slate-900 dark:text-white dark:hover:border-slate-500"
              >
                Work with us
              </Link>
            </div>
            <dl className="mt-12 flex flex-wrap gap-x-10 gap-y-6">
              {figures.map((figure) => (
                <div key={figure.label} className="flex flex-col">
                  <dt className="text-sm text-slate-600 dark:text-slate-400">{figure.label}</dt>
                  <dd className="order-first text-2xl font-bold text-slate-950 dark:text-white">{figure.value}</dd>
                </div>
              ))}
            </dl>
          </div>
          {previews.length > 0 && <PreviewLessons lessons={previews} />}
        </Container>
      </section>

      <Container className="py-16">
        <section aria-labelledby="featured-courses">
          <SectionHeading
            id="featured-courses"
            title="Popular courses"
            lead="Start with the fundamentals or go deeper. Each course ends with a project you can put in your portfolio."
            to="/courses"
            linkLabel="All courses"
          />
          <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {courses.map((course) => (
              <li key={course.id} className="flex">
                <CourseCard course={course} />
              </li>
            ))}
          </ul>
        </section>

        {reviews.length > 0 && (
          <section aria-labelledby="home-reviews" className="mt-20">
            <div className="max-w-2xl">
              <h2 id="home-reviews" className="text-2xl font-bold tracking-tight text-slate-950 sm:text-3xl dark:text-white">
                What learners say
              </h2>
              <p className="mt-2 text-slate-600 dark:text-slate-400">Reviews from learners who took our courses.</p>
            </div>
            <ul className="mt-8 grid gap-6 lg:grid-cols-3">
              {reviews.map((review) => (
                <li key={review.id}>
                  <ReviewCard review={review} course={review.course} />
                </li>
              ))}
            </ul>
          </section>
        )}

        <section aria-labelledby="home-services" className="mt-20">
          <SectionHeading
            id="home-services"
            title="Services for your business"
            lead="Websites designed and built to last, hosting that is looked after, and training for your team."
            to="/services"
            linkLabel="All services"
          />
          <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {services.map((service) => (
              <li key={service.id} className="flex">
                <ServiceCard service={service} />
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="home-work" className="mt-20">
          <SectionHeading
            id="home-work"
            title="Recent work"
            lead="Clinics, schools, retailers and start-ups across India trust us with their websites."
            to="/portfolio"
            linkLabel="See the portfolio"
          />
          <ul className="mt-8 grid gap-6 lg:grid-cols-3">
            {projects.map((project) => (
              <li key={project.id} className={cardClass({ className: "p-6" })}>
                <ContentImage
                  picture={project.image}
                  className="-mx-6 -mt-6 mb-5 block w-[calc(100%+3rem)] max-w-none rounded-t-2xl border-b border-slate-200 dark:border-slate-800"
                />
                <p className="text-xs font-semibold uppercase tracking-wide text-brand-700 dark:text-brand-300">{project.industry}</p>
                <h3 className="mt-2 font-semibold text-slate-950 dark:text-white">{project.title}</h3>
                <p className="text-sm text-slate-600 dark:text-slate-400">{project.client}</p>
                <p className="mt-3 text-sm leading-6 text-slate-700 dark:text-slate-300">{project.summary}</p>
              </li>
            ))}
          </ul>
        </section>

        <section
          aria-labelledby="home-cta"
          className="mt-20 rounded-3xl bg-brand-700 px-6 py-12 text-center text-white sm:px-12 dark:bg-brand-800"
        >
          <h2 id="home-cta" className="text-2xl font-bold sm:text-3xl">
            Not sure where to start?
          </h2>
          <p className="mx-auto mt-3 max-w-xl text-brand-50">
            Our help centre answers the common questions, and our team replies to every e-mail within one business day.
          </p>
          <div className="mt-6 flex flex-wrap justify-center gap-3">
            <Link to="/help" className="rounded-full bg-white px-6 py-3 font-semibold text-brand-800 hover:bg-brand-50">
              Visit the help centre
            </Link>
            <Link to="/team" className="rounded-full border border-white/60 px-6 py-3 font-semibold text-white hover:bg-white/10">
              Meet the team
            </Link>
          </div>
        </section>
      </Container>
    </>
  );
}
