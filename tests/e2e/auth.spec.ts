import { expect, test } from "@playwright/test";
import { gotoHydrated } from "./hydration.ts";
import { latestMail, signIn, signUp, signUpVerified, uniqueEmail, giveOwnAddress } from "./identity.ts";
import { menuToggle } from "./site-menu.ts";

test.beforeEach(async ({ context }) => {
  await giveOwnAddress(context);
});

const password = "correct horse battery staple";

test("sign up, verify through the mailed link, and land signed in on the home page", async ({ page, request }) => {
  const email = uniqueEmail("signup");
  await signUp(page, { name: "Meera Iyer", email, password });
  await expect(page.getByRole("heading", { name: "Check your inbox" })).toBeVisible();
  await expect(page.getByRole("main").getByText(email)).toBeVisible();

  // Unverified: every other page sends them back to /verify-email, remembering where they were going.
  await page.goto("/courses");
  await expect(page).toHaveURL(/\/verify-email\?redirectTo=%2Fcourses$/);

  const mail = await latestMail(request, email, /Confirm your e-mail address/);
  expect(mail.text).toContain(mail.links[0]);
  await page.goto(mail.links[0] as string);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("button", { name: "Account menu for Meera Iyer" })).toBeVisible();
  // Said once: the next page does not repeat it.
  await expect(page.getByRole("status").filter({ hasText: "E-mail verified" })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByText("E-mail verified")).toHaveCount(0);

  // Verified: /verify-email sends them home.
  await page.goto("/verify-email");
  await expect(page).toHaveURL(/\/$/);
});

test("the verification mail can be sent again, with a countdown", async ({ page, request }) => {
  const email = uniqueEmail("resend");
  await signUp(page, { name: "Ravi", email, password });
  await page.getByRole("button", { name: "Send the link again" }).click();
  await expect(page.getByText("A new link is on its way")).toBeVisible();
  await expect(page.getByRole("button", { name: /Send again in \d+ s/ })).toBeDisabled();
  await expect
    .poll(async () => ((await (await request.get(`/dev/mailbox.json?to=${encodeURIComponent(email)}`)).json()) as unknown[]).length)
    .toBe(2);
});

test("\"I've verified\" rechecks, and sign-out works from the verification page", async ({ page, request }) => {
  const email = uniqueEmail("recheck");
  await signUp(page, { name: "Asha", email, password });
  // The recheck posts, then reloads the page's data: wait for that reload, so the address is not
  // verified (below) while it is still under way, which would take the page home before the second press.
  const rechecked = page.waitForResponse((response) => response.url().endsWith("/verify-email.data") && response.request().method() === "GET");
  await page.getByRole("button", { name: "I've verified" }).click();
  await rechecked;
  await expect(page).toHaveURL(/\/verify-email$/);
  const mail = await latestMail(request, email, /Confirm/);
  // Verify in another browser tab's worth of requests, then recheck here.
  await request.get(mail.links[0] as string, { maxRedirects: 0 });
  await page.getByRole("button", { name: "I've verified" }).click();
  await expect(page).toHaveURL(/\/$/);

  const other = uniqueEmail("signout");
  await page.context().clearCookies();
  await signUp(page, { name: "Kiran", email: other, password });
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/verify-email");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fverify-email$/);
});

test("sign-in errors are specific and do not reveal whether an e-mail is registered", async ({ page, request }) => {
  const email = uniqueEmail("signin");
  await signUpVerified(page, request, { name: "Farah", email, password });
  await page.context().clearCookies();

  await page.goto("/login");
  await signIn(page, email, "wrong password 123");
  const mismatch = "That e-mail and password don't match an account.";
  await expect(page.getByRole("alert")).toContainText(mismatch);
  await signIn(page, uniqueEmail("nobody"), "wrong password 123");
  await expect(page.getByRole("alert")).toContainText(mismatch);

  await page.getByLabel("E-mail").fill("not-an-email");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByText("Enter a valid e-mail address")).toBeVisible();

  await signIn(page, email, password);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("button", { name: "Account menu for Farah" })).toBeVisible();
});

