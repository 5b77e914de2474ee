import { data } from "react-router";
import { z } from "zod";
import { formatDay } from "../../../common/format.ts";
import { replyFor } from "../../../common/forms.ts";
import { rolesAllow, staffReasonLength } from "../../../common/staff.ts";
import { courseWithdrawal } from "../../../server/catalog/index.ts";
import { appServices } from "../../../server/context.ts";
import { courseFigures, courseReach, setCoursePublished } from "../../../server/staff/index.ts";
import { ReplyAlert } from "../../components/form-controls.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { cardClass } from "../../components/ui/card.tsx";
import { ConfirmDialog } from "../../components/ui/dialog.tsx";
import { TextArea } from "../../components/ui/field.tsx";
import { attemptFor, readForm, succeed } from "../forms.server.ts";
import type { Route } from "./+types/course";
import { useSubmittingIntent } from "../../lib/use-submitting-intent.ts";
import { backOfficeMeta } from "./meta.ts";
import { actorFor, mayAlso, staffWith } from "./access.server.ts";
import { percentOf, ratingText } from "./course-figures.ts";
import { Fact } from "./fact.tsx";
import { PageHeading, Section } from "./page-heading.tsx";

/** One course's figures and, module by module, how many of its learners got there. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const member = await staffWith(context, request, "courses.view");
  const { db, catalog } = context.get(appServices);
  const course = catalog.courses.find((known) => known.id === params.courseId);
  if (!course) throw data({ message: "No course in the catalogue has this id." }, { status: 404 });
  const [[figures], reach, withdrawal] = await Promise.all([courseFigures(db, { courses: [course] }), courseReach(db, course), courseWithdrawal(db, course.id)]);
  return {
    figures,
    reach,
    withdrawal: withdrawal && { at: withdrawal.at.toISOString(), reason: withdrawal.reason },
    mayPublish: rolesAllow(member.roles, "courses.publish"),
  };
}

const publicationForm = z.object({
  intent: z.enum(["publish", "unpublish"], "Choose whether to publish or unpublish the course."),
  reason: z
    .string()
    .trim()
    .min(staffReasonLength.min, `Say why, in at least ${staffReasonLength.min} characters.`)
    .max(staffReasonLength.max, `Keep the reason to ${staffReasonLength.max} characters.`),
});

/** Takes the course off sale or puts it back, with the reason in the audit log. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const member = mayAlso(await staffWith(context, request, "courses.view"), "courses.publish");
  const form = await readForm(request, publicationForm);
  if (!form.ok) return form.reply;
  const { db, catalog } = context.get(appServices);
  const value = form.value;
  const done = await attemptFor(form, () => setCoursePublished(db, actorFor(member, request), catalog, params.courseId, { publish: value.intent === "publish", reason: value.reason }));
  if (!done.ok) return done.reply;
  return succeed(form, done.value);
}

export const meta: Route.MetaFunction = ({ loaderData }) => backOfficeMeta(loaderData?.figures ? `${loaderData.figures.title} · Courses` : "Course");


const reasonInput = <TextArea label="Why (kept in the audit log)" name="reason" required minLength={staffReasonLength.min} maxLength={staffReasonLength.max} rows={3} />;

export default function CoursePage({ loaderData: { figures, reach, withdrawal, mayPublish }, actionData }: Route.ComponentProps) {
  const sending = useSubmittingIntent();
  const answer = replyFor(actionData, "publish", "unpublish");
  if (!figures) return null;
  return (
    <div className="space-y-8">
      <PageHeading title={figures.title} back={{ to: "/admin/courses", label: "Courses" }}>
        <div className="mt-3 flex flex-wrap items-center gap-3">
          {figures.onSale ? <Badge tone="success">On sale</Badge> : <Badge tone="warning">Off sale</Badge>}
          {withdrawal && (
            <span className="text-slate-700 dark:text-slate-300">
              Since {formatDay(withdrawal.at)}: {withdrawal.reason}
            </span>
          )}
        </div>
      </PageHeading>

      {mayPublish && (
        <Section id="publishing" title="Publishing" className="space-y-4">
          <ReplyAlert reply={answer} />
          {figures.onSale ? (
            <ConfirmDialog
              trigger="Unpublish…"
              triggerStyle={{ variant: "danger-outline" }}
              title={`Take ${figures.title} off sale?`}
              fields={{ intent: "unpublish" }}
              inputs={reasonInput}
              confirmLabel="Unpublish"
              pendingLabel="Unpublishing…"
              pending={sending("unpublish")}
            >
              It leaves the catalogue, its search, the home page and the sitemap, and nobody new can buy it. The {figures.learners}{" "}
              {figures.learners === 1 ? "person who has it keeps" : "people who have it keep"} it.
            </ConfirmDialog>
          ) : (
            <ConfirmDialog
              trigger="Publish…"
              triggerStyle={{ variant: "secondary" }}
              title={`Put ${figures.title} back on sale?`}
              fields={{ intent: "publish" }}
              inputs={reasonInput}
              confirmLabel="Publish"
              pendingLabel="Publishing…"
              pending={sending("publish")}
            >
              It returns to the catalogue, its search, the home page and the sitemap, and anyone can buy it again.
            </ConfirmDialog>
          )}
        </Section>
      )}
      <dl className={cardClass({ className: "grid gap-4 p-6 sm:grid-cols-4" })}>
        <Fact term="Learners">{figures.learners}</Fact>
        <Fact term="Finished">
          {figures.completions} ({percentOf(figures.completions, figures.learners)}%)
        </Fact>
        <Fact term="Refunded">{figures.refunded}</Fact>
        <Fact term="Rating">{ratingText(figures)}</Fact>
      </dl>
      <Section id="reach" title="Where learners stop">
        {reach.learners === 0 ? (
          <p className="text-slate-600 dark:text-slate-400">No one is learning this course yet.</p>
        ) : (
          <>
            <p className="max-w-3xl text-slate-600 dark:text-slate-400">
              Of the {reach.learners} {reach.learners === 1 ? "person" : "people"} who may open the course now, how many completed at least one lesson of each module. A drop
              from one module to the next is where learners stop.
            </p>
            <ol className="space-y-4" aria-label="Modules">
            {reach.modules.map((module, index) => {
              const share = percentOf(module.reached, reach.learners);
              return (
                <li key={module.title} className="space-y-1">
                  <p className="flex justify-between gap-4 text-sm">
                    <span className="font-medium text-slate-950 dark:text-white">
                      {index + 1}. {module.title}
                    </span>
                    <span className="shrink-0 tabular-nums text-slate-700 dark:text-slate-300">
                      {share}% ({module.reached} of {reach.learners})
                    </span>
                  </p>
                  <div className="h-2 rounded-full bg-slate-200 dark:bg-slate-800" aria-hidden="true">
                    <div className="h-2 rounded-full bg-brand-600 dark:bg-brand-400" style={{ width: `${share}%` }} />
                  </div>
                </li>
              );
            })}
            </ol>
          </>
        )}
      </Section>
    </div>
  );
}
