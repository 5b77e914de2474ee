import { data, Link } from "react-router";
import { z } from "zod";
import { formatDay, formatOrderNumber, formatPaise } from "../../../common/format.ts";
import { replyFor } from "../../../common/forms.ts";
import { rolesAllow, staffReasonLength } from "../../../common/staff.ts";
import { appServices } from "../../../server/context.ts";
import { cancelWebsiteForOwner, changeWebsiteDomain, extendWebsite, setWebsiteSuspended, staffWebsite } from "../../../server/staff/index.ts";
import { ReplyAlert } from "../../components/form-controls.tsx";
import { WebsiteStatusBadge } from "../../components/status-badge.tsx";
import { cardClass } from "../../components/ui/card.tsx";
import { ConfirmDialog } from "../../components/ui/dialog.tsx";
import { TextArea, TextField } from "../../components/ui/field.tsx";
import { attemptFor, readForm, succeed } from "../forms.server.ts";
import type { Route } from "./+types/website";
import { useSubmittingIntent } from "../../lib/use-submitting-intent.ts";
import { backOfficeMeta } from "./meta.ts";
import { actorFor, mayAlso, staffWith } from "./access.server.ts";
import { Fact } from "./fact.tsx";
import { PageHeading, Section } from "./page-heading.tsx";
import { OrderRecords, RecordList } from "./record-list.tsx";

