import { expect, test } from "@playwright/test";
import { spinnerDelayMs } from "../../app/components/navigation-spinner.tsx";
import { signUpVerified, uniqueEmail, giveOwnAddress } from "./identity.ts";
import { gotoHydrated } from "./hydration.ts";

test("a slow client navigation shows the full-screen Loading... spinner", async ({ page }) => {
  await gotoHydrated(page, "/");
  await page.route("**/courses.data*", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1200));
    await route.continue();
  });
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Courses" }).click();
  await expect(page.getByRole("status")).toHaveText("Loading...");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/Learn by building/);
  await expect(page.getByRole("status")).toHaveCount(0);
});

test("a slow form shows its pending state on its own button, not the full-screen spinner", async ({ page, request, context }) => {
  await giveOwnAddress(context);
  await signUpVerified(page, request, { name: "Ishaan", email: uniqueEmail("pending"), password: "correct horse battery staple" });
  await gotoHydrated(page, "/profile");
  await page.route("**/profile.data*", async (route) => {
    if (route.request().method() === "POST") await new Promise((resolve) => setTimeout(resolve, 1200));
    await route.continue();
  });
  await page.getByLabel("Name", { exact: true }).fill("Ishaan K");
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByRole("button", { name: "Saving…" })).toBeVisible();
  await expect(page.getByText("Loading...")).toHaveCount(0);
  await expect(page.getByText("Your name was saved.")).toBeVisible();
});

test("a navigation shorter than the spinner's delay does not flash it", async ({ page }) => {
  // The page's clock is ours: the navigation's data is held while exactly 1 ms less than the delay
  // passes, however long this machine takes.
  await page.clock.install();
  await gotoHydrated(page, "/");
  await page.clock.pauseAt(Date.now() + 60_000);
  let release: (() => void) | undefined;
  await page.route("**/team.data*", async (route) => {
    await new Promise<void>((resolve) => (release = resolve));
    await route.continue();
  });
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { seen: string[] }).seen = seen;
    new MutationObserver(() => {
      if (document.querySelector('[role="status"]')) seen.push("spinner");
    }).observe(document.body, { childList: true, subtree: true });
  });
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Team" }).click();
  await expect.poll(() => release !== undefined).toBe(true);
  await page.clock.runFor(spinnerDelayMs - 1);
  release?.();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/The people behind/);
  expect(await page.evaluate(() => (window as unknown as { seen: string[] }).seen)).toEqual([]);
});

test("the view scrolls to the top on a route change and back restores the position", async ({ page }) => {
  await gotoHydrated(page, "/courses");
  await page.getByRole("contentinfo").scrollIntoViewIfNeeded();
  const before = await page.evaluate(() => window.scrollY);
  expect(before).toBeGreaterThan(200);
  await page.getByRole("contentinfo").getByRole("link", { name: "Portfolio" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/Work we are proud of/);
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  await page.goBack();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/Learn by building/);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
});

test("the back action returns to the previous page", async ({ page }) => {
  await gotoHydrated(page, "/");
  await page.getByRole("link", { name: "Front-End Web Development" }).first().click();
  await expect(page).toHaveURL(/\/course\/webdevfrontendcourse$/);
  await page.getByRole("link", { name: "Back to courses" }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("the back action falls back to the parent list when there is no previous page", async ({ page }) => {
  await gotoHydrated(page, "/service/website-hosting");
  await page.getByRole("link", { name: "Back to services" }).click();
  await expect(page).toHaveURL(/\/services$/);
});

test("on a phone the navigation collapses into a menu", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await gotoHydrated(page, "/");
  await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
  const toggle = page.getByRole("button", { name: "Open menu" });
  await toggle.click();
  await expect(page.getByRole("button", { name: "Close menu" })).toHaveAttribute("aria-expanded", "true");
  await page.getByRole("navigation", { name: "Mobile" }).getByRole("link", { name: "Services" }).click();
  await expect(page).toHaveURL(/\/services$/);
  await expect(page.getByRole("navigation", { name: "Mobile" })).toBeHidden();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test("on a phone only one menu is open at a time", async ({ page, context, request }) => {
  await giveOwnAddress(context);
  await signUpVerified(page, request, { name: "Two Menus", email: uniqueEmail("menus"), password: "correct horse battery staple" });
  await page.setViewportSize({ width: 375, height: 740 });
  await gotoHydrated(page, "/courses");
  await page.getByRole("button", { name: "Open menu" }).click();
  const mobile = page.getByRole("navigation", { name: "Mobile" });
  await expect(mobile).toBeVisible();
  await page.getByRole("button", { name: "Account menu for Two Menus" }).click();
  await expect(page.getByRole("link", { name: "My courses" })).toBeVisible();
  await expect(mobile).toBeHidden();
  await page.getByRole("button", { name: "Open menu" }).click();
  await expect(mobile).toBeVisible();
  await expect(page.getByRole("link", { name: "My courses" })).toBeHidden();
  await page.keyboard.press("Escape");
  await expect(mobile).toBeHidden();
  await expect(page.getByRole("button", { name: "Open menu" })).toBeFocused();
});

test("the site can be used with the keyboard alone", async ({ page }) => {
  await gotoHydrated(page, "/");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/#main$/);
  await page.goto("/courses");
  await page.getByRole("link", { name: "Front-End Web Development" }).first().focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/course\/webdevfrontendcourse$/);
});

test("the account menu is a button that says whether it is open, and Escape or a click elsewhere closes it", async ({ page, context, request }) => {
  await giveOwnAddress(context);
  await signUpVerified(page, request, { name: "Menu Tester", email: uniqueEmail("menu"), password: "correct horse battery staple" });
  const button = page.getByRole("button", { name: "Account menu for Menu Tester" });
  await expect(button).toHaveAttribute("aria-expanded", "false");
  const signOut = page.getByRole("button", { name: "Sign out" });
  await expect(signOut).toBeHidden();

  await button.focus();
  await page.keyboard.press("Enter");
  await expect(button).toHaveAttribute("aria-expanded", "true");
  await expect(signOut).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(signOut).toBeHidden();
  await expect(button).toHaveAttribute("aria-expanded", "false");
  await expect(button).toBeFocused();

  await button.click();
  await expect(page.getByRole("link", { name: "My courses" })).toBeVisible();
  await page.locator("main").click({ position: { x: 5, y: 5 } });
  await expect(signOut).toBeHidden();

  await button.click();
  for (let i = 0; i < 10 && !(await signOut.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
  await expect(signOut).toBeFocused();
});