test("too many sign-in attempts for one account show the spec's message", async ({ page }) => {
  const email = uniqueEmail("locked");
  await page.goto("/login");
  for (let attempt = 0; attempt < 10; attempt++) {
    await signIn(page, email, `guess number ${attempt}`);
    await expect(page.getByRole("alert")).toBeVisible();
  }
  await signIn(page, email, "one more guess");
  await expect(page.getByRole("alert")).toHaveText("Too many failed attempts. Please wait a few minutes or reset your password.");
});

test("a network past its limit for reset links gets one through after a short check in the browser, on a phone", async ({ page, context, request }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  const address = await giveOwnAddress(context);
  // A classroom asked for thirty links a moment ago.
  const ask = (email: string) => request.post("/api/auth/request-password-reset", { data: { email, redirectTo: "/reset-password" }, headers: { "x-forwarded-for": address } });
  for (let i = 0; i < 30; i++) expect((await ask(uniqueEmail("class"))).status()).toBe(200);
  expect((await ask(uniqueEmail("class"))).status()).toBe(429);

  const refused: number[] = [];
  page.on("response", (response) => {
    if (response.request().method() === "POST" && response.status() === 429) refused.push(response.status());
  });
  await gotoHydrated(page, "/forgot-password");
  await page.getByLabel("E-mail").fill(uniqueEmail("late"));
  await page.getByRole("button", { name: "Send the link" }).click();
  // Refused for the network, the browser solves the challenge that came with the refusal and sends the form again.
  await expect(page.getByText("If an account uses that address, a link to reset its password is on its way.")).toBeVisible({ timeout: 30_000 });
  expect(refused).toEqual([429]);
});

test("without JavaScript, a network past its limit is told how long to wait", async ({ browser, request }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 375, height: 740 } });
  const address = await giveOwnAddress(context);
  const ask = (email: string) => request.post("/api/auth/request-password-reset", { data: { email, redirectTo: "/reset-password" }, headers: { "x-forwarded-for": address } });
  for (let i = 0; i < 30; i++) expect((await ask(uniqueEmail("class"))).status()).toBe(200);
  const page = await context.newPage();
  await page.goto("/forgot-password");
  await page.getByLabel("E-mail").fill(uniqueEmail("late"));
  await page.getByRole("button", { name: "Send the link" }).click();
  await expect(page.getByRole("alert")).toHaveText(/^Too many password reset links were asked for from this network\. Try again in 1[45] minutes\.$/);
  await context.close();
});

test("signing up with a registered e-mail says so and suggests signing in", async ({ page, request }) => {
  const email = uniqueEmail("taken");
  await signUpVerified(page, request, { name: "Dev", email, password });
  await page.context().clearCookies();
  await page.goto("/login?mode=signup");
  await page.getByLabel("Your name").fill("Someone Else");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("another long password");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("alert")).toHaveText("An account with this e-mail already exists — sign in instead");
  await expect(page.getByLabel("E-mail")).toHaveValue(email);
  // "sign in instead" is the way there.
  await page.getByRole("alert").getByRole("link", { name: "sign in instead" }).click();
  await expect(page).toHaveURL(/\/login\?mode=signin$/);
  await expect(page.getByRole("heading", { name: "Sign in", exact: true }).or(page.getByRole("heading", { name: "Welcome back" }))).toBeVisible();
});

