import { expect, test, type Page } from "@playwright/test";
import { scanBudget, seriousMailViolations, seriousViolationsInBothThemes } from "./axe.ts";
import { latestMail, signIn, signUpVerified, uniqueEmail, giveOwnAddress } from "./identity.ts";

const password = "velvet quarry lantern biscuit";
const common = "Choose a stronger password. It is on the list of the most common passwords. Add more words that are less common.";

test.beforeEach(async ({ context }) => {
  await giveOwnAddress(context);
});

/** Whether the page has downloaded the estimator's dictionaries (the diceware list is one of them). */
function watchDictionaries(page: Page): () => Promise<boolean> {
  const bodies: Promise<string>[] = [];
  page.on("response", (response) => {
    if (response.request().resourceType() === "script") bodies.push(response.text().catch(() => ""));
  });
  return async () => (await Promise.all(bodies)).some((body) => body.includes("diceware-common"));
}

test("the meter tells the truth, and the dictionaries load only where a new password is typed", async ({ page }) => {
  const dictionariesLoaded = watchDictionaries(page);
  await page.goto("/");
  await page.goto("/login");
  await page.getByLabel("Password", { exact: true }).fill("anything at all");
  expect(await dictionariesLoaded()).toBe(false);

  await page.goto("/login?mode=signup");
  await page.getByLabel("Your name").fill("Kavya Menon");
  await page.getByLabel("E-mail").fill("kavya.menon@example.com");
  const field = page.getByLabel("Password", { exact: true });
  const meter = page.locator(`[id="${await field.getAttribute("aria-describedby")}"]`);
  await expect(meter).toHaveText("At least 8 characters. A few random words make a strong, memorable password.");
  await field.fill("password");
  await expect(meter).toHaveText("Too weak: It is on the list of the most common passwords.");
  await expect(meter.locator("p")).toHaveClass(/text-red-700/);
  expect(await dictionariesLoaded()).toBe(true);
  const said: [string, string][] = [
    ["12345678", "Too weak: It is on the list of the most common passwords."],
    ["aaaaaaaa", 'Too weak: Repeated characters like "aaa" are easy to guess.'],
    ["Password1!", "Too weak: This is similar to a commonly used password."],
    ["kavyamenon", "Too weak: It is made of your name, your e-mail address or the site's name."],
    ["short", "Too short: use at least 8 characters"],
    ["blue dolphin", "Almost strong enough: Add more words that are less common."],
    ["purple monkey", "Good: one more word would make it strong"],
    [password, "Strong: a good choice"],
  ];
  for (const [typed, label] of said) {
    await field.fill(typed);
    await expect(meter).toHaveText(label);
  }
});

test("every state of the meter has no serious or critical axe violations in either theme", async ({ page }) => {
  test.setTimeout(scanBudget(8));
  const states: [string, string][] = [["password", "Too weak"], ["blue dolphin", "Almost"], ["purple monkey", "Good"], [password, "Strong"]];
  await page.goto("/login?mode=signup");
  const field = page.getByLabel("Password", { exact: true });
  for (const [typed, label] of states) {
    await field.fill(typed);
    await expect(page.getByText(label).first()).toBeVisible();
    expect(await seriousViolationsInBothThemes(page, `meter ${label}`)).toEqual([]);
  }
});

test("sign-up with a weak password is refused with the reason, and nothing is created", async ({ page }) => {
  const email = uniqueEmail("weak");
  await page.goto("/login?mode=signup");
  await page.getByLabel("Your name").fill("Kavya Menon");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("kavyamenon");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "Choose a stronger password. It is made of your name, your e-mail address or the site's name. Use a few random words that have nothing to do with you.",
  );
  await expect(page).toHaveURL(/\/login/);
  await page.goto("/login");
  await signIn(page, email, "kavyamenon");
  await expect(page.getByRole("alert")).toContainText("don't match an account");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the server refuses a common password on sign-up", async ({ page }) => {
    await page.goto("/login?mode=signup");
    await page.getByLabel("Your name").fill("Farhan Ali");
    await page.getByLabel("E-mail").fill(uniqueEmail("nojs-weak"));
    await page.getByLabel("Password", { exact: true }).fill("12345678");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByRole("alert")).toHaveText(common);
  });
});

test("a reset link refuses a weak password and still works for a strong one", async ({ page, request }) => {
  const email = uniqueEmail("weak-reset");
  await signUpVerified(page, request, { name: "Rohan Iyer", email, password });
  await page.context().clearCookies();
  await page.goto("/forgot-password");
  await page.getByLabel("E-mail").fill(email);
  await page.getByRole("button", { name: "Send the link" }).click();
  const mail = await latestMail(request, email, /Reset your/);
  await page.goto(mail.links[0] as string);
  await page.getByLabel("New password").fill("12345678");
  await expect(page.getByText("Too weak: It is on the list of the most common passwords.")).toBeVisible();
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByRole("alert")).toHaveText(common);
  await page.getByLabel("New password").fill("marble otter cinnamon glacier");
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page).toHaveURL(/\/login\?reset=1$/);
});

test("changing the password refuses a weak one and keeps the old", async ({ page, request }) => {
  const email = uniqueEmail("weak-change");
  await signUpVerified(page, request, { name: "Rohan Iyer", email, password });
  await page.goto("/profile");
  await page.getByLabel("Current password").fill(password);
  await page.getByLabel("New password").fill("rohaniyer");
  await expect(page.getByText("Too weak: It is made of your name, your e-mail address or the site's name.")).toBeVisible();
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("alert")).toContainText("Choose a stronger password. It is made of your name");
  await page.context().clearCookies();
  await page.goto("/login");
  await signIn(page, email, password);
  await expect(page).toHaveURL(/\/$/);
});

test("a changed password is mailed to the owner, and the mail's button leads to a reset, at 375 px", async ({ page, request }) => {
  test.setTimeout(scanBudget(3));
  await page.setViewportSize({ width: 375, height: 812 });
  const email = uniqueEmail("changed-mail");
  await signUpVerified(page, request, { name: "Rohan Iyer", email, password });
  await page.goto("/profile");
  await page.getByLabel("Current password").fill(password);
  await page.getByLabel("New password").fill("marble otter cinnamon glacier");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("Your password was changed. Other devices were signed out.")).toBeVisible();
  expect(await seriousViolationsInBothThemes(page)).toEqual([]);

  const mail = await latestMail(request, email, /password was changed/);
  expect(mail.text).toContain("from your account settings");
  await page.setContent(mail.html);
  await expect(page.getByText("If this was not you, reset your password now")).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  expect(await seriousMailViolations(page, "the password-changed mail")).toEqual([]);
  await page.getByRole("link", { name: "Reset my password" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expect(page.getByRole("button", { name: "Send the link" })).toBeVisible();
});
