import { data, redirect, type RouterContextProvider } from "react-router";
import type { StaffPermission } from "../../../common/staff.ts";
import { clientIpHeader } from "../../../server/auth/index.ts";
import { appServices, viewerContext } from "../../../server/context.ts";
import { UserError } from "../../../server/errors.ts";
import { actorOf, requirePermission, secondFactorNeeded, staffMember, type Actor, type StaffMember } from "../../../server/staff/index.ts";

/**
 * The staff member on this request, whatever their second factor. Anyone without a role — signed
 * out, a learner — gets the site's ordinary 404, so the back office gives away nothing of itself.
 * Only the two-factor pages use this alone; everything else goes through `staffWith`.
 */
export async function staffOf(context: Readonly<RouterContextProvider>): Promise<StaffMember> {
  const member = await staffMember(context.get(appServices).db, context.get(viewerContext));
  if (!member) throw data(null, { status: 404 });
  return member;
}

/** Sends a staff member whose session has not confirmed the second factor (in the last 12 hours) to do so, then back. */
export function requireSecondFactor(member: StaffMember, request: Request): void {
  const needed = secondFactorNeeded(member);
  if (needed === "set-up") throw redirect("/admin/two-factor/set-up");
  if (needed === "confirm") {
    const url = new URL(request.url);
    throw redirect(`/admin/two-factor?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
  }
}

/**
 * The staff member allowed `permission`, for a page's loader and its action alike (an action runs
 * without its layout's loader): 404 without a role, the second factor first, 403 with roles that do not include it.
 */
export async function staffWith(context: Readonly<RouterContextProvider>, request: Request, permission: StaffPermission): Promise<StaffMember> {
  const member = await staffOf(context);
  requireSecondFactor(member, request);
  return mayAlso(member, permission);
}

/** The same staff member, if their roles allow `permission` too (an action whose intents need more than the page): 403 if not. */
export function mayAlso(member: StaffMember, permission: StaffPermission): StaffMember {
  try {
    return requirePermission(member, permission);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    throw data({ message: error.message }, { status: error.status });
  }
}

/** The audit log's name for `member` acting through this request. */
export const actorFor = (member: StaffMember, request: Request): Actor => actorOf(member, request.headers.get(clientIpHeader));
