import { expect, type Page } from "@playwright/test";
import type { RazorpayCheckoutOptions } from "../../app/components/razorpay-checkout.tsx";
import { webhookSignature } from "../../server/payments/signature.ts";
import { gotoHydrated } from "./hydration.ts";
import { razorpayKeys } from "./servers.ts";

/** Buys a course through the sandbox checkout, paying or declining, and waits for the result page. */
export async function buyCourse(page: Page, id: string, outcome: "Pay" | "Decline" = "Pay"): Promise<void> {
  await page.goto(`/courses/${id}/confirm`);
  await page.getByRole("button", { name: /Pay ₹/ }).click();
  await expect(page).toHaveURL(/\/sandbox\/checkout\/[^/?]+$/);
  await page.getByRole("button", { name: outcome, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/courses/${id}/confirm\\?order=`));
  if (outcome === "Pay") await expect(page.getByRole("heading", { name: "You're enrolled" })).toBeVisible();
}

/**
 * Stands in for https://checkout.razorpay.com/v1/checkout.js, which this machine cannot reach: the
 * same global constructor, keeping the options it was opened with so the test can act as the buyer.
 */
const checkoutScript = `window.Razorpay = function (options) {
  this.open = function () {
    window.razorpayCheckoutOptions = options;
    var marker = document.createElement("p");
    marker.textContent = "Razorpay Checkout is open for " + options.order_id;
    document.body.append(marker);
  };
};`;

export async function standInForRazorpayCheckout(page: Page): Promise<void> {
  await page.route("https://checkout.razorpay.com/v1/checkout.js", (route) => route.fulfill({ contentType: "application/javascript", body: checkoutScript }));
}

/** Opens Razorpay Checkout for course `id` on an app whose provider is Razorpay; the options it was opened with. */
export async function openRazorpayCheckout(page: Page, id: string, payLabel: string): Promise<RazorpayCheckoutOptions> {
  // Checkout opens from the page's script: a click before it has taken the page over would post the form instead.
  await gotoHydrated(page, `/courses/${id}/confirm`);
  await page.getByRole("button", { name: payLabel }).click();
  await expect(page.getByText(/^Razorpay Checkout is open for order_\w{14}$/)).toBeVisible();
  return page.evaluate(() => (window as unknown as { razorpayCheckoutOptions: RazorpayCheckoutOptions }).razorpayCheckoutOptions);
}

/** Razorpay's webhook for one event, signed as Razorpay signs it, as request options for the webhook URL. */
export function razorpayWebhook(event: string, entities: Record<string, object>) {
  const payload = Object.fromEntries(Object.entries(entities).map(([name, entity]) => [name, { entity }]));
  const body = JSON.stringify({ entity: "event", account_id: "acc_e2e", event, contains: Object.keys(entities), payload, created_at: Math.floor(Date.now() / 1000) });
  return { data: body, headers: { "content-type": "application/json", "x-razorpay-signature": webhookSignature(razorpayKeys.RAZORPAY_WEBHOOK_SECRET, body) } };
}
