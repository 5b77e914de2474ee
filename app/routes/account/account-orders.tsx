import { useEffect, useRef } from "react";
import { Link, type ShouldRevalidateFunctionArgs } from "react-router";
import { foldAttempts, historyPageSize, listOrdersWithEligibility, orderPagePath, pageOf, requestRefund } from "../../../server/commerce/index.ts";
import { appServices, requireViewer } from "../../../server/context.ts";
import { AccountEmptyState } from "../../components/account-empty-state.tsx";
import { RefundDialog } from "../../components/account-refund-dialog.tsx";
import { FormAlert } from "../../components/form-alert.tsx";
import { HistoryPager, NoOlderHistory } from "../../components/history-pager.tsx";
import { OrderStatusBadge } from "../../components/status-badge.tsx";
import { formatDay, formatMoment, formatPaise, formatOrderNumber } from "../../../common/format.ts";
import { pageMeta } from "../../lib/seo.ts";
import { useReloadWhile } from "../../lib/use-reload-while.ts";
import type { Route } from "./+types/account-orders";
import { ButtonLink } from "../../components/ui/button.tsx";
import { cardClass } from "../../components/ui/card.tsx";
import { z } from "zod";
import { flag, replyProblem } from "../../../common/forms.ts";
import { attemptFor, readForm, succeed } from "../forms.server.ts";

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = requireViewer(context);
  const { catalog, db, shop } = context.get(appServices);
  const query = new URL(request.url).searchParams;
  // ?before=<order number>: the page of orders older than that one; a page is a bounded read, however long the history.
  const before = /^\d{1,15}$/.test(query.get("before") ?? "") ? Number(query.get("before")) : undefined;
  const page = pageOf(await listOrdersWithEligibility(db, catalog, viewer.id, shop.now(), { limit: historyPageSize + 1, before }), historyPageSize, (o) => o.number);
  const orders = await foldAttempts(db, page.items);
  // The checkout return sends ?pending=<provider order id> when the bank has not answered yet.
  const pending = query.get("pending");
  const pendingOrder = pending ? orders.find((o) => o.providerOrderId === pending) : undefined;
  return {
    awaitingConfirmation: pending !== null && pending !== "" && (pendingOrder === undefined || pendingOrder.status === "created"),
    refundPolicy: catalog.site.refund,
    pageSize: historyPageSize,
    older: page.next === null ? null : `/account/orders?before=${page.next}`,
    paged: before !== undefined,
    orders: orders.map((o) => ({
      id: o.id,
      number: o.number,
      courseId: o.courseId,
      payPath: orderPagePath(o),
      websiteId: o.websiteId,
      title: o.title,
      courseListed: catalog.courses.some((c) => c.id === o.courseId),
      amount: o.amount,
      status: o.status,
      failureReason: o.failureReason,
      createdAt: o.createdAt,
      refundedAt: o.refundedAt,
      refund: o.refund && {
        status: o.refund.status,
        amount: o.refund.amount,
        failureReason: o.refund.failureReason,
        createdAt: o.refund.createdAt,
        processedAt: o.refund.processedAt,
      },
      refundEligibility: o.refundEligibility,
      hostingPeriod: o.hostingPeriod,
      attempts: o.attempts,
    })),
  };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "Your orders", description: "Every course you have ordered, its receipt, and refunds." });

const refundForm = z.object({ intent: z.literal("refund"), orderId: z.string(), retry: flag("1") });

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requireViewer(context);
  const { shop } = context.get(appServices);
  const form = await readForm(request, refundForm);
  if (!form.ok) return form.reply;
  const result = await attemptFor(form, () => requestRefund(shop, viewer.id, form.value.orderId));
  if (!result.ok) return result.reply;
  const amount = formatPaise(result.value.amount);
  // The confirmation e-mail goes out with the first request only.
  return succeed(
    form,
    form.value.retry ? `Your refund of ${amount} has been requested again.` : `Your refund of ${amount} has been requested. We have e-mailed you a confirmation.`,
  );
}

// A failed refund request can still change the order (access is restored), so reload after any submission.
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod === "POST" || defaultShouldRevalidate;
}

type OrderView = Route.ComponentProps["loaderData"]["orders"][number];

