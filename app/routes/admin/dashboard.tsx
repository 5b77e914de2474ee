import type { ReactNode } from "react";
import { Link } from "react-router";
import { formatPaise } from "../../../common/format.ts";
import { rolesAllow, staffRoleDescriptions, staffRoleLabels } from "../../../common/staff.ts";
import { appServices } from "../../../server/context.ts";
import { dailyFigures, dashboardFigures } from "../../../server/staff/index.ts";
import { cardClass } from "../../components/ui/card.tsx";
import { DailyChart } from "./daily-chart.tsx";
import type { Route } from "./+types/dashboard";
import { backOfficeMeta } from "./meta.ts";
import { staffWith } from "./access.server.ts";
import { PageHeading } from "./page-heading.tsx";

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
  const { db } = context.get(appServices);
  const now = new Date();
  const [figures, days] = await Promise.all([dashboardFigures(db, now), dailyFigures(db, now)]);
  // Money is for finance and owners; everyone with a role sees how the business is running.
  const seesMoney = rolesAllow(member.roles, "reports.view");
  return {
    roles: member.roles.map((role) => ({ label: staffRoleLabels[role], text: staffRoleDescriptions[role] })),
    areas: areas.filter((area) => area.open).map(({ open: _open, ...area }) => area),
    figures: { ...figures, takings: seesMoney ? figures.takings : null },
    days: days.map((day) => ({ day: day.day, signUps: day.signUps, net: seesMoney ? day.net : null })),
  };
}

export const meta: Route.MetaFunction = () => backOfficeMeta("Dashboard");

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  return (
    <div className="space-y-8">
      <PageHeading title="Dashboard">
        <ul className="mt-3 space-y-1 text-slate-600 dark:text-slate-300">
          {loaderData.roles.map((role) => (
            <li key={role.label}>
              <span className="font-medium text-slate-950 dark:text-white">{role.label}:</span> {role.text.toLowerCase()}
            </li>
          ))}
        </ul>
      </PageHeading>
      <Figures figures={loaderData.figures} />
      <section aria-labelledby="trend-heading" className={cardClass({ className: "space-y-6 p-6" })}>
        <h2 id="trend-heading" className="text-lg font-semibold text-slate-950 dark:text-white">
          The last 90 days
        </h2>
        {loaderData.days[0]?.net !== null && <DailyChart title="Net takings" days={loaderData.days} value={(index) => loaderData.days[index]?.net ?? 0} format={formatPaise} />}
        <DailyChart title="Sign-ups" days={loaderData.days} value={(index) => loaderData.days[index]?.signUps ?? 0} format={count} />
      </section>
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

type Figures = Route.ComponentProps["loaderData"]["figures"];

const count = (n: number) => n.toLocaleString("en-IN");

function Figure({ label, children, detail }: { label: string; children: ReactNode; detail?: ReactNode }) {
  return (
    <div className={cardClass({ className: "p-4" })}>
      <dt className="text-sm text-slate-600 dark:text-slate-400">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold tabular-nums text-slate-950 dark:text-white">{children}</dd>
      {detail && <dd className="mt-1 text-xs text-slate-600 dark:text-slate-400">{detail}</dd>}
    </div>
  );
}

/** Today's figures: money for finance and owners, the rest for every role. */
function Figures({ figures }: { figures: Figures }) {
  const { takings } = figures;
  return (
    <section aria-labelledby="figures-heading" className="space-y-3">
      <h2 id="figures-heading" className="text-lg font-semibold text-slate-950 dark:text-white">
        How it is going
      </h2>
      <dl className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {takings &&
          ([
            ["Takings today", takings.today],
            ["Last 7 days", takings.week],
            ["Last 30 days", takings.month],
          ] as const).map(([label, period]) => (
            <Figure key={label} label={label} detail={`net of ${formatPaise(period.refunded)} refunded · includes ${formatPaise(period.gst)} GST`}>
              {formatPaise(period.net)}
            </Figure>
          ))}
        {takings && <Figure label="Paying customers, 30 days">{count(figures.payingCustomers)}</Figure>}
        <Figure label="Sign-ups, 7 days" detail={`${count(figures.signUps.month)} in 30 days`}>
          {count(figures.signUps.week)}
        </Figure>
        <Figure label="Enrolments, 30 days">{count(figures.enrolments)}</Figure>
        <Figure label="Courses completed, 30 days">{count(figures.completions)}</Figure>
        <Figure label="Websites online" detail={`${count(figures.websites.expiringSoon)} expire within 30 days`}>
          {count(figures.websites.active)}
        </Figure>
        <Figure label="Failed payments, 7 days">{count(figures.failedPayments)}</Figure>
        <Figure label="Orders waiting over an hour" detail="in the last 7 days; check one with the provider if its buyer says they paid">
          {count(figures.waitingOrders)}
        </Figure>
        <Figure label="Mail waiting to send" detail={`${count(figures.mail.failed)} failed for good`}>
          {count(figures.mail.queued)}
        </Figure>
        <Figure label="Sandbox webhooks waiting">{count(figures.webhooksWaiting)}</Figure>
      </dl>
    </section>
  );
}
