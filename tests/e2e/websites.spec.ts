import { expect, test, type Page } from "@playwright/test";
import { join } from "node:path";
import { loadCatalog } from "../../server/catalog/index.ts";
import type { ReminderKind } from "../../server/db/schema.ts";
import { reminderMail } from "../../server/websites/index.ts";
import { scanBudget, seriousMailViolations, seriousViolationsInBothThemes } from "./axe.ts";
import { gotoHydrated } from "./hydration.ts";
import { latestMail, signIn, signOut, signUpVerified, uniqueEmail, giveOwnAddress } from "./identity.ts";

const password = "correct horse battery staple";

test.beforeEach(async ({ context }) => {
  await giveOwnAddress(context);
});

/** Pays the sandbox checkout the page was sent to. */
async function payInSandbox(page: Page) {
  await expect(page.getByText("Sandbox — no money moves")).toBeVisible();
  await page.getByLabel("UPI").check();
  await page.getByRole("button", { name: "Pay", exact: true }).click();
}

/** Buys a month of Starter hosting for `domain` in the sandbox and opens the website's page. */
async function buyHosting(page: Page, domain: string) {
  await page.goto("/account/services/websites/new?plan=starter-monthly");
  await page.getByLabel("Your website's domain").fill(domain);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await payInSandbox(page);
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();
  await page.getByRole("link", { name: "See your website" }).click();
  await expect(page.getByRole("heading", { name: domain })).toBeVisible();
}

test("on a phone, a paid website shows the DNS records to set, copies them, and says whether the domain points at us", async ({ page, request, context }) => {
  test.setTimeout(scanBudget(2));
  await page.setViewportSize({ width: 375, height: 812 });
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signUpVerified(page, request, { name: "Asha Pillai", email: uniqueEmail("dns"), password });
  const stamp = Date.now().toString(36);

  // The test DNS server (tests/support/dns-server.ts) answers for elsewhere-… with another host's address.
  const elsewhere = `elsewhere-${stamp}.example.in`;
  await buyHosting(page, elsewhere);
  const section = page.getByRole("region", { name: "Point your domain at us" });
  await expect(section.getByText("Not pointed at us yet")).toBeVisible();
  await expect(section).toContainText(`Create the records below where ${elsewhere}'s DNS is managed`);
  const records = section.getByRole("listitem");
  await expect(records).toHaveCount(3);
  await expect(records.nth(0)).toContainText("TypeAName@Value192.0.2.10");
  await expect(records.nth(0)).toContainText("The domain points at 198.51.100.7 now: change or remove that record.");
  await expect(records.nth(1)).toContainText("AAAA");
  await expect(records.nth(1)).toContainText("2001:db8::10");
  await expect(records.nth(1)).toContainText("Not set yet");
  await expect(records.nth(2)).toContainText(`CNAME`);
  await expect(records.nth(2)).toContainText(`NamewwwValue${elsewhere}`);
  await expect(page.getByRole("link", { name: "website services in the Help Centre" })).toHaveAttribute("href", "/help/website-services");
  await expect(page.getByRole("main").getByRole("link", { name: "support@academy.example" })).toHaveAttribute("href", /^mailto:support@academy\.example\?subject=/);

  // By keyboard: the copy button takes the value to the clipboard and says so.
  await gotoHydrated(page, page.url());
  const copyA = section.getByRole("button", { name: "Copy the A record's value" });
  await copyA.focus();
  await page.keyboard.press("Enter");
  await expect(records.nth(0).getByRole("status")).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("192.0.2.10");
  expect(await seriousViolationsInBothThemes(page)).toEqual([]);

  // … and for pointed-… with our own records.
  const pointed = `pointed-${stamp}.example.in`;
  await buyHosting(page, pointed);
  await expect(section.getByText("Points at us")).toBeVisible();
  await expect(section).toContainText(`${pointed} points at our servers: every record below is set.`);
  await expect(records.filter({ hasText: "Set" })).toHaveCount(3);
  expect(await seriousViolationsInBothThemes(page)).toEqual([]);
});

