import { Link } from "react-router";
import { appServices, requireViewer } from "../../../server/context.ts";
import { listWebsites, websitesPageSize } from "../../../server/websites/index.ts";
import { AccountEmptyState } from "../../components/account-empty-state.tsx";
import { FormAlert } from "../../components/form-alert.tsx";
import { WebsiteStatusBadge } from "../../components/status-badge.tsx";
import { ExpiryText } from "../../components/website-expiry.tsx";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/account-websites";
import { websiteView } from "./website-view.server.ts";
import { ButtonLink } from "../../components/ui/button.tsx";
import { cardClass } from "../../components/ui/card.tsx";

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = requireViewer(context);
  const { catalog, db, shop } = context.get(appServices);
  const now = shop.now();
  const listed = await listWebsites(db, viewer.id, { limit: websitesPageSize + 1 });
  return {
    websites: listed.slice(0, websitesPageSize).map((site) => websiteView(site, catalog, now)),
    more: listed.length > websitesPageSize,
    pageSize: websitesPageSize,
    // Set by the website page after cancelling a website nobody had paid for, which removes it.
    removed: new URL(request.url).searchParams.get("removed") === "1",
  };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "Your websites", description: "The websites we host for you: their plans, status and renewal dates." });

export default function AccountWebsites({ loaderData }: Route.ComponentProps) {
  const { websites, more, pageSize, removed } = loaderData;
  return (
    <section aria-labelledby="websites-heading">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="websites-heading" className="text-xl font-semibold tracking-tight text-slate-950 dark:text-white">
          Your websites
        </h2>
        {websites.length > 0 && (
          <Link to="/service/website-hosting" className="text-sm font-semibold text-brand-700 hover:underline dark:text-brand-300">
            Host another website
          </Link>
        )}
      </div>
      {removed && (
        <div className="mt-4">
          <FormAlert tone="success">The website was removed from your account. Nothing was charged.</FormAlert>
        </div>
      )}
      {websites.length === 0 ? (
        <div className="mt-6">
          <AccountEmptyState title="We do not host a website for you yet" action={{ to: "/service/website-hosting", label: "See the hosting plans" }}>
            Pick a plan, tell us your domain, and we take care of hosting, backups, updates and monthly edits.
          </AccountEmptyState>
        </div>
      ) : (
        <ul className="mt-6 space-y-4">
          {websites.map((site) => (
            <li key={site.id} className={cardClass({ className: "p-5" })}>
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div className="min-w-0">
                  <h3 className="break-all text-lg font-semibold text-slate-950 dark:text-white">
                    <Link to={`/account/services/websites/${site.id}`} className="hover:underline">
                      {site.domain}
                    </Link>
                  </h3>
                  <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{site.planName}</p>
                </div>
                <WebsiteStatusBadge state={site.state} />
              </div>
              <div className="mt-3 flex flex-wrap items-center justify-between gap-3">
                <p className="text-sm text-slate-700 dark:text-slate-300">
                  <ExpiryText site={site} />
                </p>
                {site.needsRenewal && (
                  <ButtonLink
                    to={`/account/services/websites/${site.id}/renew`}
                    size="sm"
                  >
                    {site.state === "pending" ? "Complete the payment" : "Renew"}
                    <span className="sr-only"> {site.domain}</span>
                  </ButtonLink>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      {more && (
        <p className="mt-6 text-sm text-slate-600 dark:text-slate-400">
          Showing the first {pageSize} websites: those that need attention soonest. Cancelled websites and those paid furthest ahead are left off.
        </p>
      )}
    </section>
  );
}
