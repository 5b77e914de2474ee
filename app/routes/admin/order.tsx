import { data, Form, Link } from "react-router";
import { z } from "zod";
import { formatCreditNoteNumber, formatMoment, formatOrderNumber, formatPaise, parseRupees } from "../../../common/format.ts";
import { staffReasonLength, rolesAllow } from "../../../common/staff.ts";
import { replyFor } from "../../../common/forms.ts";
import { appServices } from "../../../server/context.ts";
import { checkOrderWithProvider, refundOrderOutsidePolicy, staffOrder } from "../../../server/staff/index.ts";
import { ReplyAlert } from "../../components/form-controls.tsx";
import { OrderStatusBadge } from "../../components/status-badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { cardClass } from "../../components/ui/card.tsx";
import { ConfirmDialog } from "../../components/ui/dialog.tsx";
import { TextArea, TextField } from "../../components/ui/field.tsx";
import { attemptFor, readForm, succeed } from "../forms.server.ts";
import type { Route } from "./+types/order";
import { useSubmittingIntent } from "../../lib/use-submitting-intent.ts";
import { backOfficeMeta } from "./meta.ts";
import { actorFor, mayAlso, staffWith } from "./access.server.ts";
import { PageHeading, Section } from "./page-heading.tsx";

const providerLabels = { razorpay: "Razorpay", sandbox: "Sandbox", free: "Free (no payment)" } as const;