test("a visitor picks a hosting plan, signs in, pays for a domain, renews it yearly and finds the receipt", async ({ page, request }) => {
  const email = uniqueEmail("host");
  const domain = `shop-${Date.now().toString(36)}.example.in`;
  await signUpVerified(page, request, { name: "Ritu Malhotra", email, password });
  await signOut(page);

  await page.goto("/service/website-hosting");
  await expect(page.getByRole("radio", { name: /^Starter/ })).toBeChecked();
  await page.getByRole("button", { name: "Start hosting" }).click();
  await expect(page).toHaveURL(/\/login\?redirectTo=/);
  await signIn(page, email, password);
  await expect(page).toHaveURL(/\/account\/services\/websites\/new\?service=website-hosting&plan=starter-monthly$/);
  await expect(page.getByRole("main")).toContainText("Your planStarter (Monthly)₹1,499 per month");

  await page.getByLabel("Your website's domain").fill("https://Shop.example.in/about");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("alert")).toHaveText("Enter the domain alone, without http:// or https://, like shop.example.in.");
  await page.getByLabel("Your website's domain").fill(domain.toUpperCase());
  await page.getByRole("button", { name: "Continue" }).click();

  await expect(page).toHaveURL(/\/account\/services\/websites\/[0-9a-f-]{36}\/renew\?plan=starter-monthly$/);
  await expect(page.getByRole("heading", { name: `Start hosting ${domain}` })).toBeVisible();
  await expect(page.locator("form").filter({ hasText: "What you are buying" })).toContainText("Total₹1,499");

  // Left unpaid, the site waits on the account's overview with a way back to its payment.
  await page.goto("/account");
  const attention = page.getByRole("region", { name: "Needs your attention" });
  await expect(attention).toContainText(`Hosting for ${domain} is waiting for payment`);
  await attention.getByRole("link", { name: "Complete the payment" }).click();
  await expect(page.getByRole("heading", { name: `Start hosting ${domain}` })).toBeVisible();
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await payInSandbox(page);

  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();
  await expect(page.getByText(new RegExp(`${domain.replaceAll(".", "\\.")} is now hosted until`))).toBeVisible();
  await page.getByRole("link", { name: "See your website" }).click();
  await expect(page.getByRole("heading", { name: domain })).toBeVisible();
  // Paid by the month, a site starts expiring in its last 7 days, not on the day it is paid for.
  await expect(page.getByText("Active", { exact: true })).toBeVisible();
  await expect(page.getByText(/^Expires .* · in \d+ days$/)).toBeVisible();
  const receipt = await latestMail(request, email, new RegExp(`Your receipt for Starter \\(Monthly\\) hosting for ${domain.replaceAll(".", "\\.")}`));
  expect(receipt.text).toContain(`${domain} is now hosted until`);

  const detailsUrl = page.url();
  await page.goto("/account");
  await expect(page.getByRole("region", { name: "Needs your attention" })).toContainText("Nothing needs your attention right now.");
  await page.goto(detailsUrl);
  await page.getByRole("link", { name: "Renew", exact: true }).click();
  await page.getByRole("radio", { name: /Starter \(Yearly\)/ }).check();
  const summary = page.locator("form").filter({ hasText: "What you are buying" });
  await expect(summary).toContainText("₹14,990");
  const renewedUntil = await summary.getByText(/^Starter \(Yearly\):/).textContent();
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await payInSandbox(page);
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();
  const until = /to (.+)$/.exec(renewedUntil ?? "")?.[1] ?? "";
  expect(until).not.toBe("");
  await expect(page.getByText(`${domain} is now hosted until ${until}.`, { exact: false })).toBeVisible();

  // Renewed, the first month can no longer be refunded on its own: the orders page says why and what to do instead.
  await page.goto("/account/orders");
  const firstOrder = page.getByRole("article").filter({ hasText: `Starter (Monthly) hosting for ${domain}` });
  await expect(firstOrder).toContainText(`Refund not available: You have already paid to renew ${domain} (order ACD-`);
  await expect(firstOrder).toContainText(`cancel it on its page and it stays online until ${until}`);
  await expect(firstOrder.getByRole("button", { name: /Request a refund/ })).toHaveCount(0);
  await page.goBack();

  await page.getByRole("link", { name: "See your website" }).click();
  await expect(page.getByText("Active", { exact: true })).toBeVisible();
  // Renewed early, the month paid first is still the current period; the year starts after it, paid ahead.
  const fact = (label: string) => page.locator("dl > div").filter({ has: page.getByText(label, { exact: true }) }).locator("dd");
  const currentPeriod = (await fact("Current period").textContent()) ?? "";
  expect(currentPeriod).toMatch(/^\d{1,2} \w+ \d{4} to \d{1,2} \w+ \d{4}$/);
  expect(currentPeriod.endsWith(until)).toBe(false);
  await expect(fact("Paid ahead")).toHaveText(`${currentPeriod.split(" to ")[1]} to ${until}`);
  const history = page.getByRole("region", { name: "Renewal history" });
  await expect(history.getByRole("listitem")).toHaveCount(2);
  await history.getByRole("link", { name: /^Receipt ACD-/ }).first().click();
  await expect(page.getByText(`Starter (Yearly) hosting for ${domain}`)).toBeVisible();
  await expect(page.getByText("Website hosting and maintenance: hosting and IT infrastructure provisioning services")).toBeVisible();
  await expect(page.getByRole("cell", { name: "998315" })).toBeVisible();

  await page.goto("/account");
  await expect(page.getByRole("link", { name: `Renew ${domain}` })).toHaveCount(0);
  await page.goto("/account/services");
  await expect(page.getByRole("link", { name: domain })).toBeVisible();
  await page.goto("/account/services/websites");
  await expect(page.getByRole("link", { name: domain })).toBeVisible();

  // Before deleting the account, the settings page says which hosting that would end.
  await page.goto("/settings");
  const warning = page.getByRole("note").filter({ hasText: "Deleting your account ends the hosting of this website now, without a refund" });
  await expect(warning).toContainText(`${domain}, paid until ${until}`);
});

