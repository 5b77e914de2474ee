import { Link } from "react-router";
import { coursePlayerPath, historyPageSize, listOrders, orderPagePath, listOwnedCourses, type OrderWithRefund } from "../../../server/commerce/index.ts";
import { appServices, requireViewer } from "../../../server/context.ts";
import { listWebsites, stateLabels } from "../../../server/websites/index.ts";
import { AccountEmptyState } from "../../components/account-empty-state.tsx";
import { CourseProgress, courseActionLabel } from "../../components/account-progress.tsx";
import { ArrowRightIcon } from "../../components/icons.tsx";
import { OrderStatusBadge, StatusBadge, type BadgeTone, websiteTones } from "../../components/status-badge.tsx";
import { formatDay, formatPaise, formatOrderNumber, levelLabel, relativeDays } from "../../../common/format.ts";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/account";
import { websiteView, type WebsiteView } from "./website-view.server.ts";
import { ButtonLink } from "../../components/ui/button.tsx";
import { cardClass } from "../../components/ui/card.tsx";

const dayMs = 24 * 60 * 60 * 1000;
/** A failed payment older than this is history, not something to act on. */
const failedPaymentWindowMs = 7 * dayMs;

interface AttentionItem {
  key: string;
  tone: BadgeTone;
  badge: string;
  title: string;
  text: string;
  link?: { to: string; label: string };
}

/**
 * What the buyer may want to act on. An unpaid or failed order only counts while it is the latest
 * attempt at its course and the course is not owned: a later purchase settles it.
 */
function attentionItems(orders: OrderWithRefund[], ownedIds: Set<string>, now: Date): AttentionItem[] {
  const latestForCourse = new Map<string, string>();
  for (const order of orders) if (order.courseId && !latestForCourse.has(order.courseId)) latestForCourse.set(order.courseId, order.id);
  const open = (order: OrderWithRefund) => order.courseId !== null && latestForCourse.get(order.courseId) === order.id && !ownedIds.has(order.courseId);

  return orders.flatMap((order): AttentionItem[] => {
    const number = formatOrderNumber(order.number);
    if (order.refund?.status === "requested" || order.refund?.status === "pending") {
      return [
        {
          key: order.id,
          tone: "warning",
          badge: "Refund in progress",
          title: `Refund of ${formatPaise(order.refund.amount)} for ${order.title}`,
          text: "The money goes back to the account you paid with, normally within 5–7 business days. We will e-mail you when it is done.",
          link: { to: "/account/orders", label: "See the order" },
        },
      ];
    }
    if (order.refund?.status === "failed") {
      return [
        {
          key: order.id,
          tone: "danger",
          badge: "Refund failed",
          title: `The refund for ${order.title} did not go through`,
          text: order.refund.failureReason ?? "The payment provider could not complete this refund.",
          link: { to: "/account/orders", label: "Try again from your orders" },
        },
      ];
    }
    if (order.status === "created" && open(order)) {
      return [
        {
          key: order.id,
          tone: "warning",
          badge: "Payment not completed",
          title: `${order.title} is waiting for payment`,
          text: `Order ${number} for ${formatPaise(order.amount)} was started on ${formatDay(order.createdAt)} but not paid.`,
          link: { to: orderPagePath(order), label: "Complete the payment" },
        },
      ];
    }
    if (order.status === "failed" && open(order) && now.getTime() - order.createdAt.getTime() < failedPaymentWindowMs) {
      return [
        {
          key: order.id,
          tone: "danger",
          badge: "Payment failed",
          title: `Your payment for ${order.title} did not go through`,
          text: order.failureReason ?? "The payment did not go through. Nothing was charged.",
          link: { to: `/courses/${order.courseId}/confirm`, label: "Payment failed — try again" },
        },
      ];
    }
    return [];
  });
}

