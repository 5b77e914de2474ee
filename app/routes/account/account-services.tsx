import { Link } from "react-router";
import { appServices, requireViewer } from "../../../server/context.ts";
import { listWebsites, websitesPageSize } from "../../../server/websites/index.ts";
import { AccountEmptyState } from "../../components/account-empty-state.tsx";
import { WebsiteStatusBadge } from "../../components/status-badge.tsx";
import { ExpiryText } from "../../components/website-expiry.tsx";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/account-services";
import { websiteView } from "./website-view.server.ts";
import { cardClass } from "../../components/ui/card.tsx";

export async function loader({ context }: Route.LoaderArgs) {
  const viewer = requireViewer(context);
  const { catalog, db, shop } = context.get(appServices);
  const now = shop.now();
  const websites = (await listWebsites(db, viewer.id, { limit: websitesPageSize + 1 })).map((site) => websiteView(site, catalog, now));
  const more = websites.length > websitesPageSize;
  const shown = websites.slice(0, websitesPageSize);
  return { websites: shown.slice(0, 5), count: more ? `${websitesPageSize}+` : String(shown.length), attention: shown.filter((site) => site.needsRenewal).length };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "Your services", description: "The services you hold with us, their status and the next date that matters." });

/** Every kind of service a customer holds, each as a section; websites are the first kind. */
export default function AccountServices({ loaderData }: Route.ComponentProps) {
  const { websites, count, attention } = loaderData;
  return (
    <section aria-labelledby="services-heading">
      <h2 id="services-heading" className="text-xl font-semibold tracking-tight text-slate-950 dark:text-white">
        Your services
      </h2>
      {websites.length === 0 ? (
        <div className="mt-6">
          <AccountEmptyState title="You do not hold any services with us yet" action={{ to: "/services", label: "See our services" }}>
            Website hosting and maintenance plans appear here once you buy one, with their renewal dates.
          </AccountEmptyState>
        </div>
      ) : (
        <section aria-labelledby="websites-overview" className={cardClass({ className: "mt-6 p-5" })}>
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h3 id="websites-overview" className="font-semibold text-slate-950 dark:text-white">
              Website hosting
            </h3>
            <p className="text-sm text-slate-600 dark:text-slate-400">
              {count} {count === "1" ? "website" : "websites"}
              {attention > 0 && ` · ${attention} ${attention === 1 ? "needs" : "need"} renewing`}
            </p>
          </div>
          <ul className="mt-3 divide-y divide-slate-200 dark:divide-slate-800">
            {websites.map((site) => (
              <li key={site.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
                <span className="min-w-0">
                  <Link to={`/account/services/websites/${site.id}`} className="break-all font-medium text-slate-950 hover:underline dark:text-white">
                    {site.domain}
                  </Link>
                  <span className="block text-sm text-slate-600 dark:text-slate-400">
                    <ExpiryText site={site} />
                  </span>
                </span>
                <WebsiteStatusBadge state={site.state} />
              </li>
            ))}
          </ul>
          <Link to="/account/services/websites" className="mt-3 inline-block text-sm font-semibold text-brand-700 hover:underline dark:text-brand-300">
            All websites
          </Link>
        </section>
      )}
    </section>
  );
}
