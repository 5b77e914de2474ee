import { expect, test } from "@playwright/test";
import { gotoHydrated } from "./hydration.ts";
import { signOut, giveOwnAddress } from "./identity.ts";

test.beforeEach(async ({ context }) => {
  await giveOwnAddress(context);
});

test("Continue with Google opens a popup with the account chooser and signs in", async ({ page }) => {
  // The popup is the page script's; before it runs, the link is a plain redirect (tested below).
  await gotoHydrated(page, "/login?redirectTo=%2Fhelp");
  const popupOpened = page.waitForEvent("popup");
  await page.getByRole("link", { name: "Continue with Google" }).click();
  const popup = await popupOpened;
  await expect(popup.getByRole("heading", { name: "Choose an account" })).toBeVisible();
  // Listen before choosing: the popup may close before the click's own wait is over.
  const closed = popup.waitForEvent("close");
  await popup.getByRole("button", { name: /Gauri Learner/ }).click();
  await closed;
  await expect(page).toHaveURL(/\/help$/);
  await expect(page.getByRole("button", { name: "Account menu for Gauri Learner" })).toBeVisible();

  // The first Google sign-in created the user document.
  const exported = (await (await page.request.get("/settings/my-data.json")).json()) as {
    userDocument: { name: string; email: string; profilePicUrl: string };
    signInMethods: { provider: string }[];
  };
  expect(exported.userDocument).toMatchObject({ name: "Gauri Learner", email: "gauri.learner@example.com" });
  expect(exported.userDocument.profilePicUrl).toMatch(/\/avatar\/g-1001\.svg$/);
  expect(exported.signInMethods.map((m) => m.provider)).toEqual(["google"]);

  // Signing out and in again shows the account chooser again.
  await signOut(page);
  await gotoHydrated(page, "/login");
  const again = page.waitForEvent("popup");
  await page.getByRole("link", { name: "Continue with Google" }).click();
  const second = await again;
  await expect(second.getByRole("heading", { name: "Choose an account" })).toBeVisible();
  await second.close();
});

test("when popups are blocked, Continue with Google falls back to a redirect", async ({ page }) => {
  await page.addInitScript(() => {
    window.open = () => null;
  });
  await gotoHydrated(page, "/login?redirectTo=%2Fcourses");
  await page.getByRole("link", { name: "Continue with Google" }).click();
  await expect(page.getByRole("heading", { name: "Choose an account" })).toBeVisible();
  await page.getByRole("button", { name: /Vivek Builder/ }).click();
  await expect(page).toHaveURL(/\/courses$/);
  await expect(page.getByRole("button", { name: "Account menu for Vivek Builder" })).toBeVisible();
  await page.goto("/profile");
  await expect(page.getByText("You sign in with Google, so there is no password to change here.")).toBeVisible();
});

test("Continue with Google works without JavaScript, as a plain redirect", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, extraHTTPHeaders: { "x-forwarded-for": "127.77.0.3" } });
  const page = await context.newPage();
  await page.goto("/login");
  await page.getByRole("link", { name: "Continue with Google" }).click();
  await expect(page.getByRole("heading", { name: "Choose an account" })).toBeVisible();
  await context.close();
});
