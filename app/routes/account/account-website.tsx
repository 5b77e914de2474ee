import { Form, Link, redirect } from "react-router";
import { appServices } from "../../../server/context.ts";
import { unpaidWebsiteDays } from "../../../common/website-states.ts";
import { cancelWebsite, hostingPlan, keepRefusal, keepWebsite, recordsToSet, websiteHistory } from "../../../server/websites/index.ts";
import { BackLink } from "../../components/back-link.tsx";
import { CheckList } from "../../components/check-list.tsx";
import { ConfirmDialog } from "../../components/ui/dialog.tsx";
import { ReplyAlert } from "../../components/form-controls.tsx";
import { FormAlert } from "../../components/form-alert.tsx";
import { WebsiteStatusBadge } from "../../components/status-badge.tsx";
import { ExpiryText } from "../../components/website-expiry.tsx";
import { WebsiteDomain } from "../../components/website-domain.tsx";
import { formatDay, formatOrderNumber, formatPaise } from "../../../common/format.ts";
import { pageMeta } from "../../lib/seo.ts";
import { z } from "zod";
import type { Route } from "./+types/account-website";
import { attemptFor, readForm, succeed } from "../forms.server.ts";
import { useSubmittingIntent } from "../../lib/use-submitting-intent.ts";
import { ownWebsite, websiteView } from "./website-view.server.ts";
import { Button, ButtonLink } from "../../components/ui/button.tsx";
import { cardClass } from "../../components/ui/card.tsx";

export async function loader({ params, context }: Route.LoaderArgs) {
  const { site } = await ownWebsite(context, params.webId);
  const { catalog, db, shop, hosting } = context.get(appServices);
  const now = shop.now();
  const view = websiteView(site, catalog, now);
  // Only a site that is paid for and online has a domain to point; the lookup is cached for minutes.
  const online = view.state === "active" || view.state === "expiring" || view.state === "expired";
  const [history, check, refusal] = await Promise.all([
    websiteHistory(db, site.id),
    online ? hosting.check(site.domain) : null,
    view.state === "cancelled" ? keepRefusal(db, site, now) : null,
  ]);
  // The period running now, and those paid for after it (an early renewal starts when the current one ends).
  const kept = history.filter((entry) => entry.order.status !== "refunded");
  const current = kept.find((entry) => entry.startsAt <= now && now < entry.endsAt) ?? null;
  const ahead = kept.filter((entry) => entry.startsAt > now).toSorted((a, b) => a.startsAt.getTime() - b.startsAt.getTime());
  const [firstAhead] = ahead;
  const lastAhead = ahead.at(-1);
  return {
    site: view,
    supportEmail: catalog.site.email,
    // A cancelled website: whether its owner may still keep it, or why not.
    keeping: view.state === "cancelled" ? { refusal } : null,
    domain: online ? { domain: site.domain, records: hosting.target && recordsToSet(hosting.target, site.domain), check } : null,
    current: current && { startsAt: current.startsAt, endsAt: current.endsAt },
    ahead: firstAhead && lastAhead ? { startsAt: firstAhead.startsAt, endsAt: lastAhead.endsAt } : null,
    history: history.map((entry) => ({
      id: entry.id,
      planName: hostingPlan(catalog, site.serviceId, entry.planId)?.name ?? entry.planId,
      startsAt: entry.startsAt,
      endsAt: entry.endsAt,
      order: { id: entry.order.id, number: formatOrderNumber(entry.order.number), amount: entry.order.amount, refunded: entry.order.status === "refunded" },
    })),
  };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: args.loaderData ? args.loaderData.site.domain : "Website",
    description: "Your hosted website: plan, status, expiry and renewal history.",
  });

const websiteForm = z.discriminatedUnion("intent", [z.object({ intent: z.literal("cancel-website") }), z.object({ intent: z.literal("keep-website") })], "Choose what to do with this website.");

export async function action({ params, request, context }: Route.ActionArgs) {
  const { viewer, site } = await ownWebsite(context, params.webId);
  const { db, shop } = context.get(appServices);
  const form = await readForm(request, websiteForm);
  if (!form.ok) return form.reply;
  const now = shop.now();
  if (form.value.intent === "keep-website") {
    const kept = await attemptFor(form, () => keepWebsite(db, viewer.id, site.id, now));
    if (!kept.ok) return kept.reply;
    return succeed(form, `You kept ${site.domain}: it is hosted as before, and we will remind you before it expires.`);
  }
  const cancelled = await cancelWebsite(db, viewer.id, site.id, now);
  // A website never paid for is removed rather than cancelled: back to the list, which no longer shows it.
  if (!cancelled) throw redirect("/account/services/websites?removed=1");
  const runsUntil = cancelled.expiresAt && cancelled.expiresAt > now ? cancelled.expiresAt : null;
  return succeed(form, runsUntil ? `${site.domain} stops on ${formatDay(runsUntil)}. Until then you can keep it with Keep my website below.` : `${site.domain} is cancelled.`);
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="py-3 sm:grid sm:grid-cols-[12rem_1fr] sm:gap-4">
      <dt className="text-sm font-medium text-slate-600 dark:text-slate-400">{label}</dt>
      <dd className="mt-1 text-slate-950 sm:mt-0 dark:text-white">{children}</dd>
    </div>
  );
}