/** One order with its payments and everything that happened to it. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const member = await staffWith(context, request, "orders.view");
  const order = await staffOrder(context.get(appServices).db, params.orderId);
  if (!order) throw data({ message: "No order has this id." }, { status: 404 });
  return {
    id: order.id,
    number: formatOrderNumber(order.number),
    title: order.title,
    kind: order.kind,
    status: order.status,
    amount: formatPaise(order.amount),
    tax: `${formatPaise(order.taxAmount)} GST at ${order.taxRatePercent}%`,
    provider: providerLabels[order.provider],
    providerOrderId: order.providerOrderId,
    failureReason: order.failureReason,
    buyer: order.buyer,
    refund: order.refund && {
      status: order.refund.status,
      amount: order.refund.amount === order.amount ? formatPaise(order.refund.amount) : `${formatPaise(order.refund.amount)} of ${formatPaise(order.amount)}`,
      providerRefundId: order.refund.providerRefundId,
      creditNote: order.refund.creditNoteNumber === null ? null : formatCreditNoteNumber(order.refund.creditNoteNumber),
      failureReason: order.refund.failureReason,
    },
    payments: order.payments.map((payment) => ({ ...payment, amount: formatPaise(payment.amount), createdAt: payment.createdAt.toISOString() })),
    timeline: order.timeline.map((event) => ({ ...event, at: event.at.toISOString() })),
    mayCheck: order.providerOrderId !== null && rolesAllow(member.roles, "orders.check"),
    // A refund under way or made is shown above; one that failed may be tried again.
    mayRefund: order.status === "paid" && order.amount > 0 && (order.refund === null || order.refund.status === "failed") && rolesAllow(member.roles, "orders.refund"),
  };
}

const orderForm = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("check-provider") }),
    z.object({
      intent: z.literal("refund"),
      reason: z
        .string()
        .trim()
        .min(staffReasonLength.min, `Say why this order is refunded outside the policy, in at least ${staffReasonLength.min} characters.`)
        .max(staffReasonLength.max, `Keep the reason to ${staffReasonLength.max} characters.`),
      // Absent for the whole order; in rupees for part of it.
      amount: z
        .string()
        .optional()
        .transform((typed, context) => {
          if (typed === undefined) return null;
          const paise = parseRupees(typed);
          if (paise === null) context.addIssue({ code: "custom", message: "Type the amount in rupees, such as 2000 or 1499.50." });
          return paise;
        }),
    }),
  ],
  "Choose what to do with this order.",
);

/**
 * "Check with the provider": what the payment provider knows about the order, applied as its
 * webhooks would have been. "Refund": the whole order or part of it, whatever the policy says, with a reason.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const member = await staffWith(context, request, "orders.check");
  const form = await readForm(request, orderForm);
  if (!form.ok) return form.reply;
  const value = form.value;
  if (value.intent === "refund") mayAlso(member, "orders.refund");
  const { shop } = context.get(appServices);
  const actor = actorFor(member, request);
  const done = await attemptFor(form, () =>
    value.intent === "refund" ? refundOrderOutsidePolicy(shop, actor, params.orderId, value) : checkOrderWithProvider(shop, actor, params.orderId),
  );
  if (!done.ok) return done.reply;
  return succeed(form, done.value);
}

const reasonInput = <TextArea label="Why (kept in the audit log)" name="reason" required minLength={staffReasonLength.min} maxLength={staffReasonLength.max} rows={3} />;

export const meta: Route.MetaFunction = ({ loaderData: order }) => backOfficeMeta(order ? `${order.number} · Orders` : "Order");

export default function OrderPage({ loaderData: order, actionData }: Route.ComponentProps) {
  const sending = useSubmittingIntent();
  const answer = replyFor(actionData, "check-provider");
  const refunded = replyFor(actionData, "refund");
  return (
    <div className="space-y-8">
      <PageHeading
        back={{ to: "/admin/orders", label: "Orders" }}
        title={
          <>
            <span className="font-mono">{order.number}</span> · {order.title}
          </>
        }
      >
        <div className="mt-3 flex flex-wrap items-center gap-3">
          <OrderStatusBadge order={order} />
          <span className="text-slate-700 dark:text-slate-300">
            {order.amount} (includes {order.tax})
          </span>
        </div>
        {order.failureReason && <p className="mt-2 text-slate-700 dark:text-slate-300">{order.failureReason}</p>}
      </PageHeading>

      <dl className={cardClass({ className: "grid gap-4 p-6 sm:grid-cols-2" })}>
        <div>
          <dt className="text-sm text-slate-600 dark:text-slate-400">Buyer</dt>
          <dd className="mt-1 break-all font-medium text-slate-950 dark:text-white">
            {order.buyer ? (
              <Link to={`/admin/customers/${order.buyer.id}`} className="text-brand-700 hover:underline dark:text-brand-300">
                {order.buyer.name} &lt;{order.buyer.email}&gt;
              </Link>
            ) : (
              "The account was deleted"
            )}
          </dd>
        </div>
        <div>
          <dt className="text-sm text-slate-600 dark:text-slate-400">Paid through</dt>
          <dd className="mt-1 break-all font-medium text-slate-950 dark:text-white">
            {order.provider}
            {order.providerOrderId && <span className="font-mono text-sm"> · {order.providerOrderId}</span>}
          </dd>
        </div>
        {order.refund && (
          <div>
            <dt className="text-sm text-slate-600 dark:text-slate-400">Refund</dt>
            <dd className="mt-1 font-medium text-slate-950 dark:text-white">
              {order.refund.amount}, {order.refund.status}
              {order.refund.providerRefundId && <span className="font-mono text-sm"> · {order.refund.providerRefundId}</span>}
              {order.refund.creditNote && ` · credit note ${order.refund.creditNote}`}
              {order.refund.failureReason && ` · ${order.refund.failureReason}`}
            </dd>
          </div>
        )}
      </dl>

      {order.mayCheck && (
        <Section id="check" title="Paid, but nothing happened?">
          <p className="text-slate-600 dark:text-slate-400">
            Ask the payment provider about this order. A payment it took is applied as its webhook would have been: the order is fulfilled once, however often you ask.
          </p>
          <ReplyAlert reply={answer} />
          <Form method="post">
            <input type="hidden" name="intent" value="check-provider" />
            <Button type="submit" variant="secondary" disabled={sending("check-provider")}>
              {sending("check-provider") ? "Asking the provider…" : "Check with the provider"}
            </Button>
          </Form>
        </Section>
      )}

      {(order.mayRefund || refunded) && (
        <Section id="refund" title="Refund outside the policy">
          <ReplyAlert reply={refunded} />
          {order.mayRefund && (
            <>
              <p className="text-slate-600 dark:text-slate-400">
                Gives the buyer back the whole {order.amount}, or part of it, through the payment provider, whatever the cancellation &amp; refund policy says, and issues the GST credit note when the provider confirms it. An order is refunded once.
              </p>
              <div className="flex flex-wrap gap-3">
              <ConfirmDialog
                trigger={`Refund ${order.amount}…`}
                triggerStyle={{ variant: "danger-outline" }}
                title={`Refund ${order.amount} for ${order.number}?`}
                fields={{ intent: "refund" }}
                inputs={reasonInput}
                confirmLabel={`Refund ${order.amount}`}
                pendingLabel="Refunding…"
                pending={sending("refund")}
              >
                {order.kind === "course"
                  ? "The buyer loses access to the course at once, and any certificate for it is withdrawn once the refund is processed."
                  : "A website's first period refunded ends its hosting; a refunded renewal leaves the website as it is."}{" "}
                The buyer is mailed. This cannot be undone.
              </ConfirmDialog>
              <ConfirmDialog
                trigger="Refund part…"
                triggerStyle={{ variant: "secondary" }}
                title={`Refund part of ${order.amount} for ${order.number}?`}
                fields={{ intent: "refund" }}
                inputs={
                  <>
                    <TextField label="Amount in rupees" name="amount" required inputMode="decimal" autoComplete="off" placeholder="2000" />
                    {reasonInput}
                  </>
                }
                confirmLabel="Refund this amount"
                pendingLabel="Refunding…"
                pending={sending("refund")}
              >
                Goodwill: the buyer keeps {order.kind === "course" ? "the course and any certificate" : "the website as it is"}, and the order stays paid. The credit note states the amount with its share of GST. The
                buyer is mailed. This cannot be undone, and the order cannot be refunded again.
              </ConfirmDialog>
              </div>
            </>
          )}
        </Section>
      )}

      <Section id="payments" title="Payments">
        {order.payments.length === 0 ? (
          <p className="text-slate-600 dark:text-slate-400">No payment has reached us for this order.</p>
        ) : (
          <ul className="divide-y divide-slate-200 dark:divide-slate-800" aria-label="Payments">
            {order.payments.map((payment) => (
              <li key={payment.id} className="py-3 text-sm">
                <p className="font-medium text-slate-950 dark:text-white">
                  {payment.amount} · {payment.status}
                  {payment.method && ` · ${payment.method}`}
                </p>
                <p className="break-all text-slate-600 dark:text-slate-400">
                  <span className="font-mono">{payment.providerPaymentId}</span> · {formatMoment(payment.createdAt)}
                  {payment.failureReason && ` · ${payment.failureReason}`}
                </p>
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section id="timeline" title="What happened">
        <ol className="space-y-3 border-l border-slate-200 pl-4 dark:border-slate-800" aria-label="Timeline">
          {order.timeline.map((event, index) => (
            <li key={`${event.at}-${index}`} className="text-sm">
              <p className="font-medium text-slate-950 dark:text-white">{event.what}</p>
              <p className="break-all text-slate-600 dark:text-slate-400">
                <time dateTime={event.at}>{formatMoment(event.at)}</time>
                {event.detail && ` · ${event.detail}`}
              </p>
            </li>
          ))}
        </ol>
      </Section>
    </div>
  );
}