function OrderNotes({ order }: { order: OrderView }) {
  const note = "text-sm text-slate-600 dark:text-slate-400";
  const { refund } = order;
  if ((order.status === "failed" || order.status === "cancelled") && order.failureReason) {
    return <p className={order.status === "failed" ? "text-sm text-red-700 dark:text-red-300" : note}>{order.failureReason}</p>;
  }
  if (order.status === "created") {
    return (
      <p className={note}>
        This order has not been paid yet.{" "}
        <Link to={order.payPath} className="font-semibold text-brand-700 hover:underline dark:text-brand-300">
          Complete the payment
        </Link>
      </p>
    );
  }
  // A hosting payment that could not be applied is refunded without being asked for.
  const unapplied = order.hostingPeriod === "none";
  if (refund && (refund.status === "requested" || refund.status === "pending")) {
    return (
      <p className={note}>
        {unapplied
          ? `We could not apply this payment to the website, so we are refunding ${formatPaise(refund.amount)} in full.`
          : refund.amount < order.amount
            ? `We are refunding ${formatPaise(refund.amount)} of this order, as goodwill; you keep what you bought.`
            : `You asked for a refund of ${formatPaise(refund.amount)} on ${formatDay(refund.createdAt)}.`}{" "}
        It goes back to the account you paid with, normally within 5–7 business days.
      </p>
    );
  }
  if (order.status === "refunded") {
    const on = refund?.processedAt ?? order.refundedAt;
    return (
      <p className={note}>
        {formatPaise(refund?.amount ?? order.amount)} was refunded{on ? ` on ${formatDay(on)}` : ""}.{" "}
        {order.courseId ? "You no longer have access to this course." : unapplied ? "The payment could not be applied to the website." : "The website's hosting has ended."}
      </p>
    );
  }
  if (refund?.status === "processed") {
    // Part of a paid order, as goodwill: the order stays paid and what it bought stays theirs.
    return (
      <p className={note}>
        {formatPaise(refund.amount)} of this order was refunded{refund.processedAt ? ` on ${formatDay(refund.processedAt)}` : ""}, as goodwill. You keep {order.courseId ? "the course" : "the website"}.
      </p>
    );
  }
  if (refund?.status === "failed") {
    return (
      <p className="text-sm text-red-700 dark:text-red-300">
        Your refund did not go through: {refund.failureReason ?? "the payment provider could not complete it."}
        {order.courseId && " You still have access to the course."}
      </p>
    );
  }
  if (order.refundEligibility?.eligible) {
    const { until } = order.refundEligibility;
    return (
      <p className={note}>
        {until ? `You can ask for a full refund until ${formatDay(until)}.` : "This payment could not be applied to the website: ask for a full refund at any time."}
      </p>
    );
  }
  if (order.refundEligibility && !order.refundEligibility.eligible) {
    return <p className={note}>Refund not available: {order.refundEligibility.reason}</p>;
  }
  return null;
}

function OrderActions({ order }: { order: OrderView }) {
  const hasReceipt = order.status === "paid" || order.status === "refunded";
  // A failed refund of part of the order was the company's: its staff try it again, not the buyer.
  const refundRetry = order.status === "paid" && order.refund?.status === "failed" && order.refund.amount === order.amount;
  const canRefund = order.status === "paid" && order.refundEligibility?.eligible === true;
  if (!hasReceipt && !canRefund && !refundRetry) return null;
  return (
    <div className="flex flex-wrap items-center gap-3">
      {hasReceipt && (
        <ButtonLink
          to={`/account/orders/${order.id}/receipt`}
          size="sm"
        >
          Receipt<span className="sr-only"> for order {formatOrderNumber(order.number)}</span>
        </ButtonLink>
      )}
      {order.refund?.status === "processed" && (
        <ButtonLink
          to={`/account/orders/${order.id}/credit-note`}
          variant="secondary"
          size="sm"
        >
          Credit note<span className="sr-only"> for order {formatOrderNumber(order.number)}</span>
        </ButtonLink>
      )}
      {(canRefund || refundRetry) && (
        <RefundDialog orderId={order.id} courseTitle={order.title} amount={formatPaise(order.amount)} retry={refundRetry} hosting={order.courseId === null} />
      )}
    </div>
  );
}

