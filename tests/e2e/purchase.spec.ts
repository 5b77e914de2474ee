import { expect, test, type Page } from "@playwright/test";
import { scanBudget, seriousMailViolations, seriousViolationsInBothThemes } from "./axe.ts";
import { latestMail, signIn, signOut, signUpVerified, uniqueEmail, giveOwnAddress } from "./identity.ts";

const password = "correct horse battery staple";

test.beforeEach(async ({ context }) => {
  await giveOwnAddress(context);
});

async function startPayment(page: Page, courseId: string) {
  await page.goto(`/courses/${courseId}/confirm`);
  await page.getByRole("button", { name: /^Pay ₹/ }).click();
  await expect(page).toHaveURL(/\/sandbox\/checkout\/order_[A-Za-z0-9]{14}$/);
  await expect(page.getByText("Sandbox — no money moves")).toBeVisible();
}

test("a visitor signs in from Enrol now, pays in the sandbox and lands enrolled with a receipt", async ({ page, request }) => {
  test.setTimeout(scanBudget(2));
  const email = uniqueEmail("buyer");
  await signUpVerified(page, request, { name: "Meera Pillai", email, password });
  await signOut(page);

  await page.goto("/course/react-fundamentals");
  await page.getByRole("link", { name: "Enrol now" }).click();
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fcourses%2Freact-fundamentals%2Fconfirm$/);
  await page.getByRole("main").getByRole("link", { name: "Sign in", exact: true }).first().click();
  await signIn(page, email, password);
  await expect(page).toHaveURL(/\/courses\/react-fundamentals\/confirm$/);
  await expect(page).toHaveTitle(/^Confirm your order: React from Fundamentals to Production/);

  const summary = page.getByRole("region", { name: "Order summary" });
  await expect(summary).toContainText("₹6,999");
  await expect(summary).toContainText("CGST (9%)");
  await expect(summary).toContainText("SGST (9%)");
  await expect(page.getByRole("link", { name: "cancellation & refund policy" })).toHaveAttribute("href", "/cancellation-refund");
  await expect(page.getByText(/within 7 days of buying, as long as you have completed less than 25%/)).toBeVisible();
  // The sandbox stands in for Razorpay here: the page does not claim a real payment processor.
  await expect(summary.getByText("A test shop: payments go to a sandbox, and no money moves.")).toBeVisible();
  await expect(page.getByText(/processed securely by Razorpay/)).toHaveCount(0);

  await page.getByRole("button", { name: "Pay ₹6,999" }).click();
  await expect(page.getByText("Sandbox — no money moves")).toBeVisible();
  await expect(page.getByText("React from Fundamentals to Production")).toBeVisible();
  await page.getByLabel("UPI").check();
  await page.getByRole("button", { name: "Pay", exact: true }).click();

  await expect(page).toHaveURL(/\/courses\/react-fundamentals\/confirm\?order=[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name: "You're enrolled" })).toBeVisible();
  await expect(page.getByText(/We received your payment of ₹6,999/)).toBeVisible();
  await expect(page.getByRole("link", { name: "Start learning" })).toBeVisible();

  const receipt = await latestMail(request, email, /Your receipt for React from Fundamentals to Production/);
  expect(receipt.text).toMatch(/payment pay_[A-Za-z0-9]{14}/);
  expect(receipt.links[0]).toMatch(/\/courses\/react-fundamentals\/MainPage$/);
  // The mail as a phone shows it: the invoice's amounts in a table that fits 375 px.
  const phone = await page.context().newPage();
  await phone.setViewportSize({ width: 375, height: 812 });
  await phone.setContent(receipt.html);
  const amounts = phone.getByRole("table", { name: /^Amounts on invoice ACD-\d{6}$/ });
  await expect(amounts.getByRole("row")).toHaveText([
    /^React from Fundamentals to Production\s*₹5,931\.36$/,
    /^Taxable value\s*₹5,931\.36$/,
    /^CGST @ 9%\s*₹533\.82$/,
    /^SGST @ 9%\s*₹533\.82$/,
    /^Total paid\s*₹6,999\.00$/,
  ]);
  expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  expect(await seriousMailViolations(phone, "the receipt mail")).toEqual([]);
  await phone.close();

  await page.goto("/course/react-fundamentals");
  await expect(page.getByRole("link", { name: "Go to course" })).toBeVisible();
  await page.goto("/courses/react-fundamentals/confirm");
  await expect(page.getByText("You already own this course.")).toBeVisible();
  await expect(page.getByRole("button", { name: /^Pay/ })).toHaveCount(0);
});

