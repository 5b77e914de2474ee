import { data, Link } from "react-router";
import { courseOffSale, sharedCoursesOnSale } from "../../../server/catalog/index.ts";
import { coursePlayerPath, isEnrolled } from "../../../server/commerce/index.ts";
import { appServices, documentRequest, viewerContext } from "../../../server/context.ts";
import { sharedCourseRating, sharedNewestReviews } from "../../../server/feedback/index.ts";
import { BackLink } from "../../components/back-link.tsx";
import { CheckList } from "../../components/check-list.tsx";
import { ContentImage } from "../../components/content-image.tsx";
import { coursePriceLabel, CourseSyllabus } from "../../components/course-syllabus.tsx";
import { ReviewCard } from "../../components/feedback/review-card.tsx";
import { allReviewsLink, ratingText, reviewCount, Stars } from "../../components/feedback/stars.tsx";
import { BookIcon, ClockIcon, SignalIcon, StarIcon } from "../../components/icons.tsx";
import { Container, Prose } from "../../components/page-intro.tsx";
import { PersonProfile } from "../../components/person-profile.tsx";
import { formatDuration, levelLabel } from "../../../common/format.ts";
import { pageMeta, rootData } from "../../lib/seo.ts";
import { htmlOnce, useHtmlOnce } from "../../lib/server-html.ts";
import type { Route } from "./+types/course";
import { ButtonLink } from "../../components/ui/button.tsx";
import { cardClass } from "../../components/ui/card.tsx";
import { StickyActionBar } from "../../components/ui/sticky-action-bar.tsx";
import { syllabusHtml } from "./course-syllabus.server.tsx";

/** The elements the course's description and syllabus are rendered in (app/lib/server-html.ts). */
const courseDescriptionId = "course-description";
const courseSyllabusId = "course-syllabus";

export async function loader({ params, context }: Route.LoaderArgs) {
  const { catalog, db, cipher, sharedReads } = context.get(appServices);
  const viewer = context.get(viewerContext);
  const course = catalog.courses.find((c) => c.id === params.courseId);
  if (!course) throw data(null, { status: 404 });
  const instructor = catalog.team.find((m) => m.id === course.instructor);
  // Only signed-in pages ask whether it is theirs; anonymous pages stay cacheable.
  const [rating, reviews, onSale, owned] = await Promise.all([
    sharedCourseRating(sharedReads, db, course.id),
    sharedNewestReviews(sharedReads, db, cipher, course.id, 3),
    sharedCoursesOnSale(sharedReads, db),
    viewer ? isEnrolled(db, viewer.id, course.id) : false,
  ]);
  if (!onSale.has(course.id) && !owned) throw data({ message: courseOffSale }, { status: 410 });
  return {
    // What the page shows of the course, no more: its data travels in the page a second time for hydration.
    course: {
      id: course.id,
      title: course.title,
      summary: course.summary,
      category: course.category,
      level: course.level,
      price: course.price,
      cover: course.cover,
      outcomes: course.outcomes,
      audience: course.audience,
      prerequisites: course.prerequisites,
      totalMinutes: course.totalMinutes,
      lessonCount: course.lessonCount,
      videoLessonCount: course.videoLessonCount,
      description: htmlOnce(context.get(documentRequest), courseDescriptionId, course.descriptionHtml),
      moduleCount: course.modules.length,
      syllabus: htmlOnce(context.get(documentRequest), courseSyllabusId, syllabusHtml(catalog, course, owned)),
    },
    instructor: instructor && { name: instructor.name, role: instructor.role, bioHtml: instructor.bioHtml, portrait: instructor.portrait },
    refund: catalog.site.refund,
    taxMode: catalog.site.tax.mode,
    rating: { average: rating.average, count: rating.count },
    reviews,
    playerPath: owned ? coursePlayerPath(course.id) : null,
  };
}

