import { Form, Link } from "react-router";
import { z } from "zod";
import { formatMoment } from "../../../common/format.ts";
import { replyFor } from "../../../common/forms.ts";
import { appServices } from "../../../server/context.ts";
import { listOutbox, retryWaitingMail, type OutboxFilter } from "../../../server/staff/index.ts";
import { ReplyAlert } from "../../components/form-controls.tsx";
import { StatusBadge, type BadgeTone } from "../../components/status-badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Select, TextField } from "../../components/ui/field.tsx";
import { attemptFor, readForm, succeed } from "../forms.server.ts";
import type { Route } from "./+types/mail";
import { useSubmittingIntent } from "../../lib/use-submitting-intent.ts";
import { backOfficeMeta } from "./meta.ts";
import { OlderLink } from "./older-link.tsx";
import { actorFor, staffWith } from "./access.server.ts";
import { timeCursorIn, timeCursorText } from "./cursor.server.ts";
import { PageHeading, Section } from "./page-heading.tsx";
import { Choices, FilterForm } from "./filter-form.tsx";

const statuses = { pending: { label: "Waiting", tone: "warning" }, sent: { label: "Sent", tone: "success" }, failed: { label: "Given up", tone: "danger" } } as const satisfies Record<
  string,
  { label: string; tone: BadgeTone }
>;
const isStatus = (value: string): value is keyof typeof statuses => Object.hasOwn(statuses, value);

/** The outbox, newest first, by recipient and state; never a mail's text. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await staffWith(context, request, "mail.manage");
  const params = new URL(request.url).searchParams;
  const status = params.get("status") ?? "";
  const to = (params.get("to") ?? "").trim().slice(0, 320);
  const before = timeCursorIn(params);
  const filter: OutboxFilter = { status: isStatus(status) ? status : undefined, to: to || undefined, before };
  const page = await listOutbox(context.get(appServices).db, filter);
  return {
    filter: { status: filter.status ?? "", to },
    next: timeCursorText(page.next),
    mails: page.mails.map((mail) => ({
      ...mail,
      createdAt: mail.createdAt.toISOString(),
      sentAt: mail.sentAt?.toISOString() ?? null,
      nextAttemptAt: mail.nextAttemptAt.toISOString(),
    })),
  };
}

const retryForm = z.object({ intent: z.literal("retry", "Choose what to do with the outbox.") });

/** Sends the mail waiting out a retry now, once the mail server works again. */
export async function action({ request, context }: Route.ActionArgs) {
  const member = await staffWith(context, request, "mail.manage");
  const form = await readForm(request, retryForm);
  if (!form.ok) return form.reply;
  const { db, shop } = context.get(appServices);
  const done = await attemptFor(form, () => retryWaitingMail(db, actorFor(member, request)));
  if (!done.ok) return done.reply;
  shop.mailQueued();
  return succeed(form, done.value);
}

export const meta: Route.MetaFunction = () => backOfficeMeta("Mail");

export default function MailPage({ loaderData, actionData }: Route.ComponentProps) {
  const { mails, filter, next } = loaderData;
  const retrying = useSubmittingIntent()("retry");
  const answer = replyFor(actionData, "retry");
  return (
    <div className="space-y-6">
      <PageHeading
        title="Mail"
        lead="Every mail the site sent or is sending, newest first. A mail that cannot be delivered is tried eight times over about an hour, then given up; its text is not kept, as it may hold sign-in links, so send a new link from the customer's page instead."
      />
      <FilterForm clear={Boolean(filter.to || filter.status) && "/admin/mail"}>
        <TextField label="Recipient" name="to" type="email" defaultValue={filter.to} className="sm:w-80" />
        <Select label="State" name="status" defaultValue={filter.status}>
          <Choices any="Any" choices={Object.entries(statuses).map(([value, { label }]) => [value, label] as const)} />
        </Select>
      </FilterForm>
      <Section id="retry" title="The mail server is working again?">
        <ReplyAlert reply={answer} />
        <Form method="post">
          <input type="hidden" name="intent" value="retry" />
          <Button type="submit" variant="secondary" disabled={retrying}>
            {retrying ? "Sending…" : "Send waiting mail now"}
          </Button>
        </Form>
      </Section>
      {mails.length === 0 ? (
        <p className="text-slate-600 dark:text-slate-400">{filter.to || filter.status ? "No mail matches these filters." : "No mail has been sent yet."}</p>
      ) : (
        <ul className="divide-y divide-slate-200 dark:divide-slate-800" aria-label="Mail">
          {mails.map((mail) => (
            <li key={mail.id} className="flex flex-col gap-2 py-3 text-sm sm:flex-row sm:items-start sm:justify-between">
              <div className="min-w-0">
                <p className="font-medium text-slate-950 dark:text-white">{mail.subject}</p>
                <p className="break-all text-slate-600 dark:text-slate-400">
                  {mail.customerId ? (
                    <Link to={`/admin/customers/${mail.customerId}`} className="text-brand-700 underline underline-offset-2 dark:text-brand-300">
                      {mail.to}
                    </Link>
                  ) : (
                    mail.to
                  )}{" "}
                  · queued {formatMoment(mail.createdAt)}
                  {mail.sentAt && ` · sent ${formatMoment(mail.sentAt)}`}
                  {mail.status === "pending" && mail.attempts > 0 && ` · ${mail.attempts} failed ${mail.attempts === 1 ? "attempt" : "attempts"}, next ${formatMoment(mail.nextAttemptAt)}`}
                </p>
                {mail.lastError && mail.status !== "sent" && <p className="break-all text-red-700 dark:text-red-300">{mail.lastError}</p>}
              </div>
              <StatusBadge tone={statuses[mail.status].tone}>{statuses[mail.status].label}</StatusBadge>
            </li>
          ))}
        </ul>
      )}
      <OlderLink path="/admin/mail" filter={filter} next={next}>Older mail</OlderLink>
    </div>
  );
}