export default function WebsiteDetails({ loaderData, actionData }: Route.ComponentProps) {
  const { site, history, current, ahead, domain, supportEmail, keeping } = loaderData;
  const submitting = useSubmittingIntent();
  const renewPath = `/account/services/websites/${site.id}/renew`;
  return (
    <section aria-labelledby="website-heading">
      <BackLink fallback="/account/services/websites" label="All websites" />
      <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <h2 id="website-heading" className="break-all text-2xl font-semibold tracking-tight text-slate-950 dark:text-white">
            {site.domain}
          </h2>
          <WebsiteStatusBadge state={site.state} />
        </div>
        {site.state !== "cancelled" && (
          <ButtonLink to={renewPath}>
            {site.state === "pending" ? "Complete the payment" : "Renew"}
          </ButtonLink>
        )}
      </div>
      {actionData && (
        <div className="mt-4">
          <ReplyAlert reply={actionData} />
        </div>
      )}
      {site.state === "expired" && (
        <div className="mt-4">
          <FormAlert>This website has expired. Renew it before {site.suspendsAt ? formatDay(site.suspendsAt) : "the grace period ends"} to keep it online.</FormAlert>
        </div>
      )}
      {site.state === "suspended" && (
        <div className="mt-4">
          <FormAlert>
            {site.suspendedReason
              ? `We have suspended this website: ${site.suspendedReason} It stays offline until we resume it; reply to our mail about it, or write to us, to sort it out.`
              : "This website is suspended because its hosting was not renewed. Renew it to bring it back online."}
          </FormAlert>
        </div>
      )}

      {site.state === "pending" && (
        <p className="mt-4 text-sm text-slate-700 dark:text-slate-300">
          Next: complete the payment. Once it is confirmed, this page shows the DNS records that point {site.domain} at our servers.
        </p>
      )}

      <dl className="mt-6 divide-y divide-slate-200 border-y border-slate-200 dark:divide-slate-800 dark:border-slate-800">
        <Fact label="Plan">{site.planName}</Fact>
        <Fact label="Status">
          <ExpiryText site={site} />
        </Fact>
        <Fact label="Started">{site.startedAt ? formatDay(site.startedAt) : "Not yet: the first payment is not complete"}</Fact>
        {current && (
          <Fact label="Current period">
            {formatDay(current.startsAt)} to {formatDay(current.endsAt)}
          </Fact>
        )}
        {ahead && (
          <Fact label="Paid ahead">
            {formatDay(ahead.startsAt)} to {formatDay(ahead.endsAt)}
          </Fact>
        )}
      </dl>

      {keeping && <KeepWebsite domain={site.domain} expiresAt={site.expiresAt} refusal={keeping.refusal} pending={submitting("keep-website")} />}
      {domain && <WebsiteDomain {...domain} />}

      {site.planFeatures.length > 0 && (
        <section aria-labelledby="features-heading" className="mt-8">
          <h3 id="features-heading" className="font-semibold text-slate-950 dark:text-white">
            What {site.planName} includes
          </h3>
          <CheckList small items={site.planFeatures} className="mt-3 space-y-2" />
        </section>
      )}

      <section aria-labelledby="history-heading" className="mt-8">
        <h3 id="history-heading" className="font-semibold text-slate-950 dark:text-white">
          Renewal history
        </h3>
        {history.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">No period has been paid for yet.</p>
        ) : (
          <ul className={cardClass({ className: "mt-3 divide-y divide-slate-200 dark:divide-slate-800" })}>
            {history.map((entry) => (
              <li key={entry.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3 text-sm">
                <span className="text-slate-800 dark:text-slate-200">
                  {entry.planName}: {formatDay(entry.startsAt)} to {formatDay(entry.endsAt)}
                  {entry.order.refunded && " (refunded)"}
                </span>
                <span className="flex items-center gap-3 text-slate-600 dark:text-slate-400">
                  <span className="tabular-nums">{formatPaise(entry.order.amount)}</span>
                  <Link to={`/account/orders/${entry.order.id}/receipt`} className="font-medium text-brand-700 hover:underline dark:text-brand-300">
                    Receipt {entry.order.number}
                  </Link>
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>

      <p className="mt-8 text-sm text-slate-700 dark:text-slate-300">
        Moving an existing website to us, or stuck on a step? Read{" "}
        <Link to="/help/website-services" className="font-medium text-brand-700 underline dark:text-brand-300">
          website services in the Help Centre
        </Link>{" "}
        or write to{" "}
        <a href={`mailto:${supportEmail}?subject=${encodeURIComponent(`Hosting for ${site.domain}`)}`} className="font-medium text-brand-700 underline dark:text-brand-300">
          {supportEmail}
        </a>
        , and we will plan it with you.
      </p>

      {site.state === "pending" && (
        <CancelWebsite
          domain={site.domain}
          heading="Not going ahead?"
          summary={`Nothing has been charged. Cancelling removes this website from your account; a website nobody pays for is removed after ${unpaidWebsiteDays} days anyway.`}
          confirmLabel="Remove this website"
          pending={submitting("cancel-website")}
        >
          The website is removed from your account and its unpaid order is cancelled. Nothing has been charged. You can start it again later from the hosting page.
        </CancelWebsite>
      )}
      {site.state !== "cancelled" && site.state !== "pending" && (
        <CancelWebsite
          domain={site.domain}
          heading="Letting this website go?"
          summary={
            site.expiresAt && (site.daysLeft ?? 0) > 0
              ? `Cancel it to stop renewal reminders. It stays online until ${formatDay(site.expiresAt)}, and until then you can change your mind.`
              : "Cancel it to stop renewal reminders. Its paid period has ended, so hosting stops now."
          }
          confirmLabel={(site.daysLeft ?? 0) > 0 ? "Stop hosting at the end of the period" : "Stop hosting now"}
          pending={submitting("cancel-website")}
        >
          We stop sending renewal reminders.{" "}
          {site.expiresAt && (site.daysLeft ?? 0) > 0
            ? `What you paid for stays online until ${formatDay(site.expiresAt)}; until then Keep my website on this page undoes the cancellation.`
            : "Its paid period has ended, so it cannot be kept afterwards."}{" "}
          Paid periods are not refunded by cancelling.
        </CancelWebsite>
      )}
    </section>
  );
}

/** A cancelled website: until its paid period ends its owner may keep it after all; otherwise, why not. */
function KeepWebsite({ domain, expiresAt, refusal, pending }: { domain: string; expiresAt: Date | null; refusal: string | null; pending: boolean }) {
  return (
    <section aria-labelledby="keep-heading" className={cardClass({ className: "mt-8 p-5" })}>
      <h3 id="keep-heading" className="font-semibold text-slate-950 dark:text-white">
        {refusal === null && expiresAt ? `Hosting stops on ${formatDay(expiresAt)}` : "This website is cancelled"}
      </h3>
      {refusal === null ? (
        <>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            Changed your mind? Keep {domain} and it is hosted as before: we remind you before it expires, and you renew it from this page.
          </p>
          <Form method="post" className="mt-3">
            <input type="hidden" name="intent" value="keep-website" />
            <Button type="submit" size="sm" disabled={pending}>
              {pending ? "Keeping…" : "Keep my website"}
            </Button>
          </Form>
        </>
      ) : (
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{refusal}</p>
      )}
    </section>
  );
}

/** The section that cancels a website, behind a confirmation saying what cancelling does to it; its buttons say what each does. */
function CancelWebsite({
  domain,
  heading,
  summary,
  confirmLabel,
  pending,
  children,
}: {
  domain: string;
  heading: string;
  summary: string;
  confirmLabel: string;
  pending: boolean;
  children: React.ReactNode;
}) {
  return (
    <section aria-labelledby="cancel-heading" className={cardClass({ className: "mt-10 p-5" })}>
      <h3 id="cancel-heading" className="font-semibold text-slate-950 dark:text-white">
        {heading}
      </h3>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{summary}</p>
      <div className="mt-3">
        <ConfirmDialog
          trigger="Cancel this website"
          triggerStyle={{ variant: "danger-outline", size: "sm" }}
          title={`Cancel ${domain}?`}
          fields={{ intent: "cancel-website" }}
          dismissLabel="Keep my website"
          confirmLabel={confirmLabel}
          pendingLabel="Cancelling…"
          pending={pending}
        >
          {children}
        </ConfirmDialog>
      </div>
    </section>
  );
}
