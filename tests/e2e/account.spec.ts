import { expect, test, type Page } from "@playwright/test";
import { scanBudget, seriousViolationsInBothThemes } from "./axe.ts";
import { buyCourse } from "./shop.ts";
import { gotoHydrated } from "./hydration.ts";
import { signUpVerified, uniqueEmail, giveOwnAddress } from "./identity.ts";

const password = "correct horse battery staple";
const courseId = "react-fundamentals";
const courseTitle = "React from Fundamentals to Production";

test.beforeEach(async ({ context }) => {
  await giveOwnAddress(context);
});

/** Buys a course through the sandbox checkout: confirm → Pay ₹… → the sandbox's Pay (or Decline) → back on the confirm page. */
function orderCard(page: Page, title: RegExp | string) {
  return page.getByRole("article").filter({ has: page.getByRole("heading", { name: title }) });
}

test("a new user sees an empty state on every account page", async ({ page, request }) => {
  await signUpVerified(page, request, { name: "Asha Rao", email: uniqueEmail("account-empty"), password });

  await page.getByRole("button", { name: "Account menu for Asha Rao" }).click();
  await page.getByRole("link", { name: "My account" }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page).toHaveTitle("Your account | Academy");
  await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
  // A first visit is welcomed, not welcomed back, and told what the page will hold.
  await expect(page.getByText("Welcome, Asha", { exact: true })).toBeVisible();
  await expect(page.getByText(/^This is your account\./)).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Your account" }).getByRole("link", { name: "Overview" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByText("You have not enrolled in a course yet")).toBeVisible();
  await expect(page.getByRole("region", { name: "Needs your attention" })).toHaveCount(0);
  await expect(page.getByText("No orders yet")).toBeVisible();
  await page.getByRole("link", { name: "Browse courses" }).click();
  await expect(page).toHaveURL(/\/courses$/);

  await page.goto("/account/courses");
  await expect(page).toHaveTitle("Your courses | Academy");
  await expect(page.getByRole("navigation", { name: "Your account" }).getByRole("link", { name: "Courses" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByText("You have not enrolled in a course yet")).toBeVisible();

  await page.goto("/account/orders");
  await expect(page).toHaveTitle("Your orders | Academy");
  await expect(page.getByText("You have not placed any orders yet")).toBeVisible();

  await page.goto("/account/payments");
  await expect(page).toHaveTitle("Your payments | Academy");
  await expect(page.getByText("No payments yet")).toBeVisible();
});

test("a bought course shows on the account pages, with a tax invoice and the payment", async ({ page, request }) => {
  await signUpVerified(page, request, { name: "Ravi Kumar", email: uniqueEmail("account-buy"), password });
  await buyCourse(page, courseId);

  await page.goto("/account/courses");
  const card = page.locator(`article#${courseId}`);
  await expect(card.getByRole("heading", { name: courseTitle })).toBeVisible();
  await expect(card.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "0");
  await expect(card.getByText(/^0 of \d+ lessons completed$/)).toBeVisible();
  await expect(card.getByText(/^Enrolled on /)).toBeVisible();
  // Nothing to continue at 0 %.
  await expect(card.getByRole("link", { name: /^Start course/ })).toHaveAttribute("href", `/courses/${courseId}/MainPage`);

  await page.goto("/account");
  await expect(page.getByText(/^Welcome back, Ravi$/)).toBeVisible();
  await expect(page.getByRole("link", { name: `Start course ${courseTitle}` })).toBeVisible();
  await expect(page.getByRole("region", { name: "Recent orders" }).getByText("Paid", { exact: true })).toBeVisible();
  await expect(page.getByText("Nothing needs your attention right now.")).toBeVisible();

  await page.goto("/account/orders");
  const order = orderCard(page, courseTitle);
  await expect(order.getByText("Paid", { exact: true })).toBeVisible();
  await expect(order.getByText(/^ACD-\d{6}$/)).toBeVisible();
  await expect(order.getByText(/You can ask for a full refund until/)).toBeVisible();
  await expect(order.getByRole("button", { name: /Request a refund/ })).toBeVisible();
  const number = (await order.getByText(/^ACD-\d{6}$/).textContent()) ?? "";
  await order.getByRole("link", { name: /^Receipt/ }).click();

  await expect(page).toHaveURL(/\/account\/orders\/[0-9a-f-]{36}\/receipt$/);
  await expect(page).toHaveTitle(`Receipt ${number} | Academy`);
  await expect(page.getByRole("heading", { level: 1, name: "Tax invoice" })).toBeVisible();
  const invoice = page.getByRole("article");
  await expect(invoice.getByText("29AAKCA1234F1Z5")).toBeVisible();
  await expect(invoice.getByText("Academy Learning Technologies Private Limited")).toBeVisible();
  await expect(invoice.getByText(number, { exact: true })).toBeVisible();
  await expect(invoice.getByRole("rowheader", { name: "CGST @ 9%" })).toBeVisible();
  await expect(invoice.getByRole("rowheader", { name: "SGST @ 9%" })).toBeVisible();
  await expect(invoice.getByRole("cell", { name: "999293" })).toBeVisible();
  await expect(invoice.getByText(/^pay_\w+$/)).toBeVisible();
  await expect(invoice.getByText("Ravi Kumar")).toBeVisible();
  await expect(page.getByRole("button", { name: "Print or save as PDF" })).toBeVisible();

  await page.goto("/account/payments");
  const payment = orderCard(page, courseTitle);
  await expect(payment.getByText("Successful", { exact: true })).toBeVisible();
  await expect(payment.getByText("UPI", { exact: true })).toBeVisible();
  await expect(payment.getByText(number, { exact: true })).toBeVisible();
  await expect(payment.getByText(/^pay_\w+$/)).toBeVisible();
});

test("a declined payment shows as failed, with the bank's reason, and asks for another try", async ({ page, request }) => {
  await signUpVerified(page, request, { name: "Declined Dev", email: uniqueEmail("account-decline"), password });
  await buyCourse(page, courseId, "Decline");

  await page.goto("/account/payments");
  const payment = orderCard(page, courseTitle);
  await expect(payment.getByText("Failed", { exact: true })).toBeVisible();
  await expect(payment.getByText("Your bank declined the payment. Nothing was charged.")).toBeVisible();

  await page.goto("/account/orders");
  const order = orderCard(page, courseTitle);
  await expect(order.getByText("Failed", { exact: true })).toBeVisible();
  await expect(order.getByText("Your bank declined the payment. Nothing was charged.")).toBeVisible();
  await expect(order.getByRole("link", { name: /^Receipt/ })).toHaveCount(0);

  await page.goto("/account");
  const retry = page.getByRole("link", { name: "Payment failed — try again" });
  await expect(retry).toHaveAttribute("href", `/courses/${courseId}/confirm`);
});

test("a refund is confirmed in a dialog, shows in progress, then refunded, and the course is gone", async ({ page, request }) => {
  await signUpVerified(page, request, { name: "Refund Seeker", email: uniqueEmail("account-refund"), password });
  await buyCourse(page, courseId);

  await gotoHydrated(page, "/account/orders");
  const order = orderCard(page, courseTitle);
  await order.getByRole("button", { name: /Request a refund/ }).click();
  const dialog = page.getByRole("dialog", { name: `Refund ${courseTitle}?` });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(new RegExp(`You will lose access to ${courseTitle} straight away, and ₹[\\d,]+ goes back to the account you paid with\\.`));
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();

  await order.getByRole("button", { name: /Request a refund/ }).click();
  await dialog.getByRole("button", { name: "Yes, refund me" }).click();
  await expect(page.getByRole("status").filter({ hasText: /Your refund of ₹[\d,]+ has been requested\. We have e-mailed you a confirmation\./ })).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(order.getByText("Refund in progress", { exact: true })).toBeVisible();
  await expect(order.getByRole("button", { name: /Request a refund/ })).toHaveCount(0);

  // The sandbox reports refund.processed by webhook about two seconds later.
  await expect(async () => {
    await page.reload();
    await expect(orderCard(page, courseTitle).getByText("Refunded", { exact: true })).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await expect(orderCard(page, courseTitle).getByText(/was refunded on/)).toBeVisible();

  // The invoice stays as issued; a credit note corrects it.
  await orderCard(page, courseTitle).getByRole("link", { name: /^Receipt/ }).click();
  await expect(page.getByRole("heading", { name: "Tax invoice", level: 1 })).toBeVisible();
  await expect(page.getByRole("note")).toContainText(/This order was refunded on .+ credit note CN-\d{6} corrects it/);
  await page.getByRole("link", { name: "View the credit note" }).click();
  await expect(page.getByRole("heading", { name: "Credit note", level: 1 })).toBeVisible();
  await expect(page.getByText("Against invoice")).toBeVisible();
  await expect(page.getByText(/This credit note cancels invoice ACD-\d{6} in full/)).toBeVisible();
  await expect(page).toHaveTitle(/^Credit note CN-\d{6} \| Academy$/);

  await page.goto("/account/courses");
  await expect(page.getByText("You have not enrolled in a course yet")).toBeVisible();
  await expect(page.locator(`article#${courseId}`)).toHaveCount(0);

  await page.goto("/account/payments");
  const payment = orderCard(page, courseTitle);
  await expect(payment.getByText("Refunded", { exact: true }).first()).toBeVisible();
  await expect(payment.getByText(/^rfnd_\w+$/)).toBeVisible();
});

test("another user's receipt is not found", async ({ page, request, browser }) => {
  await signUpVerified(page, request, { name: "First Buyer", email: uniqueEmail("account-owner"), password });
  await buyCourse(page, courseId);
  await page.goto("/account/orders");
  const receipt = (await orderCard(page, courseTitle).getByRole("link", { name: /^Receipt/ }).getAttribute("href")) ?? "";
  expect(receipt).toMatch(/^\/account\/orders\/[0-9a-f-]{36}\/receipt$/);

  const other = await browser.newContext();
  await giveOwnAddress(other);
  const otherPage = await other.newPage();
  await signUpVerified(otherPage, other.request, { name: "Second Person", email: uniqueEmail("account-other"), password });
  const response = await otherPage.goto(receipt);
  expect(response?.status()).toBe(404);
  await expect(otherPage.getByRole("heading", { name: "We couldn't find that page" })).toBeVisible();
  await expect(otherPage.getByText("29AAKCA1234F1Z5")).toHaveCount(0);

  // Nor can they ask for its refund: the order is "not found" to them too.
  const orderId = receipt.split("/")[3] ?? "";
  const refund = await otherPage.request.post("/account/orders", {
    form: { intent: "refund", orderId },
    headers: { origin: new URL(otherPage.url()).origin },
  });
  expect(refund.status()).toBe(404);
  expect(await refund.text()).toContain("We could not find that order.");
  await other.close();
});

test("account pages have no serious or critical axe violations in either theme", async ({ page, request }) => {
  test.setTimeout(scanBudget(10));
  await signUpVerified(page, request, { name: "Axe Buyer", email: uniqueEmail("account-axe"), password });
  await buyCourse(page, courseId);
  await page.goto("/account/orders");
  const receipt = (await page.getByRole("link", { name: /^Receipt/ }).first().getAttribute("href")) ?? "";
  for (const path of ["/account", "/account/courses", "/account/orders", "/account/payments", receipt]) {
    await page.goto(path);
    expect(await seriousViolationsInBothThemes(page, path)).toEqual([]);
  }
});

test("once signed in, the browser saves the stylesheet and the next pages link it instead of carrying it", async ({ page, request, context }) => {
  await signUpVerified(page, request, { name: "Meera Iyer", email: uniqueEmail("account-stylesheet"), password });
  // The first signed-in page carries its styles; the browser then saves the file and says so in a cookie.
  await expect.poll(async () => (await context.cookies()).find((c) => c.name === "academy_css")?.value ?? "").toMatch(/^app-[\w-]+\.css$/);
  const saved = (await context.cookies()).find((c) => c.name === "academy_css")?.value;

  const document = await page.goto("/account");
  const html = (await document?.text()) ?? "";
  expect(html).toContain(`<link rel="stylesheet" href="/assets/${saved}"/>`);
  expect(html).not.toMatch(/<style nonce="[^"]+">[^<]*--color-brand-600/);
  // Styled all the same: the body's flex column and the heading's weight come from the stylesheet.
  await expect(page.locator("body")).toHaveCSS("display", "flex");
  await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toHaveCSS("font-weight", "700");
});
