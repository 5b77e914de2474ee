import { Link } from "react-router";
import { formatDay } from "../../../common/format.ts";
import { stateLabels, type WebsiteState } from "../../../common/website-states.ts";
import { appServices } from "../../../server/context.ts";
import { listStaffWebsites } from "../../../server/staff/index.ts";
import { WebsiteStatusBadge } from "../../components/status-badge.tsx";
import { Select, TextField } from "../../components/ui/field.tsx";
import type { Route } from "./+types/websites";
import { backOfficeMeta } from "./meta.ts";
import { OlderLink } from "./older-link.tsx";
import { staffWith } from "./access.server.ts";
import { expiryCursorIn, expiryCursorText } from "./cursor.server.ts";
import { PageHeading } from "./page-heading.tsx";
import { Choices, FilterForm } from "./filter-form.tsx";

const isState = (value: string): value is WebsiteState => Object.hasOwn(stateLabels, value);

/** Every hosted website, the soonest to expire first, by state and domain. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await staffWith(context, request, "websites.view");
  const params = new URL(request.url).searchParams;
  const state = params.get("state") ?? "";
  const domain = (params.get("domain") ?? "").trim().slice(0, 253);
  const page = await listStaffWebsites(context.get(appServices).db, { state: isState(state) ? state : undefined, domain: domain || undefined, after: expiryCursorIn(params) }, new Date());
  return {
    filter: { state: isState(state) ? state : "", domain },
    next: expiryCursorText(page.next),
    websites: page.websites.map((site) => ({ ...site, expiresAt: site.expiresAt?.toISOString() ?? null })),
  };
}

export const meta: Route.MetaFunction = () => backOfficeMeta("Websites");

export default function WebsitesPage({ loaderData }: Route.ComponentProps) {
  const { filter, websites, next } = loaderData;
  const filtered = Boolean(filter.state || filter.domain);
  return (
    <div className="space-y-6">
      <PageHeading title="Websites" lead="Every website we host, the soonest to expire first. Open one to see its periods and orders, change its domain, extend, suspend or cancel it." />
      <FilterForm clear={filtered && "/admin/websites"}>
        <Select label="State" name="state" defaultValue={filter.state}>
          <Choices any="Any state" choices={Object.entries(stateLabels)} />
        </Select>
        <TextField label="Domain" name="domain" defaultValue={filter.domain} className="sm:w-72" autoComplete="off" />
      </FilterForm>
      {websites.length === 0 ? (
        <p className="text-slate-600 dark:text-slate-400">{filtered ? "No websites match these filters." : "No one has started a website yet."}</p>
      ) : (
        <ul className="divide-y divide-slate-200 dark:divide-slate-800" aria-label="Websites found">
          {websites.map((site) => (
            <li key={site.id} className="flex flex-col gap-2 py-4 sm:flex-row sm:items-center sm:justify-between">
              <div className="min-w-0">
                <Link to={`/admin/websites/${site.id}`} className="break-all font-semibold text-brand-700 hover:underline dark:text-brand-300">
                  {site.domain}
                </Link>
                <p className="break-all text-sm text-slate-600 dark:text-slate-400">
                  {site.expiresAt ? `Paid until ${formatDay(site.expiresAt)}` : "Not paid yet"} · {site.owner.name} &lt;{site.owner.email}&gt;
                </p>
              </div>
              <WebsiteStatusBadge state={site.state} />
            </li>
          ))}
        </ul>
      )}
      <OlderLink path="/admin/websites" filter={filter} next={next} param="after">
        More websites
      </OlderLink>
    </div>
  );
}