/** One website with its owner, its paid periods and every order for it. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const member = await staffWith(context, request, "websites.view");
  const { db, catalog } = context.get(appServices);
  const site = await staffWebsite(db, params.websiteId, new Date());
  if (!site) throw data({ message: "No website has this id: its owner may have deleted their account." }, { status: 404 });
  const plans = catalog.services.find((service) => service.id === site.serviceId)?.plans ?? [];
  const planName = (id: string) => plans.find((plan) => plan.id === id)?.name ?? id;
  const live = site.startedAt !== null && site.cancelledAt === null;
  const mayManage = rolesAllow(member.roles, "websites.manage");
  return {
    id: site.id,
    domain: site.domain,
    state: site.state,
    plan: planName(site.planId),
    owner: site.owner,
    startedAt: site.startedAt?.toISOString() ?? null,
    expiresAt: site.expiresAt?.toISOString() ?? null,
    cancelledAt: site.cancelledAt?.toISOString() ?? null,
    suspendedReason: site.suspendedReason,
    periods: site.periods.map((period) => ({ id: period.id, plan: planName(period.planId), startsAt: period.startsAt.toISOString(), endsAt: period.endsAt.toISOString(), order: formatOrderNumber(period.order.number) })),
    orders: site.orders.map((order) => ({ ...order, number: formatOrderNumber(order.number), amount: formatPaise(order.amount), createdAt: order.createdAt.toISOString() })),
    mayChangeDomain: mayManage && site.cancelledAt === null,
    mayExtend: mayManage && live,
    maySuspend: mayManage && live,
    mayCancel: mayManage && live,
    suspended: site.suspendedAt !== null,
    extendKey: crypto.randomUUID(),
    mayOpenCustomers: rolesAllow(member.roles, "customers.view"),
    mayOpenOrders: rolesAllow(member.roles, "orders.view"),
  };
}

const reason = (what: string) =>
  z
    .string()
    .trim()
    .min(staffReasonLength.min, `Say ${what}, in at least ${staffReasonLength.min} characters.`)
    .max(staffReasonLength.max, `Keep the reason to ${staffReasonLength.max} characters.`);

const websiteForm = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("change-domain"), domain: z.string().trim().min(1, "Type the new domain, such as example.in.").max(253, "A domain has at most 253 characters.") }),
    z.object({ intent: z.literal("extend"), reason: reason("why this website gets a period without payment"), idempotencyKey: z.string() }),
    z.object({ intent: z.literal("suspend"), reason: reason("why this website is suspended") }),
    z.object({ intent: z.literal("resume"), reason: reason("why this website is resumed") }),
    z.object({ intent: z.literal("cancel"), reason: reason("why this website is cancelled") }),
  ],
  "Choose what to do with this website.",
);

/** Support's changes to a website, each with the audit entry in its own transaction. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const member = await staffWith(context, request, "websites.view");
  mayAlso(member, "websites.manage");
  const form = await readForm(request, websiteForm);
  if (!form.ok) return form.reply;
  const value = form.value;
  const { db, shop } = context.get(appServices);
  const actor = actorFor(member, request);
  const id = params.websiteId;
  const done = await attemptFor(form, () => {
    switch (value.intent) {
      case "change-domain":
        return changeWebsiteDomain(db, actor, id, value.domain);
      case "extend":
        return extendWebsite(shop, actor, id, value);
      case "suspend":
      case "resume":
        return setWebsiteSuspended(shop, actor, id, value.intent === "suspend", value.reason);
      case "cancel":
        return cancelWebsiteForOwner(shop, actor, id, value.reason);
    }
  });
  if (!done.ok) return done.reply;
  return succeed(form, done.value);
}

export const meta: Route.MetaFunction = ({ loaderData: site }) => backOfficeMeta(site ? `${site.domain} · Websites` : "Website");

const reasonInput = (label: string) => <TextArea label={label} name="reason" required minLength={staffReasonLength.min} maxLength={staffReasonLength.max} rows={3} />;

export default function WebsitePage({ loaderData: site, actionData }: Route.ComponentProps) {
  const sending = useSubmittingIntent();
  const answer = replyFor(actionData, "change-domain", "extend", "suspend", "resume", "cancel");
  const manages = site.mayChangeDomain || site.mayExtend || site.maySuspend || site.mayCancel;
  return (
    <div className="space-y-8">
      <PageHeading title={<span className="break-all">{site.domain}</span>} back={{ to: "/admin/websites", label: "Websites" }}>
        <div className="mt-3 flex flex-wrap items-center gap-3">
          <WebsiteStatusBadge state={site.state} />
          <span className="text-slate-700 dark:text-slate-300">{site.expiresAt ? `Paid until ${formatDay(site.expiresAt)}` : "Not paid yet"}</span>
        </div>
        {site.suspendedReason && <p className="mt-2 text-slate-700 dark:text-slate-300">Suspended: {site.suspendedReason}</p>}
      </PageHeading>

      <dl className={cardClass({ className: "grid gap-4 p-6 sm:grid-cols-2" })}>
        <Fact term="Owner">
          {site.mayOpenCustomers ? (
            <Link to={`/admin/customers/${site.owner.id}`} className="break-all text-brand-700 hover:underline dark:text-brand-300">
              {site.owner.name} &lt;{site.owner.email}&gt;
            </Link>
          ) : (
            <span className="break-all">
              {site.owner.name} &lt;{site.owner.email}&gt;
            </span>
          )}
        </Fact>
        <Fact term="Plan">{site.plan}</Fact>
        <Fact term="Online since">{site.startedAt ? formatDay(site.startedAt) : "Never paid for"}</Fact>
        {site.cancelledAt && <Fact term="Cancelled">{formatDay(site.cancelledAt)}</Fact>}
      </dl>

      {manages && (
        <Section id="manage" title="Change it" className="space-y-4">
          <ReplyAlert reply={answer} />
          <div className="flex flex-wrap gap-3">
            {site.mayChangeDomain && (
              <ConfirmDialog
                trigger="Change the domain…"
                triggerStyle={{ variant: "secondary" }}
                title={`Move ${site.domain} to another domain?`}
                fields={{ intent: "change-domain" }}
                inputs={<TextField label="New domain" name="domain" required maxLength={253} autoComplete="off" placeholder="example.in" />}
                confirmLabel="Change the domain"
                pendingLabel="Changing…"
                pending={sending("change-domain")}
              >
                The website answers at the new domain once its owner points the domain&apos;s DNS records here. Nothing is charged.
              </ConfirmDialog>
            )}
            {site.mayExtend && (
              <ConfirmDialog
                trigger="Extend without payment…"
                triggerStyle={{ variant: "secondary" }}
                title={`Give ${site.domain} a period of its plan?`}
                fields={{ intent: "extend", idempotencyKey: site.extendKey }}
                inputs={reasonInput("Why (kept in the audit log)")}
                confirmLabel="Add the period"
                pendingLabel="Adding…"
                pending={sending("extend")}
              >
                One more {site.plan} period, starting where the paid time ends, through an order of ₹0: no payment, no tax invoice, nothing to refund.
              </ConfirmDialog>
            )}
            {site.maySuspend &&
              (site.suspended ? (
                <ConfirmDialog
                  trigger="Resume…"
                  triggerStyle={{ variant: "secondary" }}
                  title={`Put ${site.domain} back online?`}
                  fields={{ intent: "resume" }}
                  inputs={reasonInput("Why (mailed to the owner and kept in the audit log)")}
                  confirmLabel="Resume"
                  pendingLabel="Resuming…"
                  pending={sending("resume")}
                >
                  The owner is mailed that it is online again, with the reason.
                </ConfirmDialog>
              ) : (
                <ConfirmDialog
                  trigger="Suspend…"
                  triggerStyle={{ variant: "danger-outline" }}
                  title={`Take ${site.domain} offline?`}
                  fields={{ intent: "suspend" }}
                  inputs={reasonInput("Why (mailed to the owner and kept in the audit log)")}
                  confirmLabel="Suspend"
                  pendingLabel="Suspending…"
                  pending={sending("suspend")}
                >
                  It stays offline until someone resumes it; the paid period runs on. The owner is mailed the reason.
                </ConfirmDialog>
              ))}
            {site.mayCancel && (
              <ConfirmDialog
                trigger="Cancel the website…"
                triggerStyle={{ variant: "danger-outline" }}
                title={`Cancel ${site.domain}?`}
                fields={{ intent: "cancel" }}
                inputs={reasonInput("Why (kept in the audit log)")}
                confirmLabel="Cancel the website"
                pendingLabel="Cancelling…"
                pending={sending("cancel")}
              >
                No more reminders and no renewals; what is paid for runs to its expiry, and the owner is mailed. This cannot be undone here: the owner starts a new website to host it again.
              </ConfirmDialog>
            )}
          </div>
        </Section>
      )}

      <RecordList
        title="Paid periods"
        empty="No period has been paid for."
        records={site.periods.map((period) => ({ id: period.id, title: `${formatDay(period.startsAt)} to ${formatDay(period.endsAt)}`, detail: `${period.plan} · order ${period.order}` }))}
      />
      <OrderRecords orders={site.orders} mayOpen={site.mayOpenOrders} />
    </div>
  );
}