test("on a phone, a visitor sees a price at once, switches to yearly, chooses the plan once and pays in first-purchase words", async ({ page, request }) => {
  test.setTimeout(scanBudget(6));
  await page.setViewportSize({ width: 375, height: 740 });
  const email = uniqueEmail("phone-host");
  await signUpVerified(page, request, { name: "Divya Menon", email, password });
  await signOut(page);
  const domain = `phone-${Date.now().toString(36)}.example.in`;

  await gotoHydrated(page, "/service/website-hosting");
  const plans = page.getByRole("group", { name: "Plan" });
  const billing = page.getByRole("group", { name: "Billing" });
  const bar = page.getByRole("region", { name: "Your plan" });
  // The first plan's price is on the first screen, above the sticky bar, without scrolling.
  const firstPrice = plans.getByText("₹1,499", { exact: true });
  await expect(firstPrice).toBeInViewport();
  const priceBox = await firstPrice.boundingBox();
  const barBox = await bar.boundingBox();
  expect((priceBox?.y ?? Infinity) + (priceBox?.height ?? 0)).toBeLessThanOrEqual(barBox?.y ?? 0);
  await expect(bar).toBeInViewport();
  await expect(bar).toContainText("₹1,499 per monthStarter");
  expect(await seriousViolationsInBothThemes(page)).toEqual([]);

  // Yearly: each card shows its yearly price and what it saves on twelve monthly payments; the bar follows the choice.
  await billing.getByRole("button", { name: /^Yearly/ }).click();
  await expect(billing.getByRole("button", { name: /^Yearly/ })).toHaveAttribute("aria-pressed", "true");
  await expect(billing.getByRole("button", { name: "Monthly" })).toHaveAttribute("aria-pressed", "false");
  await expect(billing).toContainText("Yearly, save 16%");
  await expect(plans).toContainText("₹14,990 per year₹2,998 less than 12 monthly payments");
  await expect(plans).toContainText("₹39,990 per year₹7,998 less than 12 monthly payments");
  await expect(plans).not.toContainText("per month");
  await expect(bar).toContainText("₹14,990 per year");
  await plans.getByRole("radio", { name: /^Business/ }).check();
  await expect(bar).toContainText("₹39,990 per yearBusiness");
  await billing.getByRole("button", { name: "Monthly" }).click();
  await expect(plans.getByRole("radio", { name: /^Business/ })).toBeChecked();
  await expect(plans).toContainText("₹3,999 per month");
  await expect(bar).toContainText("₹3,999 per month");
  await billing.getByRole("button", { name: /^Yearly/ }).click();

  // The bar's button comes after the page's content in the keyboard's order.
  await page.getByRole("link", { name: "Send an enquiry" }).focus();
  await page.keyboard.press("Tab");
  await expect(bar.getByRole("button", { name: "Start hosting" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/login\?redirectTo=/);
  await signIn(page, email, password);

  // The plan chosen on the service page is the plan: shown, with a way back to change it, not asked again.
  await expect(page).toHaveURL(/\/account\/services\/websites\/new\?service=website-hosting&plan=business-yearly$/);
  const main = page.getByRole("main");
  await expect(main).toContainText("Your planBusiness (Yearly)₹39,990 per year");
  await expect(page.getByRole("radio")).toHaveCount(0);
  await expect(page).toHaveTitle("Start hosting a website | Academy");
  expect(await seriousViolationsInBothThemes(page)).toEqual([]);
  await page.getByRole("link", { name: "Change plan" }).click();
  await expect(plans.getByRole("radio", { name: /^Business/ })).toBeChecked();
  await expect(billing.getByRole("button", { name: /^Yearly/ })).toHaveAttribute("aria-pressed", "true");
  await plans.getByRole("radio", { name: /^Starter/ }).check();
  await bar.getByRole("button", { name: "Start hosting" }).click();
  await expect(main).toContainText("Your planStarter (Yearly)₹14,990 per year");

  await page.getByLabel("Your website's domain").fill(domain);
  await page.getByRole("button", { name: "Continue" }).click();

  // Paying: a first purchase in first-purchase words, and no plan to pick a third time.
  await expect(page.getByRole("heading", { name: `Start hosting ${domain}` })).toBeVisible();
  await expect(page).toHaveTitle(`Start hosting ${domain} | Academy`);
  await expect(page.getByRole("radio")).toHaveCount(0);
  const summary = main.locator("form").filter({ hasText: "What you are buying" });
  await expect(summary).toContainText("Starter (Yearly)First period:");
  await expect(summary).toContainText("Total₹14,990");
  await expect(summary).toContainText("Your first period starts when your payment arrives.");
  await expect(main).not.toContainText(/renew/i);
  expect(await seriousViolationsInBothThemes(page)).toEqual([]);
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await payInSandbox(page);
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();
  await expect(main).not.toContainText(/renew/i);
  await page.getByRole("link", { name: "See your website" }).click();
  await expect(page.getByRole("heading", { name: domain })).toBeVisible();
  await expect(page.getByText("Active", { exact: true })).toBeVisible();
});

test("the plan bar is on a phone's screen and hidden on a wide one, where the picker's own button shows", async ({ page }) => {
  test.setTimeout(scanBudget(1));
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto("/service/website-hosting");
  const bar = page.getByRole("region", { name: "Your plan" });
  await expect(bar).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(bar).toBeHidden();
  await expect(page.getByRole("button", { name: "Start hosting" })).toBeVisible();
  expect(await seriousViolationsInBothThemes(page)).toEqual([]);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the Monthly/Yearly toggle keeps the chosen tier, and Start hosting carries the plan through sign-in", async ({ page }) => {
    await page.goto("/service/website-hosting");
    const plans = page.getByRole("group", { name: "Plan" });
    const yearly = page.getByRole("group", { name: "Billing" }).getByRole("button", { name: /^Yearly/ });
    await plans.getByRole("radio", { name: /^Business/ }).check();
    await yearly.click();
    await expect(page).toHaveURL(/\/service\/website-hosting\?.*#plans$/);
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ service: "website-hosting", plan: "business-monthly", billing: "year" });
    await expect(yearly).toHaveAttribute("aria-pressed", "true");
    await expect(plans.getByRole("radio", { name: /^Business/ })).toBeChecked();
    await expect(plans).toContainText("₹39,990 per year");
    await page.getByRole("button", { name: "Start hosting" }).click();
    await expect(page).toHaveURL(/\/login\?redirectTo=.*plan%3Dbusiness-yearly/);
  });
});

