import { expect, test, type Page } from "@playwright/test";
import { paymentSignature } from "../../server/payments/signature.ts";
import { testPayPath } from "../support/razorpay-api.ts";
import { signUpVerified, uniqueEmail, giveOwnAddress } from "./identity.ts";
import { openRazorpayCheckout, standInForRazorpayCheckout } from "./shop.ts";
import { appUrl, razorpayApiUrl, razorpayAppUrl, razorpayKeys } from "./servers.ts";

// These run against the app whose provider is Razorpay; its API is the local stand-in.
test.use({ baseURL: razorpayAppUrl });

const password = "correct horse battery staple";

test.beforeEach(async ({ context, page }) => {
  await giveOwnAddress(context);
  await standInForRazorpayCheckout(page);
});

const openCheckout = (page: Page) => openRazorpayCheckout(page, "react-fundamentals", "Pay ₹6,999");

/** What Razorpay does in redirect mode: a form POST of the result to the merchant's callback URL. */
async function postToCallback(page: Page, url: string, fields: Record<string, string>) {
  await page.evaluate(
    ({ target, values }) => {
      const form = document.createElement("form");
      form.method = "post";
      form.action = target;
      for (const [name, value] of Object.entries(values)) {
        const input = document.createElement("input");
        input.type = "hidden";
        input.name = name;
        input.value = value;
        form.append(input);
      }
      document.body.append(form);
      form.submit();
    },
    { target: url, values: fields },
  );
}

test("opens Razorpay Checkout with the server's order and completes it from Razorpay's signed redirect", async ({ page, request }) => {
  const email = uniqueEmail("razorpay");
  await signUpVerified(page, request, { name: "Deepa Menon", email, password });
  await page.goto(`${razorpayAppUrl}/courses/react-fundamentals/confirm`);
  await expect(page.getByText("Payments are processed securely by Razorpay. UPI, cards, net banking and wallets accepted.")).toBeVisible();
  const options = await openCheckout(page);
  expect(options).toMatchObject({
    key: razorpayKeys.RAZORPAY_KEY_ID,
    amount: 699_900,
    currency: "INR",
    name: "Academy",
    description: "React from Fundamentals to Production",
    prefill: { name: "Deepa Menon", email },
    callback_url: `${razorpayAppUrl}/api/payments/callback`,
    redirect: true,
  });

  const payment = (await (
    await request.post(`${razorpayApiUrl}${testPayPath}`, { data: { order_id: options.order_id, method: "card", outcome: "captured" } })
  ).json()) as { id: string };
  await postToCallback(page, options.callback_url, {
    razorpay_payment_id: payment.id,
    razorpay_order_id: options.order_id,
    razorpay_signature: paymentSignature(razorpayKeys.RAZORPAY_KEY_SECRET, options.order_id, payment.id),
  });
  await expect(page.getByRole("heading", { name: "You're enrolled" })).toBeVisible();
  await page.goto("/account/payments");
  await expect(page.getByText(payment.id)).toBeVisible();
});

test("a payment Razorpay reports declined fails the order with the bank's reason", async ({ page, request }) => {
  await signUpVerified(page, request, { name: "Imran", email: uniqueEmail("razorpay-decline"), password });
  const options = await openCheckout(page);
  const payment = (await (
    await request.post(`${razorpayApiUrl}${testPayPath}`, { data: { order_id: options.order_id, method: "netbanking", outcome: "failed" } })
  ).json()) as { id: string };
  await postToCallback(page, options.callback_url, {
    "error[code]": "BAD_REQUEST_ERROR",
    "error[description]": "Your payment could not be completed as it was declined by your bank.",
    "error[source]": "bank",
    "error[step]": "payment_authorization",
    "error[reason]": "payment_failed",
    "error[metadata]": JSON.stringify({ payment_id: payment.id, order_id: options.order_id }),
  });
  await expect(page.getByRole("alert")).toHaveText("Your bank declined the payment. Nothing was charged.");
  await expect(page.getByRole("button", { name: "Try again: pay ₹6,999" })).toBeVisible();
});

test("closing Razorpay Checkout cancels the order and offers to pay again", async ({ page, request }) => {
  await signUpVerified(page, request, { name: "Sana", email: uniqueEmail("razorpay-dismiss"), password });
  await openCheckout(page);
  await page.evaluate(() => (window as unknown as { razorpayCheckoutOptions: { modal: { ondismiss(): void } } }).razorpayCheckoutOptions.modal.ondismiss());
  await expect(page.getByText("You closed the payment window before paying. Nothing was charged.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Try again: pay ₹6,999" })).toBeVisible();
});

test("the CSP lets Razorpay's frames in only where Razorpay is the provider", async ({ request }) => {
  const withRazorpay = (await request.get("/courses")).headers()["content-security-policy"] ?? "";
  expect(withRazorpay).toMatch(/frame-src [^;]*https:\/\/api\.razorpay\.com/);
  const withSandbox = (await request.get(`${appUrl}/courses`)).headers()["content-security-policy"] ?? "";
  expect(withSandbox).not.toContain("razorpay.com");
});
