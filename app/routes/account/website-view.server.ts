import { data, type RouterContextProvider } from "react-router";
import type { Catalog } from "../../../server/catalog/index.ts";
import { appServices, requireViewer } from "../../../server/context.ts";
import { attempt } from "../../../server/errors.ts";
import { daysUntil, findWebsite, hostingPlan, needsRenewal, suspensionDate, websiteState, type Website } from "../../../server/websites/index.ts";

/** What every website screen shows of a site, with its state worked out once, by the domain's rules. */
export function websiteView(site: Website, catalog: Catalog, now: Date) {
  const state = websiteState(site, now);
  const plan = hostingPlan(catalog, site.serviceId, site.planId);
  return {
    id: site.id,
    domain: site.domain,
    serviceId: site.serviceId,
    planId: site.planId,
    planName: plan?.name ?? site.planId,
    planFeatures: plan?.features ?? [],
    state,
    // Suspended by us rather than for want of renewal: renewing would not bring it back, so it is not offered as the way.
    needsRenewal: site.suspendedAt === null && needsRenewal(state),
    suspendedReason: site.suspendedReason,
    startedAt: site.startedAt,
    expiresAt: site.expiresAt,
    daysLeft: site.expiresAt ? daysUntil(site.expiresAt, now) : null,
    suspendsAt: site.expiresAt ? suspensionDate(site.expiresAt) : null,
    cancelledAt: site.cancelledAt,
  };
}

export type WebsiteView = ReturnType<typeof websiteView>;

/** The signed-in viewer and their website; another customer's website, or none, is a 404. */
export async function ownWebsite(context: Readonly<RouterContextProvider>, webId: string) {
  const viewer = requireViewer(context);
  const found = await attempt(() => findWebsite(context.get(appServices).db, viewer.id, webId));
  if (!found.ok) throw data(null, { status: 404 });
  return { viewer, site: found.value };
}