test("on a phone, a cancelled website is scheduled to stop, and Keep my website brings it back before the period ends", async ({ page, request }) => {
  test.setTimeout(scanBudget(2));
  await page.setViewportSize({ width: 375, height: 812 });
  await signUpVerified(page, request, { name: "Meera Nair", email: uniqueEmail("keep"), password });
  const domain = `keep-${Date.now().toString(36)}.example.in`;
  await buyHosting(page, domain);
  const until = /^Expires (.+?) ·/.exec((await page.getByText(/^Expires /).textContent()) ?? "")?.[1] ?? "";
  expect(until).not.toBe("");

  // The dialog's buttons say what each does; the one that does nothing keeps the website.
  await page.getByRole("button", { name: "Cancel this website" }).click();
  const dialog = page.getByRole("dialog", { name: `Cancel ${domain}?` });
  await expect(dialog).toContainText(`What you paid for stays online until ${until}; until then Keep my website on this page undoes the cancellation.`);
  await dialog.getByRole("button", { name: "Keep my website" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Active", { exact: true })).toBeVisible();

  await page.getByRole("button", { name: "Cancel this website" }).click();
  await dialog.getByRole("button", { name: "Stop hosting at the end of the period" }).click();
  await expect(page.getByRole("status").filter({ hasText: `${domain} stops on ${until}.` })).toBeVisible();
  await expect(page.getByText(`Cancelled: runs until ${until}, then stops`)).toBeVisible();
  const scheduled = page.getByRole("region", { name: `Hosting stops on ${until}` });
  await expect(scheduled).toContainText(`Changed your mind? Keep ${domain} and it is hosted as before`);
  await expect(page.getByRole("link", { name: "Renew", exact: true })).toHaveCount(0);
  expect(await seriousViolationsInBothThemes(page)).toEqual([]);
  await page.goto(`${page.url()}/renew`);
  await expect(page.getByRole("status")).toHaveText("You cancelled this website. To renew it, choose Keep my website on its page first: it is then hosted as before.");
  await page.getByRole("link", { name: "Go to the website's page" }).click();

  await scheduled.getByRole("button", { name: "Keep my website" }).click();
  await expect(page.getByRole("status").filter({ hasText: `You kept ${domain}: it is hosted as before` })).toBeVisible();
  await expect(page.getByText("Active", { exact: true })).toBeVisible();
  await expect(page.getByText(/^Expires .* · in \d+ days$/)).toBeVisible();
  await expect(page.getByRole("region", { name: "Letting this website go?" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Renew", exact: true })).toBeVisible();
  expect(await seriousViolationsInBothThemes(page)).toEqual([]);
});

test("another customer's website is not found, and a website cancelled before it is paid for is removed", async ({ page, request, browser }) => {
  await signUpVerified(page, request, { name: "Owner", email: uniqueEmail("owner"), password });
  await page.goto("/account/services/websites/new?plan=business-monthly");
  await page.getByLabel("Your website's domain").fill(`own-${Date.now().toString(36)}.example.in`);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/renew\?plan=business-monthly$/);
  const details = page.url().replace(/\/renew\?.*$/, "");

  const other = await browser.newContext();
  await giveOwnAddress(other);
  const stranger = await other.newPage();
  await signUpVerified(stranger, other.request, { name: "Stranger", email: uniqueEmail("stranger"), password });
  for (const path of [details, `${details}/renew`]) {
    const answer = await stranger.goto(path);
    expect(answer?.status(), path).toBe(404);
  }
  await other.close();

  await page.goto(details);
  await expect(page.getByRole("region", { name: "Not going ahead?" })).toContainText("Nothing has been charged.");
  await page.getByRole("button", { name: "Cancel this website" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Remove this website" }).click();
  await expect(page).toHaveURL(/\/account\/services\/websites\?removed=1$/);
  await expect(page.getByRole("status")).toHaveText("The website was removed from your account. Nothing was charged.");
  await expect(page.getByRole("link", { name: /^own-/ })).toHaveCount(0);
  expect((await page.goto(`${details}/renew`))?.status()).toBe(404);
});

test("on a phone, a sixth website waiting for payment is refused with a reason the customer can see", async ({ page, request }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signUpVerified(page, request, { name: "Busy Owner", email: uniqueEmail("pending"), password });
  for (let i = 1; i <= 6; i++) {
    await page.goto("/account/services/websites/new?plan=starter-monthly");
    await page.getByLabel("Your website's domain").fill(`pending-${i}-${Date.now().toString(36)}.example.in`);
    await page.getByRole("button", { name: "Continue" }).click();
    if (i < 6) await expect(page).toHaveURL(/\/renew\?plan=starter-monthly$/);
  }
  const refusal = page.getByRole("alert");
  await expect(refusal).toHaveText("You already have 5 websites waiting for their first payment. Finish paying for one of them, or cancel one you no longer need on its page, before adding another.");
  await expect(refusal).toBeInViewport();
});

test("a renewal paid from a checkout opened before the website was cancelled is refunded, not applied", async ({ page, request, context }) => {
  const domain = `late-${Date.now().toString(36)}.example.in`;
  const email = uniqueEmail("cancelled");
  await signUpVerified(page, request, { name: "Kiran Rao", email, password });
  await buyHosting(page, domain);
  const details = page.url();
  const until = /^Expires (.+?) ·/.exec((await page.getByText(/^Expires /).textContent()) ?? "")?.[1] ?? "";
  expect(until).not.toBe("");

  await page.getByRole("link", { name: "Renew", exact: true }).click();
  await page.getByRole("radio", { name: /Starter \(Yearly\)/ }).check();
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page.getByText("Sandbox — no money moves")).toBeVisible();

  // In another tab, the customer cancels the website before paying in the first.
  const other = await context.newPage();
  await other.goto(details);
  await other.getByRole("button", { name: "Cancel this website" }).click();
  await other.getByRole("dialog").getByRole("button", { name: "Stop hosting at the end of the period" }).click();
  await expect(other.getByText("Cancelled", { exact: true })).toBeVisible();

  await payInSandbox(page);
  await expect(page.getByRole("heading", { name: `We could not apply your payment to ${domain}` })).toBeVisible();
  await expect(page.getByText(`you cancelled ${domain} before this payment arrived, so there was nothing to renew`)).toBeVisible();
  expect((await latestMail(request, email, /We could not apply your payment/)).text).toContain("We are refunding the ₹14,990 in full");
  await other.reload();
  await expect(other.getByText(`Cancelled: runs until ${until}, then stops`)).toBeVisible();
  await expect(other.getByRole("region", { name: "Renewal history" }).getByRole("listitem")).toHaveCount(1);
});

test("a customer whose domain went live for someone else while paying is told so and refunded in full", async ({ page, request, browser }) => {
  const domain = `race-${Date.now().toString(36)}.example.in`;
  const email = uniqueEmail("late");
  await signUpVerified(page, request, { name: "Late Buyer", email, password });
  await page.goto("/account/services/websites/new?plan=starter-monthly");
  await page.getByLabel("Your website's domain").fill(domain);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page.getByText("Sandbox — no money moves")).toBeVisible();

  // Meanwhile someone else buys hosting for the same domain and pays first.
  const other = await browser.newContext();
  await giveOwnAddress(other);
  const rival = await other.newPage();
  await signUpVerified(rival, other.request, { name: "Quick Buyer", email: uniqueEmail("quick"), password });
  await rival.goto("/account/services/websites/new?plan=starter-monthly");
  await rival.getByLabel("Your website's domain").fill(domain);
  await rival.getByRole("button", { name: "Continue" }).click();
  await rival.getByRole("button", { name: "Continue to payment" }).click();
  await payInSandbox(rival);
  await expect(rival.getByRole("heading", { name: "Payment received" })).toBeVisible();
  await other.close();

  await page.getByLabel("UPI").check();
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await expect(page.getByRole("heading", { name: `We could not apply your payment to ${domain}` })).toBeVisible();
  await expect(page.getByText(`another customer's website went live on ${domain} while you were paying`)).toBeVisible();
  expect((await latestMail(request, email, /We could not apply your payment/)).text).toContain("We are refunding the ₹1,499 in full");
  await page.getByRole("link", { name: "See your orders" }).click();
  await expect(page.getByText("We could not apply this payment to the website, so we are refunding ₹1,499 in full.", { exact: false })).toBeVisible();
  await expect(page.getByRole("button", { name: /Request a refund/ })).toHaveCount(0);
  // The sandbox reports refund.processed by webhook about two seconds later.
  await expect(async () => {
    await page.reload();
    await expect(page.getByText("Refunded", { exact: true })).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByText(/₹1,499 was refunded on .*\. The payment could not be applied to the website\./)).toBeVisible();
});

for (const width of [1280, 375]) {
  test(`the website pages have no serious or critical axe violations in either theme at ${width} px`, async ({ page, request }) => {
    test.setTimeout(scanBudget(10));
    await page.setViewportSize({ width, height: 900 });
    await signUpVerified(page, request, { name: "Axe Host", email: uniqueEmail(`axe-host-${width}`), password });
    await page.goto("/account/services");
    expect(await seriousViolationsInBothThemes(page)).toEqual([]);
    await page.goto("/account/services/websites/new?plan=starter-yearly");
    expect(await seriousViolationsInBothThemes(page)).toEqual([]);
    await page.getByLabel("Your website's domain").fill(`axe-${width}-${Date.now().toString(36)}.example.in`);
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveURL(/\/renew\?plan=starter-yearly$/);
    expect(await seriousViolationsInBothThemes(page)).toEqual([]);
    await page.goto(page.url().replace(/\/renew\?.*$/, ""));
    expect(await seriousViolationsInBothThemes(page)).toEqual([]);
    await page.goto("/account/services/websites");
    expect(await seriousViolationsInBothThemes(page)).toEqual([]);
  });
}

test("each renewal reminder reads on a phone: when the hosting expires, that nothing renews by itself, and a link to renew", async ({ page }) => {
  test.setTimeout(scanBudget(5));
  const { site } = await loadCatalog(join(import.meta.dirname, "../../content"));
  const owner = { email: "owner@example.com", name: "Kavya Menon" };
  const expiresAt = new Date("2026-12-27T06:30:00Z");
  await page.setViewportSize({ width: 375, height: 740 });
  const openings: Record<ReminderKind, RegExp> = {
    "30-days": /^The hosting of shop\.example\.in expires on 27 December 2026\. Nothing renews by itself: renew it to keep the website online\.$/,
    "7-days": /^The hosting of shop\.example\.in expires in 7 days, on 27 December 2026\./,
    "1-day": /^The hosting of shop\.example\.in expires tomorrow, on 27 December 2026\./,
    "expiry-day": /^The hosting of shop\.example\.in expired on 27 December 2026\. The website stays online/,
    suspended: /^shop\.example\.in is offline: its hosting was not renewed/,
  };
  for (const [kind, opening] of Object.entries(openings) as [ReminderKind, RegExp][]) {
    const mail = reminderMail(site, "https://academy.example", owner, { kind, id: "site-1", domain: "shop.example.in", expiresAt });
    if (kind === "30-days") expect(mail.subject).toBe("shop.example.in: expires on 27 December 2026 — renew to keep it online");
    expect(mail.subject, kind).toMatch(/^shop\.example\.in: [a-z]/);
    await page.setContent(mail.html);
    await expect(page.getByText(opening), kind).toBeVisible();
    await expect(page.getByRole("link", { name: "Renew shop.example.in" })).toHaveAttribute("href", "https://academy.example/account/services/websites/site-1/renew");
    expect(await page.evaluate(() => document.documentElement.scrollWidth), kind).toBeLessThanOrEqual(375);
    expect(await seriousMailViolations(page, `the ${kind} reminder`)).toEqual([]);
  }
});
