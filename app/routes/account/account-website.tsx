import { Link, redirect, useNavigation } from "react-router";
import { appServices } from "../../../server/context.ts";
import { unpaidWebsiteDays } from "../../../common/website-states.ts";
import { cancelWebsite, hostingPlan, websiteHistory } from "../../../server/websites/index.ts";
import { BackLink } from "../../components/back-link.tsx";
import { CheckList } from "../../components/check-list.tsx";
import { ConfirmDialog } from "../../components/ui/dialog.tsx";
import { FormAlert } from "../../components/form-controls.tsx";
import { WebsiteStatusBadge } from "../../components/status-badge.tsx";
import { ExpiryText } from "../../components/website-expiry.tsx";
import { formatDay, formatOrderNumber, formatPaise } from "../../../common/format.ts";
import { pageMeta } from "../../lib/seo.ts";
import { z } from "zod";
import type { Route } from "./+types/account-website";
import { readForm } from "../forms.server.ts";
import { ownWebsite, websiteView } from "./website-view.server.ts";
import { ButtonLink } from "../../components/ui/button.tsx";
import { cardClass } from "../../components/ui/card.tsx";

export async function loader({ params, context }: Route.LoaderArgs) {
  const { site } = await ownWebsite(context, params.webId);
  const { catalog, db, shop } = context.get(appServices);
  const history = await websiteHistory(db, site.id);
  const now = shop.now();
  // The period running now, and those paid for after it (an early renewal starts when the current one ends).
  const kept = history.filter((entry) => entry.order.status !== "refunded");
  const current = kept.find((entry) => entry.startsAt <= now && now < entry.endsAt) ?? null;
  const ahead = kept.filter((entry) => entry.startsAt > now).toSorted((a, b) => a.startsAt.getTime() - b.startsAt.getTime());
  const [firstAhead] = ahead;
  const lastAhead = ahead.at(-1);
  return {
    site: websiteView(site, catalog, now),
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

export async function action({ params, request, context }: Route.ActionArgs) {
  const { viewer, site } = await ownWebsite(context, params.webId);
  const { db, shop } = context.get(appServices);
  const form = await readForm(request, z.object({ intent: z.literal("cancel-website") }));
  if (!form.ok) return form.reply;
  const kept = await cancelWebsite(db, viewer.id, site.id, shop.now());
  // A website never paid for is removed rather than cancelled: back to the list, which no longer shows it.
  throw redirect(kept ? `/account/services/websites/${site.id}` : "/account/services/websites?removed=1");
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
  const { site, history, current, ahead } = loaderData;
  const navigation = useNavigation();
  const cancelling = navigation.state !== "idle" && navigation.formData?.get("intent") === "cancel-website";
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
      {actionData?.message && (
        <div className="mt-4">
          <FormAlert>{actionData.message}</FormAlert>
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

      {site.state === "pending" && (
        <CancelWebsite
          domain={site.domain}
          heading="Not going ahead?"
          summary={`Nothing has been charged. Cancelling removes this website from your account; a website nobody pays for is removed after ${unpaidWebsiteDays} days anyway.`}
          pending={cancelling}
        >
          The website is removed from your account and its unpaid order is cancelled. Nothing has been charged. You can start it again later from the hosting page.
        </CancelWebsite>
      )}
      {site.state !== "cancelled" && site.state !== "pending" && (
        <CancelWebsite
          domain={site.domain}
          heading="Letting this website go?"
          summary={`Cancel it to stop renewal reminders. ${site.expiresAt ? `It stays online until ${formatDay(site.expiresAt)}, and it` : "It"} cannot be renewed afterwards.`}
          pending={cancelling}
        >
          We stop sending renewal reminders and the website cannot be renewed again.{" "}
          {site.expiresAt ? `What you paid for stays online until ${formatDay(site.expiresAt)}.` : ""} Paid periods are not refunded by cancelling.
        </CancelWebsite>
      )}
    </section>
  );
}

/** The section that cancels a website, behind a confirmation saying what cancelling does to it. */
function CancelWebsite({ domain, heading, summary, pending, children }: { domain: string; heading: string; summary: string; pending: boolean; children: React.ReactNode }) {
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
          confirmLabel="Cancel the website"
          pendingLabel="Cancelling…"
          pending={pending}
        >
          {children}
        </ConfirmDialog>
      </div>
    </section>
  );
}