export const meta: Route.MetaFunction = (args) => {
  if (!args.loaderData) return [];
  const { course, instructor, rating } = args.loaderData;
  const root = rootData(args.matches);
  return [
    ...pageMeta(args, { title: course.title, description: course.summary }),
    {
      "script:ld+json": {
        "@context": "https://schema.org",
        "@type": "Course",
        "@id": `${root?.origin ?? ""}/course/${course.id}`,
        name: course.title,
        description: course.summary,
        url: `${root?.origin ?? ""}/course/${course.id}`,
        inLanguage: "en-IN",
        educationalLevel: levelLabel[course.level],
        teaches: course.outcomes,
        coursePrerequisites: course.prerequisites,
        provider: { "@type": "Organization", name: root?.site.legalName ?? "Academy", url: root?.origin },
        ...(instructor && { instructor: { "@type": "Person", name: instructor.name, jobTitle: instructor.role } }),
        offers: {
          "@type": "Offer",
          category: "Paid",
          price: (course.price.amount / 100).toFixed(2),
          priceCurrency: course.price.currency,
          availability: "https://schema.org/InStock",
          url: `${root?.origin ?? ""}/course/${course.id}`,
        },
        hasCourseInstance: {
          "@type": "CourseInstance",
          courseMode: "Online",
          courseWorkload: `PT${Math.floor(course.totalMinutes / 60)}H${course.totalMinutes % 60}M`,
        },
        ...(rating.count > 0 && {
          aggregateRating: {
            "@type": "AggregateRating",
            ratingValue: rating.average.toFixed(1),
            ratingCount: rating.count,
            reviewCount: rating.count,
            bestRating: 5,
            worstRating: 1,
          },
        }),
      },
    },
  ];
};

/** What the lessons are made of, as the lessons say: video only where a lesson has one. */
function lessonFormat(course: { lessonCount: number; videoLessonCount: number }): string {
  if (course.videoLessonCount === 0) return "Written lessons";
  if (course.videoLessonCount === course.lessonCount) return "Video lessons";
  return `${course.videoLessonCount} video and ${course.lessonCount - course.videoLessonCount} written lessons`;
}

/** The price and the one button that matters, in the hero on phones: enrol, or go to the course when it is already yours. */
interface EnrolOffer {
  /** "₹4,999" or "Free". */
  price: string;
  enrolPath: string;
  enrolLabel: string;
}

function EnrolCall({ offer, owned, note }: { offer: EnrolOffer; owned: boolean; note: string }) {
  return (
    <div className="mt-8 flex flex-wrap items-center gap-x-5 gap-y-3 lg:hidden">
      <div className="min-w-0">
        <p className="text-2xl font-bold text-slate-950 dark:text-white">{owned ? "You own this course" : offer.price}</p>
        {!owned && <p className="text-xs text-slate-600 dark:text-slate-400">{note}</p>}
      </div>
      <ButtonLink to={offer.enrolPath} size="xl" className="shrink-0 text-center">
        {offer.enrolLabel}
      </ButtonLink>
    </div>
  );
}

