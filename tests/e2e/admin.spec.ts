// The back office as the company meets it on its first day: the first owner is made at the server
// with `npm run staff`, sets up two-factor sign-in, and grants a role to a colleague, who must set
// it up too; support settles a payment whose way back was lost; a learner probing /admin learns
// nothing. On a server of its own: the embedded database is closed while the staff command runs,
// as docs/operations.md says.
import { readFile } from "node:fs/promises";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { freePort } from "../support/free-port.ts";
import { webhookPath } from "../../server/payments/index.ts";
import { testPayPath } from "../support/razorpay-api.ts";
import { childEnv, runNode } from "../support/node-process.ts";
import { listeningUrl, startProcess, type ServerProcess } from "../support/server-process.ts";
import { scanBudget, seriousViolationsInBothThemes } from "./axe.ts";
import { hydrated } from "./hydration.ts";
import { latestMail, uniqueEmail, giveOwnAddress } from "./identity.ts";
import { razorpayApiUrl, razorpayKeys } from "./servers.ts";
import { openRazorpayCheckout, razorpayWebhook, standInForRazorpayCheckout } from "./shop.ts";
import { totpCode } from "./totp.ts";

const password = "correct horse battery staple";

/** `npm run staff -- …` at the server, in the server's environment. */
const staff = (env: Record<string, string>, ...args: string[]) => runNode(["scripts/staff.ts", ...args], { env: childEnv(env) });

async function stop(server: ServerProcess): Promise<void> {
  server.child.kill("SIGTERM");
  await server.exited;
}

/** A person signed up and verified on `site`, signed in in a browser context of their own. */
async function person(browser: Browser, site: string, name: string): Promise<{ page: Page; email: string }> {
  const context = await browser.newContext({ baseURL: site });
  // Each person from an address of their own (the server trusts one proxy hop), as colleagues at home would be.
  await giveOwnAddress(context);
  const page = await context.newPage();
  const email = uniqueEmail(name.toLowerCase().replace(/\W+/g, "-"));
  const created = await page.request.post("/api/auth/sign-up/email", { data: { name, email, password, callbackURL: "/" }, headers: { origin: site } });
  expect(created.ok(), await created.text()).toBe(true);
  const mail = await latestMail(page.request, email, /Confirm your e-mail/);
  await page.goto(mail.links[0] as string);
  await expect(page).toHaveURL(/\/$/);
  return { page, email };
}

