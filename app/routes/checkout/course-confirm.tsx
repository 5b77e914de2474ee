import { data, Form, Link } from "react-router";
import { couponForCourse, couponLabel, coursePlayerPath, createOrder, findOrder, gstSplit, isEnrolled, priceBreakdown } from "../../../server/commerce/index.ts";
import { courseOffSale, coursesOnSale } from "../../../server/catalog/index.ts";
import { appServices, requireViewer } from "../../../server/context.ts";
import { attempt } from "../../../server/errors.ts";
import { BackLink } from "../../components/back-link.tsx";
import { CheckList } from "../../components/check-list.tsx";
import { SubmitButton } from "../../components/form-controls.tsx";
import { FormAlert } from "../../components/form-alert.tsx";
import { CancelOrderForm, OrderAlerts, useCheckout } from "../../components/order-progress.tsx";
import { Container } from "../../components/page-intro.tsx";
import { RazorpayCheckout } from "../../components/razorpay-checkout.tsx";
import { SummaryRow } from "../../components/summary-row.tsx";
import { formatPaise, formatOrderNumber } from "../../../common/format.ts";
import { pageMeta } from "../../lib/seo.ts";
import { replyProblem } from "../../../common/forms.ts";
import type { Route } from "./+types/course-confirm";
import { checkoutAction, checkoutHeaders } from "./checkout.server.ts";
import { ButtonLink } from "../../components/ui/button.tsx";
import { CouponForm } from "../../components/coupon-form.tsx";
import { PaymentNote } from "../../components/payment-note.tsx";
import { GstinField } from "../../components/gstin-field.tsx";
import { cardClass } from "../../components/ui/card.tsx";

function findCourse(context: Route.LoaderArgs["context"], courseId: string) {
  const { catalog } = context.get(appServices);
  const course = catalog.courses.find((c) => c.id === courseId);
  if (!course) throw data(null, { status: 404 });
  return course;
}

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const viewer = requireViewer(context);
  const { catalog, shop } = context.get(appServices);
  const course = findCourse(context, params.courseId);
  const url = new URL(request.url);
  const orderId = url.searchParams.get("order");
  const typedCoupon = (url.searchParams.get("coupon") ?? "").trim().slice(0, 64);
  const [found, owned, onSale] = await Promise.all([
    orderId ? attempt(() => findOrder(shop, viewer.id, orderId)) : null,
    isEnrolled(shop.db, viewer.id, course.id),
    coursesOnSale(shop.db),
  ]);
  const order = found?.ok && found.value.courseId === course.id ? found.value : null;
  // An order already made (back from paying) is still followed to its end; a new one is not offered.
  if (!onSale.has(course.id) && !owned && !order) throw data({ message: courseOffSale }, { status: 410 });
  // A coupon typed in the page's own form (a GET, so it works without scripts): the price it makes, or why it does not apply.
  const withCoupon = typedCoupon && !owned ? await attempt(() => couponForCourse(shop.db, catalog.site, { userId: viewer.id, course }, typedCoupon, new Date())) : null;
  const applied = withCoupon?.ok ? withCoupon.value : null;
  const price = applied?.price ?? priceBreakdown(course.price, catalog.site.tax);
  return {
    course: {
      id: course.id,
      title: course.title,
      summary: course.summary,
      lessonCount: course.lessonCount,
      moduleCount: course.modules.length,
      durationHours: course.durationHours,
    },
    price,
    gst: gstSplit(price.tax),
    coupon: applied && { code: applied.coupon.code, label: couponLabel(applied.coupon), discount: applied.discount, listTaxable: price.taxable + applied.discount },
    couponProblem: withCoupon && !withCoupon.ok ? withCoupon.message : null,
    typedCoupon,
    owned,
    order: order && {
      id: order.id,
      number: formatOrderNumber(order.number),
      status: order.status,
      amount: order.amount,
      failureReason: order.failureReason,
      providerOrderId: order.providerOrderId,
    },
    refund: catalog.site.refund,
    // A fresh key per rendering: resubmitting this form finds the order it already made.
    idempotencyKey: crypto.randomUUID(),
    playerPath: coursePlayerPath(course.id),
    paymentProvider: shop.provider.kind,
  };
}

export const headers = checkoutHeaders;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: args.loaderData ? `Confirm your order: ${args.loaderData.course.title}` : "Confirm your order",
    description: "Review the course, the price with GST and the refund policy, then pay securely.",
  });

export async function action({ params, request, context }: Route.ActionArgs) {
  const viewer = requireViewer(context);
  const services = context.get(appServices);
  const course = findCourse(context, params.courseId);
  return checkoutAction(services, viewer, request, {
    here: `/courses/${course.id}/confirm`,
    description: course.title,
    create: (pay) => createOrder(services.shop, { userId: viewer.id, courseId: course.id, idempotencyKey: pay.idempotencyKey, buyerGstin: pay.gstin, couponCode: pay.coupon }),
  });
}

