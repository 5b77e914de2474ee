import { useState } from "react";
import { Form, Link } from "react-router";
import { couponLabel, createHostingOrder, discountedPrice, findOrder, gstSplit, hostingCoupon, unappliedHostingReason } from "../../../server/commerce/index.ts";
import { appServices } from "../../../server/context.ts";
import { attempt } from "../../../server/errors.ts";
import { hostingPlans, keepRefusal, nextPeriod } from "../../../server/websites/index.ts";
import { BackLink } from "../../components/back-link.tsx";
import { SubmitButton } from "../../components/form-controls.tsx";
import { FormAlert } from "../../components/form-alert.tsx";
import { ButtonLink } from "../../components/ui/button.tsx";
import { cardClass } from "../../components/ui/card.tsx";
import { Disclosure } from "../../components/ui/disclosure.tsx";
import { CouponForm } from "../../components/coupon-form.tsx";
import { PaymentNote } from "../../components/payment-note.tsx";
import { GstinField } from "../../components/gstin-field.tsx";
import { CancelOrderForm, OrderAlerts, useCheckout } from "../../components/order-progress.tsx";
import { PlanPicker } from "../../components/plan-picker.tsx";
import { RazorpayCheckout } from "../../components/razorpay-checkout.tsx";
import { WebsiteStatusBadge } from "../../components/status-badge.tsx";
import { SummaryRow } from "../../components/summary-row.tsx";
import { ExpiryText } from "../../components/website-expiry.tsx";
import { formatDay, formatOrderNumber, formatPaise } from "../../../common/format.ts";
import { pageMeta } from "../../lib/seo.ts";
import { replyProblem } from "../../../common/forms.ts";
import type { Route } from "./+types/account-website-renew";
import { checkoutAction, checkoutHeaders } from "../checkout/checkout.server.ts";
import { ownWebsite, websiteView } from "./website-view.server.ts";

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const { viewer, site } = await ownWebsite(context, params.webId);
  const { catalog, db, shop } = context.get(appServices);
  const now = shop.now();
  const query = new URL(request.url).searchParams;
  const orderId = query.get("order");
  const found = orderId ? await attempt(() => findOrder(shop, viewer.id, orderId)) : null;
  const order = found?.ok && found.value.websiteId === site.id ? found.value : null;
  // A coupon typed in the page's own form (a GET, so it works without scripts): each plan's price with it, or why it does not apply.
  const typedCoupon = (query.get("coupon") ?? "").trim().slice(0, 64);
  const withCoupon = typedCoupon ? await attempt(() => hostingCoupon(db, { userId: viewer.id, websiteId: site.id }, typedCoupon, now)) : null;
  const coupon = withCoupon?.ok ? withCoupon.value : null;
  const plans = hostingPlans(catalog, site.serviceId).map((plan) => {
    const { price, discount } = discountedPrice(plan.price, catalog.site.tax, coupon);
    const period = nextPeriod(site.expiresAt, now, plan.interval);
    return {
      id: plan.id,
      name: plan.name,
      interval: plan.interval,
      price: plan.price,
      breakdown: price,
      discount,
      gst: gstSplit(price.tax),
      period,
      note: `Hosted until ${formatDay(period.endsAt)}`,
    };
  });
  const wanted = query.get("plan") ?? site.planId;
  const view = websiteView(site, catalog, now);
  return {
    site: view,
    // Cancelled: why it cannot be renewed, or, while its owner may still keep it, that keeping it comes first.
    cancelled: view.state === "cancelled" ? { refusal: await keepRefusal(db, site, now) } : null,
    plans,
    selected: plans.some((p) => p.id === wanted) ? wanted : (plans[0]?.id ?? null),
    coupon: coupon && { code: coupon.code, label: couponLabel(coupon) },
    couponProblem: withCoupon && !withCoupon.ok ? withCoupon.message : null,
    typedCoupon,
    order: order && {
      id: order.id,
      number: formatOrderNumber(order.number),
      status: order.status,
      amount: order.amount,
      title: order.title,
      failureReason: order.failureReason,
      // Paid, but it started or extended nothing: it is being refunded, for the reason fulfilment recorded.
      unapplied: await unappliedHostingReason(db, order),
    },
    // A fresh key per rendering: resubmitting this form finds the order it already made.
    idempotencyKey: crypto.randomUUID(),
    paymentProvider: shop.provider.kind,
  };
}

