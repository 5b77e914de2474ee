import { Link } from "react-router";
import { issuedCertificateIds, lastLessonCompletedAt } from "../../../server/learning/index.ts";
import { CourseProgress } from "../../components/account-progress.tsx";
import { CertificateAction, certificatePath } from "../../components/certificate/certificate-action.tsx";
import { ArrowRightIcon, AwardIcon, CheckIcon, StarIcon } from "../../components/icons.tsx";
import { EnrolBanner } from "../../components/player/course-outline.tsx";
import { lessonPath, modulePath } from "../../lib/course-paths.ts";
import { Container } from "../../components/page-intro.tsx";
import { formatDay } from "../../../common/format.ts";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/learn-main";
import { loadCourseState, playerSummary } from "./player.server.ts";
import { ButtonLink } from "../../components/ui/button.tsx";
import { cardClass } from "../../components/ui/card.tsx";

export async function loader({ params, context }: Route.LoaderArgs) {
  const { state, db, viewer } = await loadCourseState(context, params.courseId);
  const complete = state.enrolled && state.percent === 100;
  const [certificates, completedAt] = await Promise.all([
    state.enrolled ? issuedCertificateIds(db, viewer.id, [state.course.id]) : new Map<string, string>(),
    complete ? lastLessonCompletedAt(db, state.course, viewer.id) : null,
  ]);
  return {
    ...playerSummary(state),
    certificateId: certificates.get(state.course.id) ?? null,
    completedAt,
  };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: args.loaderData?.course.title ?? "Course", description: "Your progress, where you left off and what comes next." });

export default function CourseHome({ loaderData }: Route.ComponentProps) {
  const { course, enrolled, percent, completed, lastLessonId, nextLessonId, outline, certificateId, completedAt } = loaderData;
  const lessons = outline.flatMap((m) => m.lessons);
  const last = lessons.find((l) => l.id === lastLessonId);
  const next = lessons.find((l) => l.id === nextLessonId);
  return (
    <Container className="py-10 sm:py-14">
      <p className="text-sm font-semibold uppercase tracking-wide text-brand-700 dark:text-brand-300">Course home</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-slate-950 sm:text-4xl dark:text-white">{course.title}</h1>
      <div className="mt-6 grid gap-6 lg:grid-cols-[1fr_22rem]">
        <div className="space-y-6">
          {!enrolled && <EnrolBanner course={course} />}
          {completedAt && (
            <section
              aria-labelledby="complete-heading"
              className="flex flex-col gap-5 rounded-2xl border border-emerald-200 bg-emerald-50 p-6 sm:flex-row sm:items-center dark:border-emerald-900 dark:bg-emerald-950/40"
            >
              <span aria-hidden="true" className="flex size-12 shrink-0 items-center justify-center rounded-full bg-emerald-600 text-white dark:bg-emerald-500 dark:text-emerald-950">
                <CheckIcon className="size-6" />
              </span>
              <div className="flex-1">
                <h2 id="complete-heading" className="text-lg font-semibold text-slate-950 dark:text-white">
                  Course complete
                </h2>
                <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
                  You completed the last lesson on {formatDay(completedAt)}.{" "}
                  {certificateId ? "Your certificate is ready to view, print or share." : "Your certificate of completion is waiting for you."}
                </p>
              </div>
              <CertificateAction courseId={course.id} courseTitle={course.title} certificateId={certificateId} />
            </section>
          )}
          {enrolled && (
            <section aria-labelledby="progress-heading" className={cardClass({ className: "p-6" })}>
              <h2 id="progress-heading" className="text-lg font-semibold text-slate-950 dark:text-white">
                Your progress
              </h2>
              <div className="mt-4">
                <CourseProgress title={course.title} percent={percent} completed={completed} total={course.lessonCount} />
              </div>
              {(last || next) && (
                // One main action, full width on a phone; the first lesson not done, if it is another, is a quieter link under it.
                <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-center">
                  {last ? (
                    // Once the course is complete the certificate is the main action; going back to a lesson is secondary.
                    <ButtonLink
                      to={lessonPath(course.id, last.id)}
                      variant={completedAt ? "secondary" : "primary"}
                      className="inline-flex items-center justify-center gap-1.5 text-center"
                    >
                      Continue where you left off: {last.id} {last.title} <ArrowRightIcon className="size-4 shrink-0" />
                    </ButtonLink>
                  ) : (
                    next && (
                      <ButtonLink to={lessonPath(course.id, next.id)} className="inline-flex items-center justify-center gap-1.5 text-center">
                        {completed === 0 ? "Start the first lesson" : "Next lesson"}: {next.id} {next.title} <ArrowRightIcon className="size-4 shrink-0" />
                      </ButtonLink>
                    )
                  )}
                  {last && next && next.id !== last.id && (
                    <Link to={lessonPath(course.id, next.id)} className="text-sm font-semibold text-brand-700 hover:underline dark:text-brand-300">
                      First lesson not done yet: {next.id} {next.title}
                    </Link>
                  )}
                </div>
              )}
            </section>
          )}
          <section aria-labelledby="modules-heading">
            <div className="flex items-baseline justify-between">
              <h2 id="modules-heading" className="text-xl font-semibold text-slate-950 dark:text-white">
                Modules
              </h2>
              <Link to={`/courses/${course.id}/modules`} className="text-sm font-semibold text-brand-700 hover:underline dark:text-brand-300">
                All lessons
              </Link>
            </div>
            <ol className="mt-4 grid gap-3 sm:grid-cols-2">
              {outline.map((mod) => (
                <li key={mod.number} className="rounded-xl border border-slate-200 p-4 dark:border-slate-800">
                  <Link to={modulePath(course.id, mod.number)} className="font-semibold text-slate-950 hover:underline dark:text-white">
                    {mod.number}. {mod.title}
                  </Link>
                  <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
                    {mod.completed} of {mod.lessons.length} lessons done
                  </p>
                  <div aria-hidden="true" className="mt-2 h-1.5 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800">
                    <div className="h-full rounded-full bg-emerald-600" style={{ width: `${Math.round((mod.completed * 100) / mod.lessons.length)}%` }} />
                  </div>
                </li>
              ))}
            </ol>
          </section>
        </div>
        <aside className="space-y-3 text-sm text-slate-600 lg:pt-2 dark:text-slate-400">
          <p>
            {course.moduleCount} modules · {course.lessonCount} lessons
          </p>
          <ul className="space-y-3">
            <li>
              <Link to={`/course/${course.id}`} className="font-medium text-brand-700 hover:underline dark:text-brand-300">
                About this course
              </Link>
            </li>
            {enrolled && (
              <li>
                <Link to={`/course/${course.id}/feedback#your-review`} className="inline-flex items-center gap-1.5 font-medium text-brand-700 hover:underline dark:text-brand-300">
                  <StarIcon className="size-4" />
                  Rate this course
                </Link>
              </li>
            )}
            {certificateId && !completedAt && (
              <li>
                <Link to={certificatePath(certificateId)} className="inline-flex items-center gap-1.5 font-medium text-brand-700 hover:underline dark:text-brand-300">
                  <AwardIcon className="size-4" />
                  Your certificate
                </Link>
              </li>
            )}
          </ul>
        </aside>
      </div>
    </Container>
  );
}
