import { expect, test } from "@playwright/test";
import { scanBudget, seriousViolationsInBothThemes } from "./axe.ts";
import { signIn, signUpVerified, uniqueEmail, giveOwnAddress } from "./identity.ts";
import { gotoHydrated } from "./hydration.ts";

const password = "correct horse battery staple";
// A 2 × 2 PNG, valid by its content.
const png = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==",
  "base64",
);

test.beforeEach(async ({ context }) => {
  await giveOwnAddress(context);
});

test("profile: edit the name, upload and remove a photo, change the password", async ({ page, request }) => {
  const email = uniqueEmail("profile");
  await signUpVerified(page, request, { name: "Priya", email, password });
  await page.goto("/profile");
  await expect(page).toHaveTitle("Your profile | Academy");
  await expect(page.getByRole("region", { name: "Your profile" }).getByText(email)).toBeVisible();
  await expect(page.getByText("Verified", { exact: true })).toBeVisible();

  await page.getByLabel("Name", { exact: true }).fill("Priya Natarajan");
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByText("Your name was saved.")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Priya Natarajan");
  await expect(page.getByRole("button", { name: "Account menu for Priya Natarajan" })).toBeVisible();

  await page.getByLabel(/Upload a JPEG, PNG or WebP image/).setInputFiles({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("not an image at all") });
  await page.getByRole("button", { name: "Upload photo" }).click();
  await expect(page.getByText("That file is not a JPEG, PNG or WebP image.")).toBeVisible();

  await page.getByLabel(/Upload a JPEG, PNG or WebP image/).setInputFiles({ name: "me.png", mimeType: "image/png", buffer: png });
  await page.getByRole("button", { name: "Upload photo" }).click();
  await expect(page.getByText("Your new photo is in place.")).toBeVisible();
  const photo = page.getByRole("img", { name: "Priya Natarajan" });
  await expect(photo).toBeVisible();
  const src = (await photo.getAttribute("src")) ?? "";
  expect(src).toMatch(/^\/uploads\/avatars\/[A-Za-z0-9]+\/[a-f0-9]{32}\.webp$/);
  const served = await request.get(src);
  expect(served.headers()["content-type"]).toBe("image/webp");
  await page.getByRole("button", { name: "Remove photo" }).click();
  await expect(page.getByText("Your photo was removed.")).toBeVisible();
  expect((await request.get(src)).status()).toBe(404);

  await page.getByLabel("Current password").fill("not my password");
  await page.getByLabel("New password").fill("an even better passphrase");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("alert")).toBeVisible();
  await page.getByLabel("Current password").fill(password);
  await page.getByLabel("New password").fill("an even better passphrase");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("Your password was changed.")).toBeVisible();
  await page.context().clearCookies();
  await page.goto("/login");
  await signIn(page, email, "an even better passphrase");
  await expect(page).toHaveURL(/\/$/);
});

test("settings: the theme choice is the header's", async ({ page, request }) => {
  await signUpVerified(page, request, { name: "Theme Tester", email: uniqueEmail("theme"), password });
  await page.emulateMedia({ colorScheme: "light" });
  // The choice takes effect through the page's script, which starts after the first paint.
  await gotoHydrated(page, "/settings");
  await page.getByLabel("Dark", { exact: true }).check();
  expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
  await expect(page.getByRole("button", { name: "Dark theme" }).first()).toHaveAttribute("aria-pressed", "true");
  await page.getByRole("button", { name: "Light theme" }).first().click();
  await expect(page.getByLabel("Light", { exact: true })).toBeChecked();
});

test("settings: see signed-in devices and sign out the others", async ({ page, request, browser }) => {
  const email = uniqueEmail("devices");
  await signUpVerified(page, request, { name: "Two Devices", email, password });
  const phone = await browser.newContext({
    userAgent: "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36",
    extraHTTPHeaders: { "x-forwarded-for": "127.99.0.7" },
  });
  const phonePage = await phone.newPage();
  await phonePage.goto("/login");
  await signIn(phonePage, email, password);
  await expect(phonePage).toHaveURL(/\/$/);

  await page.goto("/settings");
  await expect(page.getByRole("listitem").filter({ hasText: "Chrome on Android" })).toHaveCount(1);
  await expect(page.getByText("This device", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: /Sign out of all other devices/ }).click();
  await expect(page.getByText("Every other device was signed out.")).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: "Chrome on Android" })).toHaveCount(0);

  await phonePage.goto("/settings");
  await expect(phonePage).toHaveURL(/\/login\?redirectTo=%2Fsettings$/);
  await phone.close();
});

test("settings: signing in again on the same browser keeps one row for it, on a phone", async ({ page, request }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  const email = uniqueEmail("one-row");
  await signUpVerified(page, request, { name: "Same Browser", email, password });
  // The browser forgets its session (closed without "Keep me signed in") but is still the same browser.
  for (let i = 0; i < 3; i++) {
    await page.context().clearCookies({ name: /session_token|dont_remember/ });
    await page.goto("/login");
    await signIn(page, email, password);
    await expect(page).toHaveURL(/\/$/);
  }
  await page.goto("/settings");
  const devices = page.getByRole("region", { name: "Signed-in devices" }).getByRole("listitem");
  await expect(devices).toHaveCount(1);
  await expect(devices).toContainText("This device");
  await expect(devices).toContainText(/Signed in \d{1,2} \w+ \d{4} · last active/);
});

test("settings: download my data and delete the account", async ({ page, request }) => {
  const email = uniqueEmail("delete");
  await signUpVerified(page, request, { name: "Leaving Soon", email, password });
  await page.goto("/settings");
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download my data (JSON)" }).click();
  const file = await (await download).path();
  const exported = JSON.parse(await (await import("node:fs/promises")).readFile(file, "utf8")) as {
    account: { email: string };
    userDocument: { name: string; email: string };
    sessions: unknown[];
    mail: { subject: string }[];
  };
  expect(exported.account.email).toBe(email);
  expect(exported.userDocument).toMatchObject({ name: "Leaving Soon", email });
  expect(exported.sessions.length).toBeGreaterThan(0);
  expect(exported.mail[0]?.subject).toContain("Confirm your e-mail");
  expect(JSON.stringify(exported)).not.toMatch(/"token"|"password"/);

  await page.getByLabel(/Type .* to confirm/).fill("someone-else@example.com");
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page.getByRole("alert")).toContainText("to confirm");
  await page.getByLabel(/Type .* to confirm/).fill(email);
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page).toHaveURL(/\/\?deleted=1$/);
  await expect(page.getByText("Your account and everything we held about you were deleted.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
  await page.goto("/login");
  await signIn(page, email, password);
  await expect(page.getByRole("alert")).toContainText("don't match an account");
  expect(((await (await request.get(`/dev/mailbox.json?to=${encodeURIComponent(email)}`)).json()) as unknown[]).length).toBe(0);
});

test("signed-in pages have no serious or critical axe violations in either theme", async ({ page, request }) => {
  test.setTimeout(scanBudget(6));
  await signUpVerified(page, request, { name: "Axe Person", email: uniqueEmail("axe"), password });
  for (const path of ["/profile", "/settings", "/logout"]) {
    await page.goto(path);
    expect(await seriousViolationsInBothThemes(page, path)).toEqual([]);
  }
});
