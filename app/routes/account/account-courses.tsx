import { Link } from "react-router";
import { coursePlayerPath, listOwnedCourses } from "../../../server/commerce/index.ts";
import { appServices, requireViewer } from "../../../server/context.ts";
import { issuedCertificateIds, listCertificates } from "../../../server/learning/index.ts";
import { AccountEmptyState } from "../../components/account-empty-state.tsx";
import { CertificateAction, certificatePath } from "../../components/certificate/certificate-action.tsx";
import { CourseProgress, courseActionLabel } from "../../components/account-progress.tsx";
import { CourseFacts } from "../../components/course-card.tsx";
import { ArrowRightIcon, AwardIcon } from "../../components/icons.tsx";
import { StatusBadge } from "../../components/status-badge.tsx";
import { formatDay } from "../../../common/format.ts";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/account-courses";
import { ButtonLink } from "../../components/ui/button.tsx";
import { cardClass } from "../../components/ui/card.tsx";

export async function loader({ context }: Route.LoaderArgs) {
  const viewer = requireViewer(context);
  const { catalog, cipher, db } = context.get(appServices);
  const owned = await listOwnedCourses(db, catalog, viewer.id);
  const standing = (await listCertificates(db, cipher, viewer.id)).filter((c) => c.revokedAt === null);
  const certificates = await issuedCertificateIds(
    db,
    viewer.id,
    owned.filter((o) => o.percent === 100).map((o) => o.course.id),
  );
  return {
    courses: owned.map((o) => ({
      id: o.course.id,
      title: o.course.title,
      summary: o.course.summary,
      category: o.course.category,
      level: o.course.level,
      durationHours: o.course.durationHours,
      lessonCount: o.course.lessonCount,
      completedLessons: o.completedLessons,
      percent: o.percent,
      enrolledAt: o.enrolledAt,
      playerPath: coursePlayerPath(o.course.id),
      certificateId: certificates.get(o.course.id) ?? null,
    })),
    certificates: standing.toReversed().map((c) => ({ id: c.id, courseTitle: c.courseTitle, issuedAt: c.issuedAt })),
  };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Your courses", description: "The courses you are enrolled in and how far you have got." });

export default function AccountCourses({ loaderData }: Route.ComponentProps) {
  const { courses, certificates } = loaderData;
  return (
    <>
      <section aria-labelledby="courses-heading">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="courses-heading" className="text-xl font-semibold tracking-tight text-slate-950 dark:text-white">
            Your courses
          </h2>
          {courses.length > 0 && (
            <p className="text-sm text-slate-600 dark:text-slate-400">
              {courses.length} {courses.length === 1 ? "course" : "courses"}
            </p>
          )}
        </div>

        {courses.length === 0 ? (
          <div className="mt-6">
            <AccountEmptyState title="You have not enrolled in a course yet" action={{ to: "/courses", label: "Browse courses" }}>
              Courses you buy appear here, with your progress and a button to pick up where you left off.
            </AccountEmptyState>
          </div>
        ) : (
          <ul className="mt-6 grid gap-6 lg:grid-cols-2">
            {courses.map((course) => (
              <li key={course.id}>
                <article
                  id={course.id}
                  aria-labelledby={`${course.id}-title`}
                  className={cardClass({ raised: true, className: "flex h-full scroll-mt-24 flex-col p-6 target:ring-2 target:ring-brand-500" })}
                >
                  <p className="text-xs font-semibold uppercase tracking-wide text-brand-700 dark:text-brand-300">{course.category}</p>
                  <h3 id={`${course.id}-title`} className="mt-2 text-lg font-semibold text-slate-950 dark:text-white">
                    <Link to={`/course/${course.id}`} className="hover:underline">
                      {course.title}
                    </Link>
                  </h3>
                  <p className="mt-2 text-sm leading-6 text-slate-600 dark:text-slate-400">{course.summary}</p>
                  <CourseFacts course={course} />
                  <div className="mt-5 flex-1">
                    <CourseProgress title={course.title} percent={course.percent} completed={course.completedLessons} total={course.lessonCount} />
                  </div>
                  <div className="mt-6 flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 pt-4 dark:border-slate-800">
                    <p className="flex flex-wrap items-center gap-2 text-sm text-slate-600 dark:text-slate-400">
                      {course.percent === 100 && <StatusBadge tone="success">Completed</StatusBadge>}
                      Enrolled on {formatDay(course.enrolledAt)}
                    </p>
                    <div className="flex flex-wrap gap-3">
                      {course.percent === 100 && <CertificateAction courseId={course.id} courseTitle={course.title} certificateId={course.certificateId} compact />}
                      <ButtonLink
                        to={course.playerPath}
                        className="inline-flex items-center gap-1.5"
                      >
                        {courseActionLabel(course.percent)}
                        <span className="sr-only"> {course.title}</span>
                        <ArrowRightIcon className="size-4" />
                      </ButtonLink>
                    </div>
                  </div>
                </article>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section id="certificates" aria-labelledby="certificates-heading" className="mt-12 scroll-mt-24">
        <h2 id="certificates-heading" className="text-xl font-semibold tracking-tight text-slate-950 dark:text-white">
          Your certificates
        </h2>
        {certificates.length === 0 ? (
          <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">
            Finish every lesson of a course and its certificate appears here, ready to share or add to LinkedIn.
          </p>
        ) : (
          <ul className={cardClass({ className: "mt-4 divide-y divide-slate-200 bg-white dark:divide-slate-800 dark:bg-slate-900" })}>
            {certificates.map((c) => (
              <li key={c.id} className="flex flex-wrap items-center justify-between gap-3 px-5 py-4">
                <div className="flex min-w-0 items-center gap-3">
                  <AwardIcon aria-hidden="true" className="size-5 shrink-0 text-brand-600 dark:text-brand-300" />
                  <p className="min-w-0 text-sm">
                    <span className="block font-semibold text-slate-950 dark:text-white">{c.courseTitle}</span>
                    <span className="block text-slate-600 dark:text-slate-400">
                      Issued on {formatDay(c.issuedAt)} · <span className="font-mono">{c.id}</span>
                    </span>
                  </p>
                </div>
                <Link to={certificatePath(c.id)} className="text-sm font-semibold text-brand-700 hover:underline dark:text-brand-300">
                  View<span className="sr-only"> the certificate for {c.courseTitle}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
