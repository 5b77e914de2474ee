import { expect, test } from "@playwright/test";
import { gotoHydrated, hydrated } from "./hydration.ts";

const isDark = () => document.documentElement.classList.contains("dark");

test("defaults to the system scheme and follows it live", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/");
  await expect(page.getByRole("button", { name: "System theme" }).first()).toHaveAttribute("aria-pressed", "true");
  expect(await page.evaluate(isDark)).toBe(true);
  // Following the scheme live is the hydrated app's work: wait for its scripts before changing it.
  await hydrated(page);
  await page.emulateMedia({ colorScheme: "light" });
  await expect.poll(() => page.evaluate(isDark)).toBe(false);
  await page.emulateMedia({ colorScheme: "dark" });
  await expect.poll(() => page.evaluate(isDark)).toBe(true);
});

test("a chosen theme persists across reloads and ignores the system scheme", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  // The theme buttons are the hydrated app's: a click before its scripts run is lost.
  await gotoHydrated(page, "/courses");
  await page.getByRole("button", { name: "Dark theme" }).first().click();
  expect(await page.evaluate(isDark)).toBe(true);
  expect(await page.evaluate(() => localStorage.getItem("academy-theme"))).toBe("dark");
  await page.reload();
  expect(await page.evaluate(isDark)).toBe(true);
  await expect(page.getByRole("button", { name: "Dark theme" }).first()).toHaveAttribute("aria-pressed", "true");
  await hydrated(page);
  await page.emulateMedia({ colorScheme: "dark" });
  await page.getByRole("button", { name: "Light theme" }).first().click();
  expect(await page.evaluate(isDark)).toBe(false);
  await page.reload();
  expect(await page.evaluate(isDark)).toBe(false);
});

test("the first paint already has the stored theme, before any of our bundles run", async ({ page }) => {
  // Block every bundle: only the inline bootstrap in <head> can set the theme.
  await page.route("**/assets/*.js", (route) => route.abort());
  await page.addInitScript(() => localStorage.setItem("academy-theme", "dark"));
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/", { waitUntil: "commit" });
  await page.waitForSelector("body");
  expect(await page.evaluate(isDark)).toBe(true);
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(background).not.toBe("rgb(255, 255, 255)");
});

test("system dark scheme is applied before any of our bundles run", async ({ page }) => {
  await page.route("**/assets/*.js", (route) => route.abort());
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/team", { waitUntil: "commit" });
  await page.waitForSelector("body");
  expect(await page.evaluate(isDark)).toBe(true);
});
