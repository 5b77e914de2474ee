import { Link, redirect } from "react-router";
import { courseStats, noStats } from "../../../server/catalog/index.ts";
import { appServices } from "../../../server/context.ts";
import { findCertificate, issuedCertificateIds, recommendedCourses } from "../../../server/learning/index.ts";
import { CertificateAction, certificatePath, certificatePdfPath } from "../../components/certificate/certificate-action.tsx";
import { CourseCard, toCourseSummary } from "../../components/course-card.tsx";
import { ArrowRightIcon, AwardIcon, CheckIcon, StarIcon } from "../../components/icons.tsx";
import { lessonPath } from "../../lib/course-paths.ts";
import { Container } from "../../components/page-intro.tsx";
import { formatDay } from "../../../common/format.ts";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/learn-complete";
import { loadCourseState } from "./player.server.ts";
import { buttonClass } from "../../components/ui/button.tsx";
import { cardClass } from "../../components/ui/card.tsx";

/** LinkedIn's add-to-profile link, prefilled with the certificate (https://addtoprofile.linkedin.com). */
export function linkedInAddUrl(certificate: { id: string; courseTitle: string; issuedAt: Date }, issuer: string, verifyUrl: string): string {
  const url = new URL("https://www.linkedin.com/profile/add");
  url.search = new URLSearchParams({
    startTask: "CERTIFICATION_NAME",
    name: certificate.courseTitle,
    organizationName: issuer,
    issueYear: String(certificate.issuedAt.getUTCFullYear()),
    issueMonth: String(certificate.issuedAt.getUTCMonth() + 1),
    certUrl: verifyUrl,
    certId: certificate.id,
  }).toString();
  return url.toString();
}

