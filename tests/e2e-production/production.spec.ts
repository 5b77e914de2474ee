// The production build as a customer meets it: https at a real host name through nginx, Secure
// cookies, mail over SMTP, the sandbox gateway allowed for staging. Every form here failed with
// 400 behind the proxy while the server compared the browser's https origin with its own http URL.
import { randomBytes } from "node:crypto";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { mailSinkUrl, productionUrl } from "../e2e/servers.ts";

const course = "webdevfrontendcourse";
const courseTitle = "Front-End Web Development";
const password = "correct horse battery staple";

interface Mail {
  subject: string;
  links: string[];
}

async function newVisitor(browser: Browser, javaScriptEnabled: boolean): Promise<Page> {
  // The test plays the CDN in front of nginx (TRUST_PROXY=2): this entry is the visitor's address.
  const address = `198.51.100.${randomBytes(1)[0]}`;
  const context = await browser.newContext({ javaScriptEnabled, extraHTTPHeaders: { "x-forwarded-for": address } });
  // Answered already, so the consent bar (analytics.spec.ts) does not cover the buttons these flows press.
  await context.addCookies([{ name: "academy_consent", value: "none", url: productionUrl }]);
  return context.newPage();
}

async function latestMail(page: Page, to: string, subject: RegExp): Promise<Mail> {
  let found: Mail | undefined;
  await expect
    .poll(
      async () => {
        const response = await page.request.get(`${mailSinkUrl}/mail.json?to=${encodeURIComponent(to)}`);
        found = ((await response.json()) as Mail[]).find((m) => subject.test(m.subject));
        return found !== undefined;
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  return found as Mail;
}

async function signUpAndVerify(page: Page, email: string) {
  const signUp = await page.goto("/login?mode=signup");
  expect(signUp?.headers()["strict-transport-security"]).toMatch(/max-age=\d+/);
  await page.getByLabel("Your name").fill("Prod Learner");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(`${productionUrl}/verify-email`);

  const mail = await latestMail(page, email, /Confirm your e-mail/);
  const link = mail.links.find((l) => l.startsWith(`${productionUrl}/`));
  expect(link, `a link on ${productionUrl} in ${JSON.stringify(mail.links)}`).toBeDefined();
  await page.goto(link as string);
  await expect(page).toHaveURL(`${productionUrl}/`);

  const cookies = await page.context().cookies();
  const session = cookies.find((c) => c.name.endsWith("session_token"));
  expect(session?.name).toMatch(/^__Secure-/);
  expect(session?.secure).toBe(true);
  expect(session?.httpOnly).toBe(true);
}

async function buy(page: Page, javaScriptEnabled: boolean) {
  await page.goto(`/courses/${course}/confirm`);
  await page.getByRole("button", { name: /Pay ₹/ }).click();
  await expect(page).toHaveURL(/\/sandbox\/checkout\/[^/?]+$/);
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  // Without JavaScript the sandbox shows the button Razorpay's redirect mode would press itself.
  if (!javaScriptEnabled) await page.getByRole("button", { name: "Return to the shop" }).click();
  await expect(page).toHaveURL(new RegExp(`/courses/${course}/confirm\\?order=`));
  await expect(page.getByRole("heading", { name: "You're enrolled" })).toBeVisible();
}

async function refund(page: Page) {
  await page.goto("/account/orders");
  const order = page.getByRole("article").filter({ has: page.getByRole("heading", { name: courseTitle }) });
  await order.getByRole("button", { name: /Request a refund/ }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Yes, refund me" }).click();
  await expect(page.getByText(/Your refund of ₹[\d,]+ has been requested\./)).toBeVisible();
}

async function editProfileAndNotes(page: Page) {
  await page.goto("/profile");
  await page.getByLabel("Name", { exact: true }).fill("Prod Learner Renamed");
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByText("Your name was saved.")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Prod Learner Renamed");

  await page.goto("/notes");
  await page.getByRole("button", { name: "New note" }).click();
  await expect(page).toHaveURL(/\/notes\?note=[0-9a-f-]{36}$/);
  const title = `Over TLS ${randomBytes(3).toString("hex")}`;
  await page.getByRole("textbox", { name: "Title", exact: true }).fill(title);
  await page.getByLabel("Note (Markdown)").fill("Written behind nginx.");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Saved/ })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("textbox", { name: "Title", exact: true })).toHaveValue(title);
}

async function signOut(page: Page) {
  await page.goto("/logout");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
  await page.goto("/account/orders");
  await expect(page).toHaveURL(/\/login\?redirectTo=/);
}

for (const javaScriptEnabled of [true, false]) {
  test(`${javaScriptEnabled ? "with" : "without"} JavaScript, a new learner signs up, verifies, edits the profile, writes a note, buys, refunds and signs out over https`, async ({ browser }) => {
    test.setTimeout(120_000);
    const page = await newVisitor(browser, javaScriptEnabled);
    const email = `prod-${randomBytes(4).toString("hex")}@example.com`;
    await signUpAndVerify(page, email);
    await editProfileAndNotes(page);
    await buy(page, javaScriptEnabled);
    await refund(page);
    await signOut(page);

    await page.goto("/login");
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page).toHaveURL(`${productionUrl}/`);
    await page.context().close();
  });
}

test("a form posted from another site changes nothing", async ({ browser }) => {
  const page = await newVisitor(browser, true);
  const email = `mallory-${randomBytes(4).toString("hex")}@example.com`;
  await page.setContent(`<form method="post" action="${productionUrl}/login?mode=signup">
    <input name="intent" value="signup"><input name="name" value="Mallory"><input name="email" value="${email}">
    <input name="password" value="${password}"><button>Go</button></form>`);
  const [response] = await Promise.all([page.waitForResponse(`${productionUrl}/login?mode=signup`), page.getByRole("button", { name: "Go" }).click()]);
  expect(response.status()).toBe(403);
  await expect(page.getByText(/This form was sent from another site, so nothing was changed/)).toBeVisible();

  await page.goto("/login");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("alert")).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await page.context().close();
});

test("a page rendered for one visit arrives whole and styled, in gzip with the inlined stylesheet's deflate spliced in", async ({ browser }) => {
  const page = await newVisitor(browser, true);
  const response = await page.goto(`/course/${course}-retired`);
  expect(response?.status()).toBe(404);
  // Not cached, and the stylesheet is inlined: gzip, the stylesheet deflated once (server/http/compression.ts).
  expect(response?.headers()["content-encoding"]).toBe("gzip");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--color-brand-600"))).toMatch(/\S/);
  expect(await page.evaluate(() => document.documentElement.outerHTML.endsWith("</body></html>"))).toBe(true);
  await page.context().close();
});