export default function CoursePage({ loaderData }: Route.ComponentProps) {
  const { course, instructor, refund, taxMode, playerPath, rating, reviews } = loaderData;
  const description = useHtmlOnce(courseDescriptionId, course.description);
  const syllabus = useHtmlOnce(courseSyllabusId, course.syllabus);
  const free = course.price.amount === 0;
  const offer: EnrolOffer = {
    price: coursePriceLabel(course.price),
    enrolPath: playerPath ?? `/courses/${course.id}/confirm`,
    enrolLabel: playerPath ? "Go to course" : free ? "Enrol for free" : "Enrol now",
  };
  const priceNote = free ? "Lifetime access" : `${taxMode === "inclusive" ? "Includes GST" : "Plus GST"} · one-time payment`;
  return (
    <div>
      <section className="border-b border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900/50">
        <Container className="py-10 sm:py-14">
          <BackLink fallback="/courses" label="Back to courses" />
          <div className="grid items-center gap-8 lg:grid-cols-[1fr_24rem]">
            <div className="min-w-0">
              <p className="mt-6 text-sm font-semibold uppercase tracking-wide text-brand-700 dark:text-brand-300">
                {course.category}
              </p>
              <h1 className="mt-2 max-w-3xl text-3xl font-bold tracking-tight text-slate-950 sm:text-4xl dark:text-white">
                {course.title}
              </h1>
              <p className="mt-4 max-w-3xl text-lg leading-8 text-slate-600 dark:text-slate-300">{course.summary}</p>
              <ul className="mt-6 flex flex-wrap gap-x-6 gap-y-2 text-sm text-slate-700 dark:text-slate-300">
                <li className="inline-flex items-center gap-1.5">
                  <SignalIcon className="size-4" /> {levelLabel[course.level]}
                </li>
                <li className="inline-flex items-center gap-1.5">
                  <ClockIcon className="size-4" /> {formatDuration(course.totalMinutes)} of lessons
                </li>
                <li className="inline-flex items-center gap-1.5">
                  <BookIcon className="size-4" /> {course.moduleCount} modules · {course.lessonCount} lessons
                </li>
                <li>{lessonFormat(course)}</li>
                <li>
                  <Link
                    to={`/course/${course.id}/feedback`}
                    className="inline-flex items-center gap-1.5 underline underline-offset-2 hover:text-slate-950 dark:hover:text-white"
                  >
                    {rating.count > 0 ? (
                      <>
                        <Stars rating={rating.average} />
                        <span aria-hidden="true">
                          {rating.average.toFixed(1)} · {reviewCount(rating.count)}
                        </span>
                        <span className="sr-only">{ratingText(rating)}</span>
                      </>
                    ) : (
                      <>
                        <StarIcon className="size-4" /> No reviews yet
                      </>
                    )}
                  </Link>
                </li>
              </ul>
              <EnrolCall offer={offer} owned={playerPath !== null} note={priceNote} />
            </div>
            <ContentImage picture={course.cover} eager className="w-full rounded-2xl shadow-sm ring-1 ring-slate-900/5 dark:ring-white/10" />
          </div>
        </Container>
      </section>

      <Container className="grid gap-12 py-12 lg:grid-cols-[1fr_20rem]">
        <div className="min-w-0">
          <section aria-labelledby="outcomes">
            <h2 id="outcomes" className="text-2xl font-bold text-slate-950 dark:text-white">
              What you will learn
            </h2>
            <CheckList items={course.outcomes} className="mt-5 grid gap-3 sm:grid-cols-2" />
          </section>

          <section aria-labelledby="about" className="mt-12">
            <h2 id="about" className="text-2xl font-bold text-slate-950 dark:text-white">
              About this course
            </h2>
            <Prose id={courseDescriptionId} html={description} className="mt-4" />
          </section>

          <section aria-labelledby="syllabus" className="mt-12">
            <h2 id="syllabus" className="text-2xl font-bold text-slate-950 dark:text-white">
              Syllabus
            </h2>
            <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
              {course.moduleCount} modules · {course.lessonCount} lessons · {formatDuration(course.totalMinutes)} of
              lessons, each with exercises, and a final project
            </p>
            <CourseSyllabus id={courseSyllabusId} html={syllabus} />
          </section>

          <section aria-labelledby="audience" className="mt-12 grid gap-8 sm:grid-cols-2">
            <div>
              <h2 id="audience" className="text-xl font-bold text-slate-950 dark:text-white">
                Who it is for
              </h2>
              <ul className="mt-3 list-disc space-y-1 pl-5 text-slate-700 dark:text-slate-300">
                {course.audience.map((a) => (
                  <li key={a}>{a}</li>
                ))}
              </ul>
            </div>
            <div>
              <h2 className="text-xl font-bold text-slate-950 dark:text-white">Before you start</h2>
              {course.prerequisites.length > 0 ? (
                <ul className="mt-3 list-disc space-y-1 pl-5 text-slate-700 dark:text-slate-300">
                  {course.prerequisites.map((p) => (
                    <li key={p}>{p}</li>
                  ))}
                </ul>
              ) : (
                <p className="mt-3 text-slate-700 dark:text-slate-300">No prior experience needed.</p>
              )}
            </div>
          </section>

          <section aria-labelledby="course-reviews" className="mt-12">
            <div className="flex flex-wrap items-baseline justify-between gap-3">
              <h2 id="course-reviews" className="text-2xl font-bold text-slate-950 dark:text-white">
                What learners say
              </h2>
              {rating.count > 0 && (
                <Link to={`/course/${course.id}/feedback`} className="text-sm font-semibold text-brand-700 hover:underline dark:text-brand-300">
                  {allReviewsLink(rating.count)}
                </Link>
              )}
            </div>
            {reviews.length > 0 ? (
              <ul className="mt-5 grid gap-4">
                {reviews.map((review) => (
                  <li key={review.id}>
                    <ReviewCard review={review} />
                  </li>
                ))}
              </ul>
            ) : (
              <p className="mt-3 text-slate-700 dark:text-slate-300">
                No reviews yet. Learners enrolled in this course can{" "}
                <Link to={`/course/${course.id}/feedback`} className="font-semibold text-brand-700 underline underline-offset-2 dark:text-brand-300">
                  share their feedback
                </Link>
                .
              </p>
            )}
          </section>

          {instructor && (
            <section aria-labelledby="instructor" className="mt-12">
              <h2 id="instructor" className="text-xl font-bold text-slate-950 dark:text-white">
                Your instructor
              </h2>
              <div className="mt-4 rounded-xl border border-slate-200 p-5 dark:border-slate-800">
                <PersonProfile person={instructor} headingLevel={3} />
              </div>
            </section>
          )}
        </div>

        <aside aria-label="Enrol" id="enrol" className="lg:sticky lg:top-24 lg:self-start">
          <div className={cardClass({ raised: true, className: "p-6" })}>
            {playerPath ? (
              <p className="text-lg font-semibold text-slate-950 dark:text-white">You own this course</p>
            ) : (
              <>
                <p className="text-3xl font-bold text-slate-950 dark:text-white">{offer.price}</p>
                {!free && (
                  <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
                    {taxMode === "inclusive" ? "Price includes GST" : "GST is added at checkout"} · one-time payment
                  </p>
                )}
              </>
            )}
            <ButtonLink
              to={offer.enrolPath}
              size="lg"
              className="mt-5 block text-center"
            >
              {offer.enrolLabel}
            </ButtonLink>
            <CheckList
              small
              className="mt-6 space-y-2"
              items={[
                `${course.lessonCount} lessons across ${course.moduleCount} modules, ${formatDuration(course.totalMinutes)} in all`,
                "Self-paced, with lifetime access",
                "Hands-on exercises and a final project",
                "Certificate of completion",
                `Refund within ${refund.windowDays} days if you have completed less than ${refund.maxProgressPercent}%`,
              ]}
            />
            <p className="mt-4 text-xs text-slate-600 dark:text-slate-400">
              See the{" "}
              <Link to="/cancellation-refund" className="underline underline-offset-2">
                cancellation &amp; refund policy
              </Link>
              .
            </p>
          </div>
        </aside>
      </Container>
      <StickyActionBar
        label="Buy this course"
        price={playerPath ? "You own this course" : offer.price}
        note={playerPath ? null : free ? "Lifetime access" : "One-time payment"}
        action={
          <ButtonLink to={offer.enrolPath} size="lg" className="text-center">
            {offer.enrolLabel}
          </ButtonLink>
        }
      />
    </div>
  );
}