/** The finish line: the certificate issued with the last lesson, ways to share it, and what to learn next. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { state, db, viewer, catalog } = await loadCourseState(context, params.courseId);
  if (!state.enrolled) throw redirect(`/course/${state.course.id}`);
  const { cipher, publicUrl } = context.get(appServices);
  const remaining = state.course.modules.flatMap((m) => m.lessons).filter((l) => !state.completed.has(l.id));
  const certificateId = (await issuedCertificateIds(db, viewer.id, [state.course.id])).get(state.course.id);
  const certificate = certificateId ? await findCertificate(db, cipher, certificateId) : null;
  const stats = await courseStats(db);
  const nextCourses = (await recommendedCourses(db, catalog, viewer.id, state.course)).map((c) => toCourseSummary(c, catalog.team, stats.get(c.id) ?? noStats));
  const verifyUrl = certificate && `${publicUrl}${certificatePath(certificate.id)}`;
  return {
    course: { id: state.course.id, title: state.course.title, lessonCount: state.course.lessonCount },
    remaining: remaining.map((l) => ({ id: l.id, title: l.title })),
    certificate: certificate &&
      verifyUrl && {
        id: certificate.id,
        issuedAt: certificate.issuedAt,
        verifyUrl,
        linkedIn: linkedInAddUrl(certificate, catalog.site.name, verifyUrl),
      },
    nextCourses,
  };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: args.loaderData?.remaining.length === 0 ? `You finished ${args.loaderData.course.title}` : `Almost there · ${args.loaderData?.course.title ?? "Course"}`,
    description: "Your certificate, and what to learn next.",
  });

const withIcon = "inline-flex items-center justify-center gap-2";
const primary = buttonClass({ className: withIcon });
const secondary = buttonClass({ variant: "secondary", className: withIcon });

export default function CourseComplete({ loaderData }: Route.ComponentProps) {
  const { course, remaining, certificate, nextCourses } = loaderData;
  if (remaining.length > 0) {
    const [first] = remaining;
    return (
      <Container className="max-w-3xl py-12 sm:py-16">
        <h1 className="text-3xl font-bold tracking-tight text-slate-950 sm:text-4xl dark:text-white">Almost there</h1>
        <p className="mt-4 text-lg text-slate-700 dark:text-slate-300">
          You have completed {course.lessonCount - remaining.length} of {course.lessonCount} lessons of {course.title}. Complete{" "}
          {remaining.length === 1 ? "this one" : `these ${remaining.length}`} to finish the course and get your certificate:
        </p>
        <ul className={cardClass({ className: "mt-6 divide-y divide-slate-200 dark:divide-slate-800" })}>
          {remaining.map((l) => (
            <li key={l.id}>
              <Link to={lessonPath(course.id, l.id)} className="flex items-center justify-between gap-3 px-5 py-3 hover:bg-slate-50 dark:hover:bg-slate-900">
                <span>
                  <span className="text-sm text-slate-500 dark:text-slate-400">{l.id}</span> {l.title}
                </span>
                <ArrowRightIcon className="size-4 shrink-0 text-slate-400" />
              </Link>
            </li>
          ))}
        </ul>
        {first && (
          <Link to={lessonPath(course.id, first.id)} className={`mt-8 ${primary}`}>
            Go to lesson {first.id} <ArrowRightIcon className="size-4" />
          </Link>
        )}
      </Container>
    );
  }
  return (
    <Container className="py-12 sm:py-16">
      <section aria-labelledby="finished-heading" className="mx-auto max-w-3xl text-center">
        <span
          aria-hidden="true"
          className="mx-auto flex size-16 items-center justify-center rounded-full bg-emerald-600 text-white dark:bg-emerald-500 dark:text-emerald-950"
        >
          <CheckIcon className="size-8" />
        </span>
        <h1 id="finished-heading" className="mt-6 text-3xl font-bold tracking-tight text-slate-950 sm:text-4xl dark:text-white">
          You finished {course.title}
        </h1>
        <p className="mt-4 text-lg text-slate-700 dark:text-slate-300">All {course.lessonCount} lessons complete. Well done.</p>
        {certificate ? (
          <div className={cardClass({ raised: true, className: "mt-8 p-6 text-left" })}>
            <h2 className="flex items-center gap-2 text-lg font-semibold text-slate-950 dark:text-white">
              <AwardIcon className="size-5 text-brand-600 dark:text-brand-300" /> Your certificate
            </h2>
            <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">
              Issued on {formatDay(certificate.issuedAt)}, ID <span className="whitespace-nowrap font-mono">{certificate.id}</span>. Anyone can check it at{" "}
              <Link to={certificatePath(certificate.id)} className="break-all font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300">
                {certificate.verifyUrl}
              </Link>
              .
            </p>
            <div className="mt-5 flex flex-col gap-3 sm:flex-row sm:flex-wrap">
              <Link to={certificatePdfPath(certificate.id)} reloadDocument className={primary}>
                <AwardIcon className="size-4" /> View and download (PDF)
              </Link>
              <a href={certificate.linkedIn} target="_blank" rel="noopener noreferrer" className={secondary}>
                Add to LinkedIn<span className="sr-only"> (opens in a new tab)</span>
              </a>
              <Link to={`/course/${course.id}/feedback#your-review`} className={secondary}>
                <StarIcon className="size-4" /> Rate this course
              </Link>
            </div>
          </div>
        ) : (
          <div className="mt-8 flex flex-col items-center gap-3">
            <p className="text-slate-700 dark:text-slate-300">Your certificate of completion is waiting for you.</p>
            <CertificateAction courseId={course.id} courseTitle={course.title} certificateId={null} />
          </div>
        )}
      </section>
      {nextCourses.length > 0 && (
        <section aria-labelledby="next-heading" className="mt-16">
          <h2 id="next-heading" className="text-2xl font-bold tracking-tight text-slate-950 dark:text-white">
            What to learn next
          </h2>
          <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {nextCourses.map((c) => (
              <li key={c.id}>
                <CourseCard course={c} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </Container>
  );
}