/** Sets up two-factor sign-in on the page it was sent to, returning the key the app would hold. */
async function setUpTwoFactor(page: Page): Promise<string> {
  await expect(page).toHaveURL(/\/admin\/two-factor\/set-up$/);
  await expect(page.getByRole("heading", { name: "Set up two-factor sign-in" })).toBeVisible();
  await page.getByLabel("Your password").fill(password);
  await page.getByRole("button", { name: "Start set-up" }).click();
  await expect(page.getByRole("img", { name: "QR code to scan with your authenticator app" })).toBeVisible();
  await expect(page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem")).toHaveCount(10);
  expect(await seriousViolationsInBothThemes(page, "two-factor set-up")).toEqual([]);
  const key = ((await page.getByLabel("Set-up key").textContent()) ?? "").replace(/\s/g, "");
  expect(key).toMatch(/^[A-Z2-7]{16,}$/);
  await page.getByLabel("6-digit code").fill("000000" === totpCode(key) ? "111111" : "000000");
  await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
  await expect(page.getByText("That code is not the one your app shows now.")).toBeVisible();
  await page.getByLabel("6-digit code").fill(totpCode(key));
  await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
  return key;
}

test("the first owner is made at the server, sets up two-factor sign-in, and grants a colleague a role", async ({ browser }, testInfo) => {
  test.setTimeout(scanBudget(13, 300_000));
  // In the test's output folder, emptied before the next run.
  const dataDir = testInfo.outputPath("data");
  const port = await freePort();
  const site = `http://127.0.0.1:${port}`;
  // Razorpay as the payment provider (its API the local stand-in), so a payment can be lost on its way back.
  const env = { PORT: String(port), DATA_DIR: dataDir, PUBLIC_URL: site, LOG_LEVEL: "warn", TRUST_PROXY: "true", PAYMENT_PROVIDER: "razorpay", RAZORPAY_API_URL: razorpayApiUrl, ...razorpayKeys };
  let server = startProcess(env);
  try {
    await listeningUrl(server);
    const owner = await person(browser, site, "Kavya Owner");
    const colleague = await person(browser, site, "Ravi Support");

    // Nobody holds a role yet: /admin is the site's 404 for everyone, the same page as any unknown address.
    const probe = await owner.page.goto("/admin/staff");
    expect(probe?.status()).toBe(404);
    await expect(owner.page.getByRole("heading", { level: 1 })).toHaveText("We couldn't find that page");

    // The operator makes the first owner while the embedded database is free.
    await stop(server);
    expect(await staff(env, "grant", owner.email, "owner")).toMatchObject({ code: 0, stderr: "", stdout: `${owner.email} is now owner. They open ${site}/admin, signed in, and set up two-factor sign-in there.\n` });
    server = startProcess(env);
    await listeningUrl(server);

    await owner.page.goto("/admin");
    const ownerKey = await setUpTwoFactor(owner.page);
    await expect(owner.page).toHaveURL(/\/admin$/);
    await hydrated(owner.page);
    await expect(owner.page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
    await expect(owner.page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Staff" })).toBeVisible();
    await expect(owner.page.locator('meta[name="robots"]').first()).toHaveAttribute("content", /noindex/);

    // The colleague has no role: the back office does not exist for them.
    expect((await colleague.page.goto("/admin"))?.status()).toBe(404);

    await owner.page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Staff" }).click();
    await owner.page.getByLabel("E-mail").fill(colleague.email);
    await owner.page.getByLabel("Role", { exact: true }).selectOption("support");
    await owner.page.getByRole("button", { name: "Grant role" }).click();
    await expect(owner.page.getByText(`${colleague.email} is now support. They set up two-factor sign-in when they first open the back office.`)).toBeVisible();
    await expect(owner.page.getByRole("list", { name: "Roles of Ravi Support" })).toContainText("Support");
    expect(await seriousViolationsInBothThemes(owner.page, "staff")).toEqual([]);

    // The colleague must set up their own second factor before anything opens, and owners' pages stay shut.
    await colleague.page.goto("/admin");
    await setUpTwoFactor(colleague.page);
    await expect(colleague.page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
    await expect(colleague.page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Staff" })).toHaveCount(0);
    expect((await colleague.page.goto("/admin/staff"))?.status()).toBe(403);

    // Support finds a customer by e-mail and opens what support may see of them.
    await colleague.page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Customers" }).click();
    await colleague.page.getByLabel("Search customers").fill("nobody-at-all@example.com");
    await colleague.page.getByRole("button", { name: "Search" }).click();
    await expect(colleague.page.getByText("No one matches “nobody-at-all@example.com”.")).toBeVisible();
    await colleague.page.getByLabel("Search customers").fill(owner.email.toUpperCase());
    await colleague.page.getByRole("button", { name: "Search" }).click();
    await colleague.page.getByRole("list", { name: "Customers found" }).getByRole("link", { name: "Kavya Owner" }).click();
    await expect(colleague.page.getByRole("heading", { level: 1 })).toHaveText("Kavya Owner");
    await expect(colleague.page.getByText("Staff: Owner")).toBeVisible();
    await expect(colleague.page.getByText("No orders yet.")).toBeVisible();
    await hydrated(colleague.page);
    await colleague.page.getByRole("button", { name: "Send a password reset link" }).click();
    await expect(colleague.page.getByText(`A link to choose a new password is on its way to ${owner.email}. It works for one hour.`)).toBeVisible();
    expect(await seriousViolationsInBothThemes(colleague.page, "customer")).toEqual([]);

    // A buyer pays, but closes the tab before Razorpay sends them back, and its webhooks never come.
    const buyer = await person(browser, site, "Sneha Buyer");
    await standInForRazorpayCheckout(buyer.page);
    const checkout = await openRazorpayCheckout(buyer.page, "react-fundamentals", "Pay ₹6,999");
    const paid = await buyer.page.request.post(`${razorpayApiUrl}${testPayPath}`, { data: { order_id: checkout.order_id, method: "card", outcome: "captured" } });
    expect(paid.ok(), await paid.text()).toBe(true);
    await buyer.page.goto("/account/orders");
    const orderNumber = (await buyer.page.getByText(/^ACD-\d{6}$/).first().textContent()) ?? "";
    await buyer.page.goto("/account/courses");
    await expect(buyer.page.getByText("You have not enrolled in a course yet")).toBeVisible();

    // "I paid but the course is not in my account": support finds them by the order number and asks Razorpay.
    await colleague.page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Customers" }).click();
    await colleague.page.getByLabel("Search customers").fill(orderNumber);
    await colleague.page.getByRole("button", { name: "Search" }).click();
    await colleague.page.getByRole("list", { name: "Customers found" }).getByRole("link", { name: "Sneha Buyer" }).click();
    await colleague.page.getByRole("list", { name: "Orders" }).getByRole("link", { name: new RegExp(orderNumber) }).click();
    await expect(colleague.page.getByRole("heading", { level: 1 })).toContainText(orderNumber);
    await expect(colleague.page.getByText("No payment has reached us for this order.")).toBeVisible();
    await hydrated(colleague.page);
    await colleague.page.getByRole("button", { name: "Check with the provider" }).click();
    await expect(colleague.page.getByText("Razorpay took ₹6,999 by card: the order is now paid and fulfilled, and the receipt is on its way.")).toBeVisible();
    await expect(colleague.page.getByRole("list", { name: "Payments" })).toContainText("captured");
    await expect(colleague.page.getByRole("list", { name: "Timeline" })).toContainText("Course opened to the buyer");
    const orderPage = colleague.page.url();
    expect(await seriousViolationsInBothThemes(colleague.page, "order")).toEqual([]);
    await buyer.page.reload();
    await expect(buyer.page.getByRole("link", { name: /^Start course/ })).toBeVisible();

    // The buyer, angry about the wait, posts an abusive review; support hides it, saying why.
    const abusive = "The support team are idiots and the instructor is a fraud who should be jailed.";
    await buyer.page.goto("/course/react-fundamentals/feedback");
    await hydrated(buyer.page);
    const yours = buyer.page.locator("#your-review");
    await yours.getByRole("radio", { name: /^1 star/ }).check({ force: true });
    await yours.getByLabel("Your comment").fill(abusive);
    await yours.getByRole("button", { name: "Post review" }).click();
    await expect(yours.getByRole("status")).toHaveText("Thank you. Your review is posted.");
    await colleague.page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Reviews" }).click();
    const theirs = colleague.page.getByRole("listitem", { name: "Review by Sneha Buyer" });
    await expect(theirs).toContainText(abusive);
    await hydrated(colleague.page);
    await theirs.getByRole("button", { name: "Hide…" }).click();
    const hide = colleague.page.getByRole("dialog", { name: "Hide Sneha Buyer's review?" });
    await hide.getByLabel("Why (its author reads this)").fill("It insults people by name; our review guidelines ask for comments about the course.");
    await hide.getByRole("button", { name: "Hide the review" }).click();
    await expect(colleague.page.getByText("Hidden. It leaves the course's page and rating within a minute, and its author sees why.")).toBeVisible();
    await expect(theirs.getByText("Hidden", { exact: true })).toBeVisible();
    expect(await seriousViolationsInBothThemes(colleague.page, "reviews")).toEqual([]);
    await buyer.page.reload();
    await expect(yours.getByText(/We hid your review from this page on .*: It insults people by name; our review guidelines ask for comments about the course\./)).toBeVisible();
    await expect(buyer.page.locator("article").filter({ hasText: abusive })).toHaveCount(0);

    // Support can see that the receipt went out, without seeing any mail's text.
    await colleague.page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Mail" }).click();
    await colleague.page.getByLabel("Recipient").fill(buyer.email);
    await colleague.page.getByRole("button", { name: "Filter" }).click();
    await expect(colleague.page.getByRole("list", { name: "Mail" })).toContainText("Your receipt for");
    expect(await seriousViolationsInBothThemes(colleague.page, "mail")).toEqual([]);

    // The buyer also hosts a website with us; they ask for its domain to be changed, then a bank reports phishing pages on it.
    const basic = `Basic ${Buffer.from(`${razorpayKeys.RAZORPAY_KEY_ID}:${razorpayKeys.RAZORPAY_KEY_SECRET}`).toString("base64")}`;
    const domain = `sneha-${Date.now().toString(36)}.example.in`;
    await buyer.page.goto("/account/services/websites/new?service=website-hosting&plan=starter-monthly");
    await buyer.page.getByLabel("Your website's domain").fill(domain);
    await buyer.page.getByRole("button", { name: "Continue" }).click();
    await buyer.page.getByRole("button", { name: "Continue to payment" }).click();
    await expect(buyer.page.getByText(/^Razorpay Checkout is open for order_\w{14}$/)).toBeVisible();
    const hosting = await buyer.page.evaluate(() => (window as unknown as { razorpayCheckoutOptions: { order_id: string } }).razorpayCheckoutOptions.order_id);
    expect((await buyer.page.request.post(`${razorpayApiUrl}${testPayPath}`, { data: { order_id: hosting, method: "upi", outcome: "captured" } })).ok()).toBe(true);
    const [captured] = ((await (await buyer.page.request.get(`${razorpayApiUrl}/v1/orders/${hosting}/payments`, { headers: { authorization: basic } })).json()) as { items: object[] }).items;
    expect((await buyer.page.request.post(`${site}${webhookPath}`, razorpayWebhook("payment.captured", { payment: captured ?? {} }))).status()).toBe(200);
    await colleague.page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Websites" }).click();
    await colleague.page.getByLabel("Domain").fill(domain);
    await colleague.page.getByRole("button", { name: "Filter" }).click();
    await colleague.page.getByRole("list", { name: "Websites found" }).getByRole("link", { name: domain }).click();
    await expect(colleague.page.getByRole("heading", { level: 1 })).toHaveText(domain);
    await expect(colleague.page.getByRole("list", { name: "Paid periods" }).getByRole("listitem")).toHaveCount(1);
    await hydrated(colleague.page);
    const moved = `www.${domain}`;
    await colleague.page.getByRole("button", { name: "Change the domain…" }).click();
    const change = colleague.page.getByRole("dialog", { name: `Move ${domain} to another domain?` });
    await change.getByLabel("New domain").fill(moved);
    await change.getByRole("button", { name: "Change the domain" }).click();
    await expect(colleague.page.getByText(`The website's domain is now ${moved}.`, { exact: false })).toBeVisible();
    await expect(colleague.page.getByRole("heading", { level: 1 })).toHaveText(moved);
    await colleague.page.getByRole("button", { name: "Suspend…" }).click();
    const suspend = colleague.page.getByRole("dialog", { name: `Take ${moved} offline?` });
    await suspend.getByLabel("Why (mailed to the owner and kept in the audit log)").fill("A bank reported phishing pages on it on 26 November.");
    await suspend.getByRole("button", { name: "Suspend" }).click();
    await expect(colleague.page.getByText(`${moved} is suspended, and its owner is mailed the reason.`)).toBeVisible();
    await expect(colleague.page.getByText("Suspended: A bank reported phishing pages on it on 26 November.")).toBeVisible();
    expect(await seriousViolationsInBothThemes(colleague.page, "website")).toEqual([]);
    await buyer.page.goto("/account/services/websites");
    await buyer.page.getByRole("link", { name: moved }).first().click();
    await expect(buyer.page.getByText(/^We have suspended this website: A bank reported phishing pages on it on 26 November\./)).toBeVisible();

    // Weeks later the buyer is refunded outside the policy: the owner adds the finance role, which may.
    await colleague.page.goto(orderPage);
    await expect(colleague.page.getByRole("button", { name: "Refund ₹6,999…" })).toHaveCount(0);
    await owner.page.goto("/admin/staff");
    await owner.page.getByLabel("E-mail").fill(colleague.email);
    await owner.page.getByLabel("Role", { exact: true }).selectOption("finance");
    await owner.page.getByRole("button", { name: "Grant role" }).click();
    await expect(owner.page.getByText(`${colleague.email} is now finance.`, { exact: false })).toBeVisible();
    await colleague.page.goto(orderPage);
    await hydrated(colleague.page);
    await colleague.page.getByRole("button", { name: "Refund ₹6,999…" }).click();
    const refund = colleague.page.getByRole("dialog", { name: `Refund ₹6,999 for ${orderNumber}?` });
    await refund.getByLabel("Why (kept in the audit log)").fill("Charged twice by their bank; goodwill refund agreed on the phone.");
    await refund.getByRole("button", { name: "Refund ₹6,999" }).click();
    await expect(colleague.page.getByText("The refund of ₹6,999 is on its way: the provider confirms it when the bank has made it, and the buyer is mailed then.")).toBeVisible();
    await expect(colleague.page.getByText("₹6,999, pending")).toBeVisible();
    await buyer.page.goto("/account/courses");
    await expect(buyer.page.getByText("You have not enrolled in a course yet")).toBeVisible();

    // Razorpay reports the refund processed; the credit note is issued.
    const refundId = ((await colleague.page.getByText(/rfnd_\w{14}/).textContent()) ?? "").match(/rfnd_\w{14}/)?.[0] ?? "";
    const made = (await (await colleague.page.request.get(`${razorpayApiUrl}/v1/refunds/${refundId}`, { headers: { authorization: basic } })).json()) as object;
    expect((await colleague.page.request.post(`${site}${webhookPath}`, razorpayWebhook("refund.processed", { refund: { ...made, status: "processed" } }))).status()).toBe(200);
    await colleague.page.reload();
    await expect(colleague.page.getByText(/₹6,999, processed · rfnd_\w{14} · credit note CN-000001/)).toBeVisible();

    // The accountant's register for this month has the invoice and its credit note.
    await colleague.page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Reports" }).click();
    const register = colleague.page.getByRole("region", { name: "GST sales register" });
    const thisMonth = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Kolkata", year: "numeric", month: "2-digit" }).format(new Date());
    await register.getByLabel("Month").fill(thisMonth);
    const [download] = await Promise.all([colleague.page.waitForEvent("download"), register.getByRole("button", { name: "Download the GST sales register (CSV)" }).click()]);
    expect(download.suggestedFilename()).toBe(`gst-sales-register-${thisMonth}.csv`);
    const csv = await readFile((await download.path()) as string, "utf8");
    expect(csv).toContain(`Invoice,${orderNumber},`);
    expect(csv).toMatch(new RegExp(`Credit note,CN-000001,\\d{4}-\\d{2}-\\d{2},${orderNumber},.*,-5931\\.36,-533\\.82,-533\\.82,0\\.00,-6999\\.00\r\n`));
    expect(await seriousViolationsInBothThemes(colleague.page, "reports")).toEqual([]);

    // Every change is in the audit log, the command line's and support's included.
    await owner.page.goto("/admin/audit");
    const entries = owner.page.getByRole("list", { name: "Audit entries" }).getByRole("listitem");
    await expect(entries).toHaveCount(10);
    await expect(entries.first()).toContainText("report.gst-register");
    await expect(entries.nth(1)).toContainText("order.refund");
    await expect(entries.nth(1)).toContainText("Reason: Charged twice by their bank; goodwill refund agreed on the phone.");
    await expect(entries.nth(2)).toContainText("staff.grant");
    await expect(entries.nth(3)).toContainText("website.suspend");
    await expect(entries.nth(4)).toContainText("website.change-domain");
    await expect(entries.nth(5)).toContainText("review.hide");
    await expect(entries.nth(6)).toContainText("order.check-provider");
    await expect(entries.nth(7)).toContainText("customer.send-password-reset");
    await expect(entries.nth(7)).toContainText(`Ravi Support <${colleague.email}> (support)`);
    await expect(entries.nth(8)).toContainText(`staff.grant`);
    await expect(entries.nth(8)).toContainText(`Kavya Owner <${owner.email}> (owner)`);
    await expect(entries.last()).toContainText("command line (");
    expect(await seriousViolationsInBothThemes(owner.page, "audit log")).toEqual([]);
    // How the courses do: the refunded purchase counts as a refund, not a learner, and the hidden review not at all.
    await owner.page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Courses" }).click();
    const react = owner.page.getByRole("row", { name: /^React from Fundamentals to Production/ });
    await expect(react.getByRole("cell")).toHaveText(["0", "0 (—)", "1", "No reviews"]);
    await react.getByRole("link").click();
    await expect(owner.page.getByRole("heading", { level: 1 })).toHaveText("React from Fundamentals to Production");
    await expect(owner.page.getByText("No one is learning this course yet.")).toBeVisible();
    // Taking it off sale: a reason of spaces is refused in words, a real one takes it out of the catalogue.
    const offSale = async (reason: string) => {
      await owner.page.getByRole("button", { name: "Unpublish…" }).click();
      const dialog = owner.page.getByRole("dialog", { name: "Take React from Fundamentals to Production off sale?" });
      await dialog.getByLabel("Why (kept in the audit log)").fill(reason);
      await dialog.getByRole("button", { name: "Unpublish" }).click();
    };
    await offSale("            ");
    await expect(owner.page.getByRole("alert")).toHaveText("Say why, in at least 10 characters.");
    await offSale("The course is being rewritten for the new React.");
    await expect(owner.page.getByText("Unpublished. It leaves the catalogue, search and sitemap within a minute; people who have it keep it.")).toBeVisible();
    await expect(owner.page.getByText(/^Since .*: The course is being rewritten for the new React\.$/)).toBeVisible();
    await owner.page.goto("/courses");
    await expect(owner.page.getByRole("main").getByRole("article")).toHaveCount(5);
    await owner.page.goto("/course/react-fundamentals");
    await expect(owner.page.getByRole("heading", { level: 1 })).toHaveText("No longer available");
    await owner.page.goto("/admin/courses");
    await expect(react.getByText("Off sale")).toBeVisible();
    await react.getByRole("link").click();
    await owner.page.getByRole("button", { name: "Publish…" }).click();
    const publish = owner.page.getByRole("dialog", { name: "Put React from Fundamentals to Production back on sale?" });
    await publish.getByLabel("Why (kept in the audit log)").fill("The rewrite is done and reviewed.");
    await publish.getByRole("button", { name: "Publish" }).click();
    await expect(owner.page.getByText("Published. It is back in the catalogue and on sale; visitors see it within a minute.")).toBeVisible();
    await owner.page.goto("/admin/courses");
    expect(await seriousViolationsInBothThemes(owner.page, "courses")).toEqual([]);
    await owner.page.setViewportSize({ width: 375, height: 800 });
    await owner.page.goto("/admin");
    expect(await seriousViolationsInBothThemes(owner.page, "dashboard at 375 px")).toEqual([]);
    // On a phone a status keeps the width of its word instead of stretching across the row.
    await owner.page.goto("/admin/orders");
    const refundedRow = owner.page.getByRole("list", { name: "Orders found" }).getByRole("listitem").filter({ hasText: "ACD-000001" });
    const [row, badge] = await Promise.all([refundedRow.boundingBox(), refundedRow.getByText("Refunded", { exact: true }).boundingBox()]);
    expect(badge?.width).toBeLessThan((row?.width ?? 0) / 3);

    // On a phone, the owner gives part of the hosting payment back as goodwill: the website stays, the credit note states the part.
    await owner.page.goto("/admin/websites");
    await owner.page.getByRole("list", { name: "Websites found" }).getByRole("link", { name: moved }).click();
    await owner.page.getByRole("list", { name: "Orders" }).getByRole("link").first().click();
    await expect(owner.page.getByRole("heading", { level: 1 })).toHaveText(/^ACD-\d{6} · Starter/);
    await hydrated(owner.page);
    const hostingNumber = ((await owner.page.getByRole("heading", { level: 1 }).textContent()) ?? "").match(/ACD-\d{6}/)?.[0] ?? "";
    await owner.page.getByRole("button", { name: "Refund part…" }).click();
    const part = owner.page.getByRole("dialog", { name: new RegExp(`^Refund part of ₹[\\d,]+ for ${hostingNumber}\\?$`) });
    await part.getByLabel("Amount in rupees").fill("one hundred");
    await part.getByLabel("Why (kept in the audit log)").fill("The website was down for a day during our migration.");
    await part.getByRole("button", { name: "Refund this amount" }).click();
    await expect(owner.page.getByRole("alert")).toHaveText("Type the amount in rupees, such as 2000 or 1499.50.");
    await owner.page.getByRole("button", { name: "Refund part…" }).click();
    await part.getByLabel("Amount in rupees").fill("100");
    await part.getByLabel("Why (kept in the audit log)").fill("The website was down for a day during our migration.");
    await part.getByRole("button", { name: "Refund this amount" }).click();
    await expect(owner.page.getByText("The refund of ₹100 is on its way", { exact: false })).toBeVisible();
    const goodwillId = ((await owner.page.getByText(/rfnd_\w{14}/).textContent()) ?? "").match(/rfnd_\w{14}/)?.[0] ?? "";
    const goodwill = (await (await owner.page.request.get(`${razorpayApiUrl}/v1/refunds/${goodwillId}`, { headers: { authorization: basic } })).json()) as object;
    expect((await owner.page.request.post(`${site}${webhookPath}`, razorpayWebhook("refund.processed", { refund: { ...goodwill, status: "processed" } }))).status()).toBe(200);
    await owner.page.reload();
    await expect(owner.page.getByText(/^₹100 of ₹[\d,]+, processed · rfnd_\w{14} · credit note CN-000002$/)).toBeVisible();
    expect(await seriousViolationsInBothThemes(owner.page, "order refunded in part at 375 px")).toEqual([]);
    await buyer.page.goto("/account/orders");
    await expect(buyer.page.getByText(/^₹100 of this order was refunded on .*, as goodwill\. You keep the website\.$/)).toBeVisible();
    await buyer.page.getByRole("link", { name: `Credit note for order ${hostingNumber}` }).click();
    await expect(buyer.page.getByText(new RegExp(`^This credit note reduces invoice ${hostingNumber} of ₹[\\d,]+: ₹100, GST included, was refunded on `))).toBeVisible();
    await expect(buyer.page.getByRole("table", { name: "Tax breakdown" }).getByRole("row").last()).toHaveText(/Total\s*₹100\.00/);

    // The owner (finance's work) makes a coupon; the buyer applies it at a course's checkout.
    await owner.page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Coupons" }).click();
    await expect(owner.page.getByText("No coupons yet. Make one below.")).toBeVisible();
    await owner.page.getByLabel("Code").fill("sneha-50");
    await owner.page.getByLabel("How much off").fill("50");
    await owner.page.getByLabel("Uses in all (optional)").fill("10");
    await owner.page.getByRole("button", { name: "Make the coupon" }).click();
    await expect(owner.page.getByText("SNEHA-50 is ready: buyers type it on a course's checkout page.")).toBeVisible();
    await expect(owner.page.getByLabel("Code")).toHaveValue("");
    await expect(owner.page.getByRole("listitem", { name: "SNEHA-50" })).toContainText("50% off");
    await expect(owner.page.getByRole("listitem", { name: "SNEHA-50" })).toContainText("0 of 10 paid uses, 1 per person");
    expect(await seriousViolationsInBothThemes(owner.page, "coupons at 375 px")).toEqual([]);
    await buyer.page.goto("/courses/node-backend/confirm");
    const summary = buyer.page.getByRole("region", { name: "Order summary" });
    const rupees = async () => Number(((await summary.getByRole("button", { name: /^Pay ₹/ }).textContent()) ?? "").replace(/[^\d.]/g, ""));
    const fullPrice = await rupees();
    await summary.getByLabel("Coupon code").fill("nope");
    await summary.getByRole("button", { name: "Apply" }).click();
    await expect(summary.getByText("There is no coupon NOPE. Check the code, or pay the full price.")).toBeVisible();
    await summary.getByLabel("Coupon code").fill("sneha-50");
    await summary.getByRole("button", { name: "Apply" }).click();
    await expect(summary.getByText("Coupon SNEHA-50 (50% off)")).toBeVisible();
    await expect(summary.getByText("Coupon SNEHA-50 applied: 50% off.")).toBeVisible();
    expect(await rupees()).toBe(fullPrice / 2);

    // Signing in again asks for the app's code after the password.
    await owner.page.context().clearCookies();
    await owner.page.goto("/login?redirectTo=%2Fadmin");
    await owner.page.getByLabel("E-mail").fill(owner.email);
    await owner.page.getByLabel("Password", { exact: true }).fill(password);
    await owner.page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(owner.page).toHaveURL(/\/login\/two-factor\?redirectTo=%2Fadmin$/);
    await owner.page.getByLabel("6-digit code").fill(totpCode(ownerKey));
    await owner.page.getByRole("button", { name: "Continue" }).click();
    await expect(owner.page).toHaveURL(/\/admin$/);
    await expect(owner.page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  } finally {
    await stop(server);
  }
});