test("a business registered in another state gives its GSTIN and gets an invoice with IGST, supplied in its state", async ({ page, request }) => {
  await signUpVerified(page, request, { name: "Acme Traders", email: uniqueEmail("business"), password });
  await page.goto("/courses/react-fundamentals/confirm");
  await page.getByText("Buying for a business? Add your GSTIN").click();
  await page.getByLabel("GSTIN (optional)").fill("27aaaca1234a1z5");
  await page.getByRole("button", { name: "Pay ₹6,999" }).click();
  await page.getByLabel("UPI").check();
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await expect(page.getByRole("heading", { name: "You're enrolled" })).toBeVisible();

  await page.goto("/account/orders");
  await page.getByRole("link", { name: /^Receipt for order ACD-\d{6}$/ }).click();
  await expect(page.getByText("27AAACA1234A1Z5")).toBeVisible();
  await expect(page.getByText("Maharashtra (27)")).toBeVisible();
  const taxes = page.getByRole("table", { name: "Tax breakdown" });
  await expect(taxes.getByRole("row")).toHaveText([/^Taxable value\s*₹5,931\.36$/, /^IGST @ 18%\s*₹1,067\.64$/, /^Total\s*₹6,999\.00$/]);
});

test("a declined payment says nothing was charged, enrols nothing, and a retry succeeds", async ({ page, request }) => {
  await signUpVerified(page, request, { name: "Kabir", email: uniqueEmail("decline"), password });
  await startPayment(page, "node-backend");
  await page.getByRole("button", { name: "Decline" }).click();
  await expect(page).toHaveURL(/\/courses\/node-backend\/confirm\?order=/);
  await expect(page.getByRole("alert")).toHaveText("Your bank declined the payment. Nothing was charged.");
  await page.goto("/course/node-backend");
  await expect(page.getByRole("link", { name: "Enrol now" })).toBeVisible();

  await page.goBack();
  await page.getByRole("button", { name: /^Try again: pay ₹/ }).click();
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await expect(page.getByRole("heading", { name: "You're enrolled" })).toBeVisible();
  // Back leaves the gateway out, as a hosted checkout does: it is the page before it (the same reused order, declined then).
  await page.goBack();
  await expect(page).toHaveURL(/\/courses\/node-backend\/confirm\?order=/);
  await expect(page.getByRole("heading", { name: "You're enrolled" })).toBeVisible();

  // One purchase is one order, with the declined attempt folded under it.
  await page.goto("/account/orders");
  const orders = page.getByRole("list", { name: "Orders, newest first" }).getByRole("article");
  await expect(orders).toHaveCount(1);
  await expect(orders.first().getByText("Paid", { exact: true })).toBeVisible();
  await orders.first().getByText("1 earlier attempt that did not go through").click();
  await expect(orders.first().getByText(/: Your bank declined the payment\. Nothing was charged\.$/)).toBeVisible();
});

test("cancelling in the checkout cancels the order and offers to pay again", async ({ page, request }) => {
  await signUpVerified(page, request, { name: "Tara", email: uniqueEmail("cancel"), password });
  await startPayment(page, "ui-ux-design");
  await page.getByRole("button", { name: "Cancel and return to the shop" }).click();
  await expect(page).toHaveURL(/\/courses\/ui-ux-design\/confirm\?order=/);
  await expect(page.getByRole("status").filter({ hasText: "You closed the payment window before paying. Nothing was charged." })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Try again: pay ₹/ })).toBeVisible();
});

test("the webhook completes an order whose tab never came back from the checkout", async ({ page, request }) => {
  const email = uniqueEmail("closed");
  await signUpVerified(page, request, { name: "Arjun", email, password });
  await startPayment(page, "python-data-analysis");
  // The browser never reaches our callback, as when the tab is closed right after paying.
  await page.route("**/api/payments/callback", (route) => route.abort());
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await latestMail(request, email, /Your receipt for/);
  await page.unroute("**/api/payments/callback");
  await page.goto("/course/python-data-analysis");
  await expect(page.getByRole("link", { name: "Go to course" })).toBeVisible();
});

test("the confirmation page is for signed-in people and unknown courses are not found", async ({ page, request }) => {
  await page.goto("/courses/react-fundamentals/confirm");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fcourses%2Freact-fundamentals%2Fconfirm$/);
  await signUpVerified(page, request, { name: "Noor", email: uniqueEmail("unknown"), password });
  const response = await page.goto("/courses/no-such-course/confirm");
  expect(response?.status()).toBe(404);
});

test("the confirmation, sandbox checkout and result pages have no serious or critical axe violations in either theme", async ({ page, request }) => {
  test.setTimeout(90_000);
  await signUpVerified(page, request, { name: "Axe", email: uniqueEmail("confirm-axe"), password });
  await startPayment(page, "cloud-devops-essentials");
  const sandbox = new URL(page.url()).pathname;
  await page.getByRole("button", { name: "Decline" }).click();
  await expect(page.getByRole("alert")).toBeVisible();
  const failed = new URL(page.url()).pathname + new URL(page.url()).search;
  for (const path of ["/courses/react-fundamentals/confirm", sandbox, failed]) {
    await page.goto(path);
    expect(await seriousViolationsInBothThemes(page, path)).toEqual([]);
  }
});