export const headers = checkoutHeaders;

export const meta: Route.MetaFunction = (args) => {
  const site = args.loaderData?.site;
  // A website not paid for yet is bought for the first time here: no renewal words.
  return site?.state === "pending"
    ? pageMeta(args, { title: `Start hosting ${site.domain}`, description: "See the price and the dates of the first period, then pay securely." })
    : pageMeta(args, {
        title: site ? `Renew ${site.domain}` : "Renew a website",
        description: "Choose the plan and period, see the price and the new expiry date, then pay securely.",
      });
};

export async function action({ params, request, context }: Route.ActionArgs) {
  const { viewer, site } = await ownWebsite(context, params.webId);
  const services = context.get(appServices);
  return checkoutAction(services, viewer, request, {
    here: `/account/services/websites/${site.id}/renew`,
    description: `Website hosting for ${site.domain}`,
    create: (pay) =>
      createHostingOrder(services.shop, { userId: viewer.id, websiteId: site.id, planId: pay.planId, idempotencyKey: pay.idempotencyKey, buyerGstin: pay.gstin, couponCode: pay.coupon }),
  });
}

export default function RenewWebsite({ loaderData, actionData }: Route.ComponentProps) {
  const { site, plans, selected, coupon, couponProblem, typedCoupon, order, idempotencyKey, paymentProvider } = loaderData;
  const checkout = actionData?.checkout ?? null;
  const { busy, dismiss, waiting } = useCheckout(checkout, order);
  const details = `/account/services/websites/${site.id}`;
  const [choice, setChoice] = useState(selected);
  const chosen = plans.find((plan) => plan.id === choice) ?? null;
  const firstPurchase = site.state === "pending";

  if (order?.unapplied) {
    return (
      <section aria-labelledby="unapplied-heading" className="mx-auto max-w-xl rounded-2xl border border-amber-300 bg-white p-8 text-center shadow-sm dark:border-amber-800 dark:bg-slate-900">
        <h2 id="unapplied-heading" className="text-2xl font-bold break-words text-slate-950 dark:text-white">
          We could not apply your payment to {site.domain}
        </h2>
        <p className="mt-3 text-slate-700 dark:text-slate-300">
          We received {formatPaise(order.amount)}, but {order.unapplied}. We are refunding the{" "}
          {formatPaise(order.amount)} in full, to the account you paid with; banks usually take 5–7 working days to show it. We have e-mailed you the details.
        </p>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">Order {order.number}</p>
        <div className="mt-6 flex justify-center">
          <ButtonLink to="/account/orders" size="xl">
            See your orders
          </ButtonLink>
        </div>
      </section>
    );
  }

  if (order?.status === "paid") {
    return (
      <section aria-labelledby="paid-heading" className="mx-auto max-w-xl rounded-2xl border border-emerald-200 bg-white p-8 text-center shadow-sm dark:border-emerald-900 dark:bg-slate-900">
        <p aria-hidden="true" className="mx-auto grid size-12 place-items-center rounded-full bg-emerald-100 text-2xl text-emerald-700 dark:bg-emerald-900 dark:text-emerald-200">
          ✓
        </p>
        <h2 id="paid-heading" className="mt-4 text-2xl font-bold text-slate-950 dark:text-white">
          Payment received
        </h2>
        <p className="mt-3 text-slate-700 dark:text-slate-300">
          We received {formatPaise(order.amount)} for {order.title}.
          {site.expiresAt && ` ${site.domain} is now hosted until ${formatDay(site.expiresAt)}.`} Your receipt is on its way to your inbox.
        </p>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">Order {order.number}</p>
        <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
          <ButtonLink to={details} size="xl">
            See your website
          </ButtonLink>
          <ButtonLink to={`/account/orders/${order.id}/receipt`} variant="secondary" size="xl">
            View receipt
          </ButtonLink>
        </div>
      </section>
    );
  }

  const { cancelled } = loaderData;
  return (
    <section aria-labelledby="renew-heading">
      <BackLink fallback={details} label="Back to the website" />
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <h2 id="renew-heading" className="break-all text-xl font-semibold tracking-tight text-slate-950 dark:text-white">
          {site.state === "pending" ? `Start hosting ${site.domain}` : `Renew ${site.domain}`}
        </h2>
        <WebsiteStatusBadge state={site.state} />
      </div>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        <ExpiryText site={site} />
      </p>
      <OrderAlerts error={replyProblem(actionData)} order={order} waiting={waiting} />
      {cancelled ? (
        <div className="mt-6">
          <FormAlert tone="info">{cancelled.refusal ?? "You cancelled this website. To renew it, choose Keep my website on its page first: it is then hosted as before."}</FormAlert>
          <Link to={cancelled.refusal ? "/service/website-hosting" : details} className="mt-4 inline-block font-semibold text-brand-700 hover:underline dark:text-brand-300">
            {cancelled.refusal ? "See the hosting plans" : "Go to the website's page"}
          </Link>
        </div>
      ) : checkout ? (
        <RazorpayCheckout options={checkout.options} onDismiss={dismiss} />
      ) : (
        <Form method="post" className="mt-6 grid gap-8 lg:grid-cols-[1fr_22rem]">
          <input type="hidden" name="intent" value="pay" />
          <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
          {coupon && <input type="hidden" name="coupon" value={coupon.code} />}
          <div className="space-y-6">
            {firstPurchase ? (
              // Chosen on the service page already: folded away, for a change of mind only.
              <Disclosure summary="Change plan">
                <div className="mt-3">
                  <PlanPicker plans={plans} selected={selected} legend="Plan" onSelect={setChoice} />
                </div>
              </Disclosure>
            ) : (
              <PlanPicker plans={plans} selected={selected} legend="Plan and period" onSelect={setChoice} />
            )}
            <GstinField />
          </div>
          <div className={cardClass({ raised: true, className: "p-6 lg:self-start" })}>
            <h3 className="text-lg font-semibold text-slate-950 dark:text-white">What you are buying</h3>
            {chosen && <PlanSummary plan={chosen} coupon={coupon} firstPurchase={firstPurchase} />}
            <div className="mt-4">
              <SubmitButton pending={busy}>{busy ? "Please wait…" : "Continue to payment"}</SubmitButton>
            </div>
            <PaymentNote provider={paymentProvider} className="mt-3" />
          </div>
        </Form>
      )}
      {!cancelled && !checkout && !waiting && (
        <div className="max-w-md">
          <CouponForm removeTo={`/account/services/websites/${site.id}/renew`} coupon={coupon} typed={typedCoupon} problem={couponProblem} keep={choice ? { plan: choice } : {}} />
        </div>
      )}
      {waiting && order && <CancelOrderForm orderId={order.id} />}
    </section>
  );
}

