import { data, redirect } from "react-router";
import { consumeThrottle, type Viewer } from "../../../server/auth/index.ts";
import { cancelOrder, type Order } from "../../../server/commerce/index.ts";
import type { AppServices } from "../../../server/context.ts";
import { attempt } from "../../../server/errors.ts";
import { callbackPath } from "../../../server/payments/index.ts";
import type { RazorpayCheckoutOptions } from "../../components/razorpay-checkout.tsx";
import { z } from "zod";
import { refused, succeeded, type FormReply, type SentForm } from "../../../common/forms.ts";
import { readForm } from "../forms.server.ts";

/** What the page needs to open Razorpay Checkout for the order it just made. */
export interface CheckoutStart {
  options: RazorpayCheckoutOptions;
  orderId: string;
}

/** A checkout page's reply: the one form reply, with the checkout to open when an order was made. */
export type CheckoutReply = FormReply & { checkout?: CheckoutStart };

const answer = (reply: CheckoutReply, init: ResponseInit = {}) => data<CheckoutReply>(reply, init);

/** A "Pay" button's form (with a plan where the page has plans), or the "cancel" of the order a dismissed checkout left open. */
const checkoutForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("pay"), idempotencyKey: z.string(), gstin: z.string().default(""), planId: z.string().default(""), coupon: z.string().max(64).default("") }),
  z.object({ intent: z.literal("cancel"), orderId: z.string() }),
]);

export type PayInput = Extract<z.output<typeof checkoutForm>, { intent: "pay" }>;

/**
 * A "Pay" button's action: opens the order (`create`), then sends the browser to the sandbox's
 * checkout or hands the page what Razorpay Checkout needs. An order that needs no payment (free,
 * or already paid) goes back to `orderPage`. Each attempt opens an order with the provider; a
 * person needs a handful, a script needs a limit.
 */
export async function payAction(
  services: AppServices,
  viewer: Viewer,
  sent: SentForm,
  create: () => Promise<Order>,
  { description, orderPage }: { description: string; orderPage: (order: Order) => string },
) {
  const { shop, catalog, publicUrl } = services;
  const limit = await consumeThrottle(shop.db, `orders:${viewer.id}`, { windowSeconds: 15 * 60, max: 20 });
  if (!limit.allowed) {
    return answer(refused(sent, "Too many payment attempts. Please wait a few minutes before trying again."), {
      status: 429,
      headers: { "Retry-After": String(limit.retryAfterSeconds) },
    });
  }
  const result = await attempt(create);
  if (!result.ok) return answer(refused(sent, result.message), { status: result.status });
  const order = result.value;
  if (order.status !== "created" || !order.providerOrderId) throw redirect(orderPage(order));
  if (shop.provider.kind === "sandbox") throw redirect(`/sandbox/checkout/${order.providerOrderId}`);
  return answer({
    ...succeeded(sent),
    checkout: {
      orderId: order.id,
      options: {
        key: shop.provider.keyId,
      order_id: order.providerOrderId,
      amount: order.amount,
      currency: order.currency,
      name: catalog.site.name,
      description,
      prefill: { name: viewer.name, email: viewer.email },
      callback_url: `${publicUrl}${callbackPath}`,
        redirect: true,
        theme: { color: "#4f46e5" },
      },
    },
  });
}

/** A checkout page's headers: never cached, and an action's Retry-After passed on. */
export function checkoutHeaders({ actionHeaders }: { actionHeaders: Headers }): Headers {
  const result = new Headers({ "Cache-Control": "private, no-store" });
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) result.set("Retry-After", retryAfter);
  return result;
}

/**
 * A checkout page's action: "cancel" closes the order the browser's checkout was dismissed for,
 * "pay" opens one (payAction) from what the form sent; either way the order's progress shows at `here?order=`.
 */
export async function checkoutAction(
  services: AppServices,
  viewer: Viewer,
  request: Request,
  { here, description, create }: { here: string; description: string; create: (pay: PayInput) => Promise<Order> },
) {
  const form = await readForm(request, checkoutForm);
  if (!form.ok) return answer(form.reply.data, form.reply.init ?? {});
  const input = form.value;
  switch (input.intent) {
    case "cancel": {
      const result = await attempt(() => cancelOrder(services.shop, viewer.id, input.orderId));
      if (!result.ok) return answer(refused(form, result.message), { status: result.status });
      throw redirect(`${here}?order=${result.value.id}`);
    }
    case "pay":
      return payAction(services, viewer, form, () => create(input), { description, orderPage: (order) => `${here}?order=${order.id}` });
  }
}