export default function ConfirmPage({ loaderData, actionData }: Route.ComponentProps) {
  const { course, price, gst, coupon, couponProblem, typedCoupon, owned, order, refund, idempotencyKey, playerPath, paymentProvider } = loaderData;
  const free = price.total === 0;
  const checkout = actionData?.checkout ?? null;
  const { busy, dismiss, waiting } = useCheckout(checkout, order);

  if (order?.status === "paid") {
    return (
      <Container className="py-12 sm:py-16">
        <div className="mx-auto max-w-xl rounded-2xl border border-emerald-200 bg-white p-8 text-center shadow-sm dark:border-emerald-900 dark:bg-slate-900">
          <p aria-hidden="true" className="mx-auto grid size-12 place-items-center rounded-full bg-emerald-100 text-2xl text-emerald-700 dark:bg-emerald-900 dark:text-emerald-200">
            ✓
          </p>
          <h1 className="mt-4 text-2xl font-bold text-slate-950 dark:text-white">You&apos;re enrolled</h1>
          <p className="mt-3 text-slate-700 dark:text-slate-300">
            {order.amount === 0
              ? `${course.title} is now in your account.`
              : `We received your payment of ${formatPaise(order.amount)} for ${course.title}. Your receipt is on its way to your inbox.`}
          </p>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">Order {order.number}</p>
          <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
            <ButtonLink to={playerPath} size="xl" className="border border-transparent">
              Start learning
            </ButtonLink>
            {order.amount > 0 && (
              <ButtonLink
                to={`/account/orders/${order.id}/receipt`}
                variant="secondary"
                size="xl"
              >
                View receipt
              </ButtonLink>
            )}
          </div>
        </div>
      </Container>
    );
  }

  return (
    <Container className="py-10 sm:py-14">
      <BackLink fallback={`/course/${course.id}`} label="Back to the course" />
      <h1 className="mt-6 text-3xl font-bold tracking-tight text-slate-950 dark:text-white">Confirm your order</h1>
      <div className="mt-8 grid gap-8 lg:grid-cols-[1fr_24rem]">
        <section aria-labelledby="course-heading" className={cardClass({ className: "p-6" })}>
          <h2 id="course-heading" className="text-xl font-semibold text-slate-950 dark:text-white">
            <Link to={`/course/${course.id}`} className="hover:underline">
              {course.title}
            </Link>
          </h2>
          <p className="mt-2 text-slate-600 dark:text-slate-400">{course.summary}</p>
          <h3 className="mt-6 font-semibold text-slate-950 dark:text-white">What you get</h3>
          <CheckList
            small
            className="mt-3 space-y-2"
            items={[
              `${course.lessonCount} lessons in ${course.moduleCount} modules, about ${course.durationHours} hours of learning`,
              "Lifetime access at your own pace, on any device",
              "Hands-on exercises and a final project",
              "A certificate of completion with a public verification link",
            ]}
          />
          <h3 className="mt-6 font-semibold text-slate-950 dark:text-white">Refund policy</h3>
          <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">
            Changed your mind? Ask for a full refund from your orders page within {refund.windowDays} days of buying, as long
            as you have completed less than {refund.maxProgressPercent}% of the course. Read the{" "}
            <Link to="/cancellation-refund" className="font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300">
              cancellation &amp; refund policy
            </Link>
            .
          </p>
        </section>

        <section
          aria-labelledby="summary-heading"
          className={cardClass({ raised: true, className: "order-first p-6 lg:order-last lg:self-start" })}
        >
          <h2 id="summary-heading" className="text-lg font-semibold text-slate-950 dark:text-white">
            Order summary
          </h2>
          {owned ? (
            <div className="mt-4">
              <FormAlert tone="info">You already own this course.</FormAlert>
              <ButtonLink to={playerPath} size="lg" className="mt-4 block text-center">
                Go to course
              </ButtonLink>
            </div>
          ) : (
            <>
              <dl className="mt-4 divide-y divide-slate-200 dark:divide-slate-800">
                {free ? (
                  <SummaryRow label="Price" value="Free" strong />
                ) : (
                  <>
                    <SummaryRow label="Course fee" value={formatPaise(coupon?.listTaxable ?? price.taxable)} />
                    {coupon && <SummaryRow label={`Coupon ${coupon.code} (${coupon.label})`} value={`−${formatPaise(coupon.discount)}`} />}
                    <SummaryRow label={`CGST (${price.ratePercent / 2}%)`} value={formatPaise(gst.cgst)} />
                    <SummaryRow label={`SGST (${price.ratePercent / 2}%)`} value={formatPaise(gst.sgst)} />
                    <SummaryRow label="Total" value={formatPaise(price.total)} strong />
                  </>
                )}
              </dl>
              {!free && (
                <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
                  {price.mode === "inclusive" ? "The price includes GST." : "GST is added to the course fee."} One-time payment.
                </p>
              )}
              <OrderAlerts error={replyProblem(actionData)} order={order} waiting={waiting} />
              {checkout ? (
                <RazorpayCheckout options={checkout.options} onDismiss={dismiss} />
              ) : (
                <Form method="post" className="mt-4 space-y-4">
                  <input type="hidden" name="intent" value="pay" />
                  <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
                  {coupon && <input type="hidden" name="coupon" value={coupon.code} />}
                  {!free && <GstinField />}
                  <SubmitButton pending={busy}>
                    {busy ? "Please wait…" : free ? "Enrol for free" : order?.status === "failed" || order?.status === "cancelled" ? `Try again: pay ${formatPaise(price.total)}` : `Pay ${formatPaise(price.total)}`}
                  </SubmitButton>
                </Form>
              )}
              {!checkout && !waiting && (coupon || !free) && <CouponForm removeTo={`/courses/${course.id}/confirm`} coupon={coupon} typed={typedCoupon} problem={couponProblem} />}
              {waiting && order && <CancelOrderForm orderId={order.id} className="w-full text-center" />}
              {!free && <PaymentNote provider={paymentProvider} className="mt-4" />}
            </>
          )}
        </section>
      </div>
    </Container>
  );
}