type PlanChoice = Route.ComponentProps["loaderData"]["plans"][number];

/** The chosen plan's price with its GST and the period it buys: the first one, or the next. */
function PlanSummary({ plan, coupon, firstPurchase }: { plan: PlanChoice; coupon: { code: string; label: string } | null; firstPurchase: boolean }) {
  const { breakdown, discount, gst, period } = plan;
  return (
    <>
      <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">
        {firstPurchase ? (
          <>
            <strong className="block font-semibold text-slate-950 dark:text-white">{plan.name}</strong>
            First period:{" "}
          </>
        ) : (
          `${plan.name}: `
        )}
        {formatDay(period.startsAt)} to <strong className="font-semibold text-slate-950 dark:text-white">{formatDay(period.endsAt)}</strong>
      </p>
      <dl className="mt-3 divide-y divide-slate-200 dark:divide-slate-800">
        <SummaryRow label="Hosting fee" value={formatPaise(breakdown.taxable + discount)} />
        {coupon && discount > 0 && <SummaryRow label={`Coupon ${coupon.code} (${coupon.label})`} value={`−${formatPaise(discount)}`} />}
        <SummaryRow label={`CGST (${breakdown.ratePercent / 2}%)`} value={formatPaise(gst.cgst)} />
        <SummaryRow label={`SGST (${breakdown.ratePercent / 2}%)`} value={formatPaise(gst.sgst)} />
        <SummaryRow label="Total" value={formatPaise(breakdown.total)} strong />
      </dl>
      <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
        {breakdown.mode === "inclusive" ? "The price includes GST." : "GST is added to the hosting fee."}{" "}
        {firstPurchase ? "Your first period starts when your payment arrives." : "Renewing early adds the new period after the current one."}
      </p>
    </>
  );
}
