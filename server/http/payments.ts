import type { Hono } from "hono";
import { completeCheckout, type CheckoutResult } from "../commerce/checkout.ts";
import { orderPagePath } from "../commerce/orders.ts";
import { handleWebhook } from "../commerce/webhooks.ts";
import { UserError } from "../errors.ts";
import { callbackPath, webhookPath } from "../payments/index.ts";
import { ProviderError } from "../payments/provider.ts";
import type { HttpDeps } from "./deps.ts";
import type { HttpEnv } from "./env.ts";

/** Razorpay's ids and signatures are short runs of letters, digits and underscores; nothing else is looked up. */
const razorpayToken = (value: unknown) => (typeof value === "string" && /^\w{1,128}$/.test(value) ? value : null);

/** Razorpay's redirect-mode callback fields: a signed success, or an error with its payment in `error[metadata]`. */
function checkoutResult(form: Record<string, unknown>): CheckoutResult | null {
  const orderId = razorpayToken(form.razorpay_order_id);
  const paymentId = razorpayToken(form.razorpay_payment_id);
  const signature = razorpayToken(form.razorpay_signature);
  if (orderId && paymentId && signature) return { kind: "success", orderId, paymentId, signature };
  const metadataField = form["error[metadata]"];
  try {
    const metadata = JSON.parse(typeof metadataField === "string" ? metadataField : "") as { order_id?: unknown; payment_id?: unknown };
    const failedOrderId = razorpayToken(metadata.order_id);
    if (!failedOrderId) return null;
    return { kind: "failure", orderId: failedOrderId, paymentId: razorpayToken(metadata.payment_id) };
  } catch {
    return null;
  }
}

/** The payment provider's webhook, and the callback a buyer's browser comes back to from its checkout. */
export function mountPayments(app: Hono<HttpEnv>, deps: HttpDeps): void {
  app.post(webhookPath, async (c) => {
    const answer = await handleWebhook(deps.payments.shop, {
      rawBody: await c.req.text(),
      signature: c.req.header("x-razorpay-signature"),
      eventId: c.req.header("x-razorpay-event-id"),
    });
    if (answer.status !== 200) deps.logger.warn({ requestId: c.get("requestId"), reason: answer.message }, "webhook rejected");
    return c.json({ message: answer.message }, answer.status);
  });

  app.post(callbackPath, async (c) => {
    const result = checkoutResult(await c.req.parseBody().catch(() => ({})));
    if (!result) return c.text("This is not a payment result we understand.", 400);
    try {
      const { order } = await completeCheckout(deps.payments.shop, result);
      return c.redirect(orderPagePath(order), 303);
    } catch (error) {
      // Could not ask the provider: the order page waits for the webhook, which will settle it.
      if (error instanceof ProviderError) {
        deps.logger.warn({ err: error, providerOrderId: result.orderId }, "checkout callback could not confirm the payment");
        return c.redirect(`/account/orders?pending=${encodeURIComponent(result.orderId)}`, 303);
      }
      if (error instanceof UserError) return c.text(error.message, error.status as 400);
      throw error;
    }
  });
}
