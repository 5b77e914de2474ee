import { data, redirect } from "react-router";
import { consumeThrottle, type Viewer } from "../../../server/auth/index.ts";
import { cancelOrder, type Order } from "../../../server/commerce/index.ts";
import type { AppServices } from "../../../server/context.ts";
import { attempt } from "../../../server/errors.ts";
import { callbackPath } from "../../../server/payments/index.ts";
import type { RazorpayCheckoutOptions } from "../../components/razorpay-checkout.tsx";

export type CheckoutActionResult = { error: string } | { checkout: RazorpayCheckoutOptions; orderId: string };

/**
 * A "Pay" button's action: opens the order (`create`), then sends the browser to the sandbox's
 * checkout or hands the page what Razorpay Checkout needs. An order that needs no payment (free,
 * or already paid) goes back to `orderPage`. Each attempt opens an order with the provider; a
 * person needs a handful, a script needs a limit.
 */
export async function payAction(
  services: AppServices,
  viewer: Viewer,
  create: () => Promise<Order>,
  { description, orderPage }: { description: string; orderPage: (order: Order) => string },
) {
  const { shop, catalog, publicUrl } = services;
  const limit = await consumeThrottle(shop.db, `orders:${viewer.id}`, { windowSeconds: 15 * 60, max: 20 });
  if (!limit.allowed) {
    return data<CheckoutActionResult>(
      { error: "Too many payment attempts. Please wait a few minutes before trying again." },
      { status: 429, headers: { "Retry-After": String(limit.retryAfterSeconds) } },
    );
  }
  const result = await attempt(create);
  if (!result.ok) return data<CheckoutActionResult>({ error: result.message }, { status: result.status });
  const order = result.value;
  if (order.status !== "created" || !order.providerOrderId) throw redirect(orderPage(order));
  if (shop.provider.kind === "sandbox") throw redirect(`/sandbox/checkout/${order.providerOrderId}`);
  return data<CheckoutActionResult>({
    orderId: order.id,
    checkout: {
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
 * "pay" opens one (payAction); either way the order's progress shows at `here?order=`.
 */
export async function checkoutAction(
  services: AppServices,
  viewer: Viewer,
  form: FormData,
  { here, description, create }: { here: string; description: string; create: () => Promise<Order> },
) {
  const intent = form.get("intent");
  if (intent === "cancel") {
    const result = await attempt(() => cancelOrder(services.shop, viewer.id, String(form.get("orderId") ?? "")));
    if (!result.ok) return data<CheckoutActionResult>({ error: result.message }, { status: result.status });
    throw redirect(`${here}?order=${result.value.id}`);
  }
  if (intent !== "pay") return data<CheckoutActionResult>({ error: "Unknown action." }, { status: 400 });
  return payAction(services, viewer, create, { description, orderPage: (order) => `${here}?order=${order.id}` });
}