test("a visitor's header offers signing in and creating an account, and brings them back to where they were, on a phone too", async ({ page, request }) => {
  const email = uniqueEmail("header");
  await signUpVerified(page, request, { name: "Header Person", email, password });
  await page.context().clearCookies();

  await page.goto("/courses/webdevfrontendcourse");
  const header = page.getByRole("banner");
  await expect(header.getByRole("link", { name: "Create account" })).toHaveAttribute("href", "/login?mode=signup&redirectTo=%2Fcourses%2Fwebdevfrontendcourse");
  await header.getByRole("link", { name: "Sign in" }).click();
  await expect(page).toHaveURL("/login?redirectTo=%2Fcourses%2Fwebdevfrontendcourse");
  // The sign-in page's header does not offer the page it is on.
  await expect(header.getByRole("link", { name: "Sign in" })).toHaveCount(0);
  await signIn(page, email, password);
  await expect(page).toHaveURL("/courses/webdevfrontendcourse");

  await page.context().clearCookies();
  await page.setViewportSize({ width: 375, height: 740 });
  await gotoHydrated(page, "/services");
  await expect(header.getByRole("link", { name: "Sign in" })).toBeVisible();
  await menuToggle(page).click();
  await expect(header.getByRole("link", { name: "Create account" })).toHaveAttribute("href", "/login?mode=signup&redirectTo=%2Fservices");
  await header.getByRole("link", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
  // Both tabs on one line each at 375 px.
  for (const tab of ["Sign in", "Create account"]) {
    const box = await page.getByRole("navigation", { name: "Sign in or create an account" }).getByRole("link", { name: tab }).boundingBox();
    expect(box?.height, tab).toBeLessThan(44);
  }
});

test("passwords need 8 characters, can be shown, and get a strength hint", async ({ page }) => {
  await page.goto("/login?mode=signup");
  const field = page.getByLabel("Password", { exact: true });
  await field.fill("short");
  await expect(page.getByText("Too short: use at least 8 characters")).toBeVisible();
  await field.fill("a much longer passphrase 2026");
  await expect(page.getByText("Strong")).toBeVisible();
  await expect(field).toHaveAttribute("type", "password");
  await page.getByRole("button", { name: "Show password" }).click();
  await expect(field).toHaveAttribute("type", "text");
  await page.getByLabel("Your name").fill("Short Pass");
  await page.getByLabel("E-mail").fill(uniqueEmail("short"));
  await field.fill("1234567");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("Your password needs at least 8 characters.")).toBeVisible();
});

test("forgot password answers the same for any address and the mailed link sets a new password", async ({ page, request, browser }) => {
  const email = uniqueEmail("reset");
  await signUpVerified(page, request, { name: "Lakshmi", email, password });

  // A second device stays signed in until the reset.
  const other = await browser.newContext({ extraHTTPHeaders: { "x-forwarded-for": "127.200.0.1" } });
  const otherPage = await other.newPage();
  await otherPage.goto("/login");
  await signIn(otherPage, email, password);
  await expect(otherPage).toHaveURL(/\/$/);

  const answer = "If an account uses that address, a link to reset its password is on its way.";
  for (const address of [uniqueEmail("unknown"), email]) {
    await page.goto("/forgot-password");
    await page.getByLabel("E-mail").fill(address);
    await page.getByRole("button", { name: "Send the link" }).click();
    // The navigation spinner is a status too while the request is slow.
    await expect(page.getByRole("status").filter({ hasText: answer })).toBeVisible();
  }

  const mail = await latestMail(request, email, /Reset your/);
  await page.goto(mail.links[0] as string);
  await expect(page).toHaveURL(/\/reset-password\?token=/);
  await page.getByLabel("New password").fill("a brand new passphrase");
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page).toHaveURL(/\/login\?reset=1$/);
  await expect(page.getByRole("status")).toContainText("Your password was changed");

  await signIn(page, email, password);
  await expect(page.getByRole("alert")).toBeVisible();
  await signIn(page, email, "a brand new passphrase");
  await expect(page).toHaveURL(/\/$/);

  await otherPage.goto("/settings");
  await expect(otherPage).toHaveURL(/\/login\?redirectTo=%2Fsettings$/);
  await other.close();
});

test("a signed-out visitor of an account page signs in and comes back", async ({ page, request }) => {
  const email = uniqueEmail("return");
  await signUpVerified(page, request, { name: "Tara", email, password });
  await page.context().clearCookies();
  await page.goto("/account/orders");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Faccount%2Forders$/);
  await page.goto("/login?redirectTo=%2Fhelp");
  await signIn(page, email, password);
  await expect(page).toHaveURL(/\/help$/);
});

test("signing out from the header menu", async ({ page, request }) => {
  await signUpVerified(page, request, { name: "Nikhil Rao", email: uniqueEmail("menu"), password });
  await page.getByRole("button", { name: "Account menu for Nikhil Rao" }).click();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
});