/** Websites that need renewing, or paying for the first time, with the way to do it. */
function websiteAttention(sites: WebsiteView[]): AttentionItem[] {
  return sites.flatMap((site): AttentionItem[] => {
    if (!site.needsRenewal) return [];
    const renew = `/account/services/websites/${site.id}/renew`;
    const base = { key: site.id, tone: websiteTones[site.state], badge: stateLabels[site.state] };
    if (site.state === "pending" || !site.expiresAt || site.daysLeft === null) {
      return [{ ...base, title: `Hosting for ${site.domain} is waiting for payment`, text: "The first period has not been paid, so the website is not hosted yet.", link: { to: renew, label: "Complete the payment" } }];
    }
    const text =
      site.state === "expiring"
        ? `Its hosting ends on ${formatDay(site.expiresAt)}, ${relativeDays(site.daysLeft)}.`
        : site.state === "expired" && site.suspendsAt
          ? `Its hosting ended on ${formatDay(site.expiresAt)}; it is suspended on ${formatDay(site.suspendsAt)} unless you renew.`
          : `Its hosting ended on ${formatDay(site.expiresAt)} and the website is suspended until you renew.`;
    return [{ ...base, title: `Renew ${site.domain}`, text, link: { to: renew, label: `Renew ${site.domain}` } }];
  });
}

export async function loader({ context }: Route.LoaderArgs) {
  const viewer = requireViewer(context);
  const { catalog, db, shop } = context.get(appServices);
  const now = shop.now();
  // The latest page of orders, not just the recent three: something needing attention can be older, though not that old.
  const [owned, orders, websites] = await Promise.all([
    listOwnedCourses(db, catalog, viewer.id),
    listOrders(db, viewer.id, { limit: historyPageSize + 1 }),
    listWebsites(db, viewer.id),
  ]);
  return {
    name: viewer.name,
    // Nothing bought or started yet: a first visit, however the account was made.
    newcomer: owned.length === 0 && orders.length === 0 && websites.length === 0,
    courses: owned.map((o) => ({
      id: o.course.id,
      title: o.course.title,
      category: o.course.category,
      level: o.course.level,
      lessonCount: o.course.lessonCount,
      completedLessons: o.completedLessons,
      percent: o.percent,
      playerPath: coursePlayerPath(o.course.id),
    })),
    recentOrders: orders.slice(0, 3).map((o) => ({
      id: o.id,
      number: o.number,
      title: o.title,
      amount: o.amount,
      status: o.status,
      refund: o.refund && { status: o.refund.status },
      createdAt: o.createdAt,
    })),
    // More than a page reads "50+": counting a long history on every visit is not worth it.
    orderCount: orders.length > historyPageSize ? `${historyPageSize}+` : String(orders.length),
    attention: [
      ...websiteAttention(websites.map((site) => websiteView(site, catalog, now))),
      ...attentionItems(orders.slice(0, historyPageSize), new Set(owned.map((o) => o.course.id)), now),
    ],
  };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "Your account", description: "Your courses, orders and anything that needs your attention." });

function SectionHeading({ id, title, link }: { id: string; title: string; link?: { to: string; label: string } }) {
  return (
    <div className="flex flex-wrap items-baseline justify-between gap-2">
      <h2 id={id} className="text-xl font-semibold tracking-tight text-slate-950 dark:text-white">
        {title}
      </h2>
      {link && (
        <Link to={link.to} className="inline-flex items-center gap-1 text-sm font-semibold text-brand-700 hover:underline dark:text-brand-300">
          {link.label}
          <ArrowRightIcon className="size-4" />
        </Link>
      )}
    </div>
  );
}

const firstName = (name: string) => name.trim().split(/\s+/)[0] ?? "";

