import { Link } from "react-router";
import { rolesAllow, staffRoleDescriptions, staffRoleLabels } from "../../../common/staff.ts";
import { cardClass } from "../../components/ui/card.tsx";
import type { Route } from "./+types/dashboard";
import { backOfficeMeta } from "./meta.ts";
import { staffWith } from "./access.server.ts";

/** The back office's front page: what this staff member's roles let them do, and the way there. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const member = await staffWith(context, request, "dashboard.view");
  const areas = [
    { to: "/admin/customers", title: "Customers", text: "Find a person by name, e-mail, order number or domain; see their orders, courses and websites.", open: rolesAllow(member.roles, "customers.view") },
    { to: "/admin/orders", title: "Orders", text: "Every order and its payments; ask the payment provider about one that was paid but not fulfilled.", open: rolesAllow(member.roles, "orders.view") },
    { to: "/admin/reviews", title: "Reviews", text: "What learners wrote; hide a review with a reason, show it again, reply in public.", open: rolesAllow(member.roles, "reviews.moderate") },
    { to: "/admin/reports", title: "Reports", text: "The month's GST sales register and payments, as CSV for the accountant.", open: rolesAllow(member.roles, "reports.view") },
    { to: "/admin/staff", title: "Staff", text: "Who holds which role; grant and take away roles.", open: rolesAllow(member.roles, "staff.manage") },
    { to: "/admin/audit", title: "Audit log", text: "Every change made in the back office, by whom, when and why.", open: rolesAllow(member.roles, "audit.view") },
  ];
  return {
    roles: member.roles.map((role) => ({ label: staffRoleLabels[role], text: staffRoleDescriptions[role] })),
    areas: areas.filter((area) => area.open).map(({ open: _open, ...area }) => area),
  };
}

export const meta: Route.MetaFunction = () => backOfficeMeta("Dashboard");

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  return (
    <div className="space-y-8">
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-950 dark:text-white">Dashboard</h1>
        <ul className="mt-3 space-y-1 text-slate-600 dark:text-slate-300">
          {loaderData.roles.map((role) => (
            <li key={role.label}>
              <span className="font-medium text-slate-950 dark:text-white">{role.label}:</span> {role.text.toLowerCase()}
            </li>
          ))}
        </ul>
      </div>
      {loaderData.areas.length > 0 && (
        <ul className="grid gap-4 sm:grid-cols-2">
          {loaderData.areas.map((area) => (
            <li key={area.to} className={cardClass({ raised: true, className: "p-6" })}>
              <Link to={area.to} className="text-lg font-semibold text-brand-700 hover:underline dark:text-brand-300">
                {area.title}
              </Link>
              <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{area.text}</p>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
