import { Link } from "react-router";
import { historyPageSize, listPayments, pageOf } from "../../../server/commerce/index.ts";
import { appServices, requireViewer } from "../../../server/context.ts";
import { AccountEmptyState } from "../../components/account-empty-state.tsx";
import { HistoryPager, NoOlderHistory } from "../../components/history-pager.tsx";
import { paymentMethodLabel } from "../../components/account-payment-method.tsx";
import { PaymentStatusBadge, RefundStatusBadge } from "../../components/status-badge.tsx";
import { formatMoment, formatPaise, formatOrderNumber } from "../../../common/format.ts";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/account-payments";
import { cardClass } from "../../components/ui/card.tsx";

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = requireViewer(context);
  const { db } = context.get(appServices);
  // ?before=<payment id>: the page of payments older than that one; a page is a bounded read, however long the history.
  const before = new URL(request.url).searchParams.get("before") ?? undefined;
  const page = pageOf(await listPayments(db, viewer.id, { limit: historyPageSize + 1, before }), historyPageSize, (p) => p.id);
  return {
    pageSize: historyPageSize,
    older: page.next === null ? null : `/account/payments?before=${page.next}`,
    paged: before !== undefined,
    payments: page.items.map((p) => ({
      id: p.id,
      orderId: p.orderId,
      orderNumber: p.orderNumber,
      title: p.title,
      providerPaymentId: p.providerPaymentId,
      method: paymentMethodLabel(p.method),
      amount: p.amount,
      status: p.status,
      failureReason: p.failureReason,
      createdAt: p.createdAt,
      refund: p.refund && {
        status: p.refund.status,
        amount: p.refund.amount,
        providerRefundId: p.refund.providerRefundId,
        processedAt: p.refund.processedAt,
        failureReason: p.refund.failureReason,
      },
    })),
  };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "Your payments", description: "Every payment attempt you made, its method and status, and any refund." });

export default function AccountPayments({ loaderData }: Route.ComponentProps) {
  const { payments, pageSize, older, paged } = loaderData;
  return (
    <section aria-labelledby="payments-heading">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="payments-heading" className="text-xl font-semibold tracking-tight text-slate-950 dark:text-white">
          Your payments
        </h2>
        <p className="text-sm text-slate-600 dark:text-slate-400">Every attempt, including ones that did not go through.</p>
      </div>

      {payments.length === 0 && paged ? (
        <NoOlderHistory latest="/account/payments" noun="payments" />
      ) : payments.length === 0 ? (
        <div className="mt-6">
          <AccountEmptyState title="No payments yet" action={{ to: "/courses", label: "Browse courses" }}>
            Each time you pay for a course, the attempt shows up here with its method and status.
          </AccountEmptyState>
        </div>
      ) : (
        <ol className="mt-6 space-y-4" aria-label="Payments, newest first">
          {payments.map((payment) => (
            <li key={payment.id}>
              <article
                aria-labelledby={`payment-${payment.id}-title`}
                className={cardClass({ raised: true, className: "p-5 sm:p-6" })}
              >
                <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
                  <div className="min-w-0">
                    <p className="text-sm text-slate-600 dark:text-slate-400">
                      <time dateTime={new Date(payment.createdAt).toISOString()}>{formatMoment(payment.createdAt)}</time>
                    </p>
                    <h3 id={`payment-${payment.id}-title`} className="mt-1 text-lg font-semibold text-slate-950 dark:text-white">
                      {payment.title}
                    </h3>
                    <p className="text-sm text-slate-600 dark:text-slate-400">
                      Order{" "}
                      <Link
                        to={`/account/orders#order-${payment.orderId}`}
                        className="font-mono font-medium text-brand-700 hover:underline dark:text-brand-300"
                      >
                        {formatOrderNumber(payment.orderNumber)}
                      </Link>
                    </p>
                  </div>
                  <div className="flex items-center gap-3">
                    <p className="text-lg font-bold tabular-nums text-slate-950 dark:text-white">{formatPaise(payment.amount)}</p>
                    <PaymentStatusBadge status={payment.status} />
                  </div>
                </div>

                {payment.status === "failed" && payment.failureReason && (
                  <p className="mt-3 text-sm text-red-700 dark:text-red-300">{payment.failureReason}</p>
                )}

                <dl className="mt-4 space-y-3 border-t border-slate-200 pt-4 text-sm sm:grid sm:grid-cols-[auto_1fr] sm:gap-x-8 sm:gap-y-3 sm:space-y-0 dark:border-slate-800">
                  <div className="sm:contents">
                    <dt className="text-slate-600 dark:text-slate-400">Method</dt>
                    <dd className="font-medium text-slate-950 dark:text-white">{payment.method}</dd>
                  </div>
                  <div className="sm:contents">
                    <dt className="text-slate-600 dark:text-slate-400">Payment ID</dt>
                    <dd className="break-all font-mono text-slate-950 dark:text-white">{payment.providerPaymentId}</dd>
                  </div>
                  {payment.refund && (
                    <div className="sm:contents">
                      <dt className="text-slate-600 dark:text-slate-400">Refund</dt>
                      <dd className="space-y-1">
                        <p className="flex flex-wrap items-center gap-2">
                          <RefundStatusBadge status={payment.refund.status} />
                          <span className="font-medium tabular-nums text-slate-950 dark:text-white">{formatPaise(payment.refund.amount)}</span>
                          {payment.refund.processedAt && (
                            <span className="text-slate-600 dark:text-slate-400">on {formatMoment(payment.refund.processedAt)}</span>
                          )}
                        </p>
                        {payment.refund.providerRefundId && (
                          <p className="text-slate-600 dark:text-slate-400">
                            Refund ID <span className="break-all font-mono text-slate-950 dark:text-white">{payment.refund.providerRefundId}</span>
                          </p>
                        )}
                        {payment.refund.status === "failed" && payment.refund.failureReason && (
                          <p className="text-red-700 dark:text-red-300">{payment.refund.failureReason}</p>
                        )}
                      </dd>
                    </div>
                  )}
                </dl>
              </article>
            </li>
          ))}
        </ol>
      )}
      <HistoryPager pageSize={pageSize} older={older} latest={paged ? "/account/payments" : null} noun="payments" />
    </section>
  );
}