export default function AccountOverview({ loaderData }: Route.ComponentProps) {
  const { name, courses, recentOrders, orderCount, attention, newcomer } = loaderData;
  const greetingName = firstName(name);
  const greeting = newcomer ? "Welcome" : "Welcome back";

  return (
    <div className="space-y-12">
      <div>
        <p className="text-2xl font-semibold tracking-tight text-slate-950 dark:text-white">
          {greetingName ? `${greeting}, ${greetingName}` : greeting}
        </p>
        <p className="mt-1 text-slate-600 dark:text-slate-400">
          {newcomer
            ? "This is your account. The courses you take, your orders and receipts, and any website we host for you will appear here."
            : courses.length === 0
              ? "Everything about your learning and purchases on Academy lives here."
              : `You are enrolled in ${courses.length} ${courses.length === 1 ? "course" : "courses"}.`}
        </p>
      </div>

      {!newcomer && (
        <section aria-labelledby="attention-heading">
          <SectionHeading id="attention-heading" title="Needs your attention" />
          {attention.length === 0 ? (
            <p className="mt-4 flex items-center gap-2 rounded-xl border border-slate-200 px-4 py-3 text-sm text-slate-600 dark:border-slate-800 dark:text-slate-400">
              <span aria-hidden="true" className="size-2 rounded-full bg-emerald-500" />
              Nothing needs your attention right now.
            </p>
          ) : (
            <ul className="mt-4 space-y-3">
              {attention.map((item) => (
                <li
                  key={item.key}
                  className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4 sm:flex-row sm:items-center sm:justify-between dark:border-slate-800 dark:bg-slate-900"
                >
                  <div className="min-w-0">
                    <StatusBadge tone={item.tone}>{item.badge}</StatusBadge>
                    <p className="mt-2 font-medium text-slate-950 dark:text-white">{item.title}</p>
                    <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{item.text}</p>
                  </div>
                  {item.link && (
                    <ButtonLink
                      to={item.link.to}
                      variant="secondary"
                      size="sm"
                      className="shrink-0 self-start sm:self-center"
                    >
                      {item.link.label}
                    </ButtonLink>
                  )}
                </li>
              ))}
            </ul>
          )}
        </section>
      )}

      <section aria-labelledby="learning-heading">
        <SectionHeading
          id="learning-heading"
          title="Continue learning"
          link={courses.length > 0 ? { to: "/account/courses", label: "All your courses" } : undefined}
        />
        {courses.length === 0 ? (
          <div className="mt-4">
            <AccountEmptyState title="You have not enrolled in a course yet" action={{ to: "/courses", label: "Browse courses" }}>
              Pick a course and start learning today; your progress will show up here.
            </AccountEmptyState>
          </div>
        ) : (
          <ul className="mt-4 grid gap-4 md:grid-cols-2">
            {courses.slice(0, 4).map((course) => (
              <li key={course.id} className={cardClass({ raised: true, className: "flex flex-col p-5" })}>
                <p className="text-xs font-semibold uppercase tracking-wide text-brand-700 dark:text-brand-300">
                  {course.category} · {levelLabel[course.level]}
                </p>
                <h3 className="mt-1 text-lg font-semibold text-slate-950 dark:text-white">
                  <Link to={`/course/${course.id}`} className="hover:underline">
                    {course.title}
                  </Link>
                </h3>
                <div className="mt-4 flex-1">
                  <CourseProgress title={course.title} percent={course.percent} completed={course.completedLessons} total={course.lessonCount} />
                </div>
                <ButtonLink
                  to={course.playerPath}
                  className="mt-5 inline-flex items-center justify-center gap-1.5 self-start"
                >
                  {courseActionLabel(course.percent)}<span className="sr-only"> {course.title}</span>
                  <ArrowRightIcon className="size-4" />
                </ButtonLink>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="orders-heading">
        <SectionHeading
          id="orders-heading"
          title="Recent orders"
          link={recentOrders.length > 0 ? { to: "/account/orders", label: recentOrders.length === 3 && orderCount !== "3" ? `All ${orderCount} orders` : "All orders" } : undefined}
        />
        {recentOrders.length === 0 ? (
          <div className="mt-4">
            <AccountEmptyState title="No orders yet">When you buy a course, its order and receipt appear here.</AccountEmptyState>
          </div>
        ) : (
          <ul className={cardClass({ className: "mt-4 divide-y divide-slate-200 dark:divide-slate-800" })}>
            {recentOrders.map((order) => (
              <li key={order.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 p-4">
                <div className="min-w-0">
                  <Link to={`/account/orders#order-${order.id}`} className="font-medium text-slate-950 hover:underline dark:text-white">
                    {order.title}
                  </Link>
                  <p className="text-sm text-slate-600 dark:text-slate-400">
                    <span className="font-mono">{formatOrderNumber(order.number)}</span> · {formatDay(order.createdAt)}
                  </p>
                </div>
                <div className="flex items-center gap-3">
                  <span className="font-semibold tabular-nums text-slate-950 dark:text-white">{formatPaise(order.amount)}</span>
                  <OrderStatusBadge order={order} />
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