/** Payments that did not go through on the way to this order, folded away: part of its story, not orders of their own. */
function EarlierAttempts({ attempts }: { attempts: OrderView["attempts"] }) {
  return (
    <details className="group mt-4 border-t border-slate-200 pt-3 text-sm dark:border-slate-800">
      <summary className="cursor-pointer font-medium text-slate-700 hover:text-slate-950 dark:text-slate-300 dark:hover:text-white">
        {attempts.length === 1 ? "1 earlier attempt" : `${attempts.length} earlier attempts`} that did not go through
      </summary>
      <ul className="mt-2 space-y-1 text-slate-600 dark:text-slate-400">
        {attempts.map((a) => (
          <li key={new Date(a.at).toISOString() + a.reason}>
            <time dateTime={new Date(a.at).toISOString()}>{formatMoment(a.at)}</time>: {a.reason}
          </li>
        ))}
      </ul>
    </details>
  );
}

export default function AccountOrders({ loaderData, actionData }: Route.ComponentProps) {
  const { orders, awaitingConfirmation, refundPolicy, pageSize, older, paged } = loaderData;
  const alert = useRef<HTMLDivElement>(null);
  useReloadWhile(awaitingConfirmation, { intervalMs: 4000, limit: 30 });
  // The dialog that asked has closed: move focus to the outcome so it is read out and seen.
  useEffect(() => {
    if (actionData) alert.current?.focus();
  }, [actionData]);

  return (
    <section aria-labelledby="orders-heading">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="orders-heading" className="text-xl font-semibold tracking-tight text-slate-950 dark:text-white">
          Your orders
        </h2>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Refunds: within {refundPolicy.windowDays} days of purchase, under {refundPolicy.maxProgressPercent}% completed.{" "}
          <Link to="/cancellation-refund" className="font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300">
            Refund policy
          </Link>
        </p>
      </div>

      <div ref={alert} tabIndex={-1} className="mt-4 space-y-3 empty:hidden focus:outline-none">
        {awaitingConfirmation && (
          <FormAlert tone="info">We are still confirming a payment with the bank. This page will show it as soon as it is confirmed.</FormAlert>
        )}
        {actionData && <FormAlert tone={actionData.ok ? "success" : "error"}>{actionData.ok ? actionData.message : replyProblem(actionData)}</FormAlert>}
      </div>

      {orders.length === 0 && paged ? (
        <NoOlderHistory latest="/account/orders" noun="orders" />
      ) : orders.length === 0 ? (
        <div className="mt-6">
          <AccountEmptyState title="You have not placed any orders yet" action={{ to: "/courses", label: "Browse courses" }}>
            When you buy a course, its order, receipt and any refund appear here.
          </AccountEmptyState>
        </div>
      ) : (
        <ol className="mt-6 space-y-4" aria-label="Orders, newest first">
          {orders.map((order) => (
            <li key={order.id} id={`order-${order.id}`} className="scroll-mt-24">
              <article
                aria-labelledby={`order-${order.id}-title`}
                className={cardClass({ raised: true, className: "p-5 sm:p-6" })}
              >
                <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
                  <div className="min-w-0">
                    <p className="text-sm text-slate-600 dark:text-slate-400">
                      <span className="font-mono font-medium text-slate-800 dark:text-slate-200">{formatOrderNumber(order.number)}</span>
                      <span aria-hidden="true"> · </span>
                      <span className="sr-only">, placed </span>
                      <time dateTime={new Date(order.createdAt).toISOString()}>{formatMoment(order.createdAt)}</time>
                    </p>
                    <h3 id={`order-${order.id}-title`} className="mt-1 text-lg font-semibold text-slate-950 dark:text-white">
                      {order.courseListed ? (
                        <Link to={`/course/${order.courseId}`} className="hover:underline">
                          {order.title}
                        </Link>
                      ) : (
                        order.title
                      )}
                    </h3>
                  </div>
                  <div className="flex items-center gap-3">
                    <p className="text-lg font-bold tabular-nums text-slate-950 dark:text-white">{formatPaise(order.amount)}</p>
                    <OrderStatusBadge order={order} />
                  </div>
                </div>
                <div className="mt-3 flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
                  <div className="min-w-0 sm:max-w-xl">
                    <OrderNotes order={order} />
                  </div>
                  <OrderActions order={order} />
                </div>
                {order.attempts.length > 0 && <EarlierAttempts attempts={order.attempts} />}
              </article>
            </li>
          ))}
        </ol>
      )}
      <HistoryPager pageSize={pageSize} older={older} latest={paged ? "/account/orders" : null} noun="orders" />
    </section>
  );
}
