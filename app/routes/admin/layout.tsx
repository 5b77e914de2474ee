import type { ReactNode } from "react";
import { Outlet, useRouteLoaderData } from "react-router";
import { rolesAllow, staffRoleLabels, type StaffPermission } from "../../../common/staff.ts";
import { secondFactorNeeded } from "../../../server/staff/index.ts";
import { RouteError } from "../../components/not-found.tsx";
import { AreaChrome } from "../../components/area-chrome.tsx";
import { TabLink } from "../../components/ui/tabs.tsx";
import type { Route } from "./+types/layout";
import { requireSecondFactor, staffOf } from "./access.server.ts";

const tabs: { to: string; label: string; permission: StaffPermission; end?: boolean }[] = [
  { to: "/admin", label: "Dashboard", permission: "dashboard.view", end: true },
  { to: "/admin/customers", label: "Customers", permission: "customers.view" },
  { to: "/admin/orders", label: "Orders", permission: "orders.view" },
  { to: "/admin/websites", label: "Websites", permission: "websites.view" },
  { to: "/admin/courses", label: "Courses", permission: "courses.view" },
  { to: "/admin/reviews", label: "Reviews", permission: "reviews.moderate" },
  { to: "/admin/coupons", label: "Coupons", permission: "coupons.manage" },
  { to: "/admin/reports", label: "Reports", permission: "reports.view" },
  { to: "/admin/mail", label: "Mail", permission: "mail.manage" },
  { to: "/admin/staff", label: "Staff", permission: "staff.manage" },
  { to: "/admin/audit", label: "Audit log", permission: "audit.view" },
];

/** The pages a staff member reaches before their second factor is confirmed on this session. */
const secondFactorPages = ["/admin/two-factor", "/admin/two-factor/set-up"];

/**
 * The back office: for anyone without a role it does not exist (404). A staff member sets up
 * two-factor sign-in first, and confirms it again on each session at least every 12 hours.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const member = await staffOf(context);
  if (!secondFactorPages.includes(new URL(request.url).pathname)) requireSecondFactor(member, request);
  return {
    name: member.name,
    email: member.email,
    roles: member.roles.map((role) => staffRoleLabels[role]),
    tabs: secondFactorNeeded(member) ? [] : tabs.filter((tab) => rolesAllow(member.roles, tab.permission)).map(({ permission: _p, ...tab }) => tab),
  };
}

export default function AdminLayout() {
  return (
    <AdminChrome>
      <Outlet />
    </AdminChrome>
  );
}

/** An error inside the back office keeps its navigation; a visitor without a role sees the site's plain 404. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const staff = useRouteLoaderData<typeof loader>("routes/admin/layout");
  if (!staff) return <RouteError error={error} />;
  return (
    <AdminChrome>
      <RouteError error={error} inArea />
    </AdminChrome>
  );
}

function AdminChrome({ children }: { children: ReactNode }) {
  const staff = useRouteLoaderData<typeof loader>("routes/admin/layout");
  return (
    <AreaChrome
      heading={<p className="text-sm font-semibold uppercase tracking-wide text-brand-700 dark:text-brand-300">Back office</p>}
      detail={staff && `${staff.name} · ${staff.roles.join(", ")}`}
      label="Back office"
      tabs={
        <>
          {staff?.tabs.map((tab) => (
            <li key={tab.to}>
              <TabLink to={tab.to} end={tab.end}>
                {tab.label}
              </TabLink>
            </li>
          ))}
          <li className="ml-auto">
            <TabLink to="/logout">Sign out</TabLink>
          </li>
        </>
      }
    >
      {children}
    </AreaChrome>
  );
}
