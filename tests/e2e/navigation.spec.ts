import { expect, test, type Page } from "@playwright/test";
import { overlayDelayMs } from "../../app/components/navigation-progress.tsx";
import { signUpVerified, uniqueEmail, giveOwnAddress } from "./identity.ts";
import { gotoHydrated, hydrated } from "./hydration.ts";
import { seriousViolations } from "./axe.ts";
import { menuToggle } from "./site-menu.ts";

/**
 * Holds the next request for `path`'s data until the returned function is called. The page's clock is
 * the test's (installed, then paused), so the overlay's delay passes only when the test says, however
 * long this machine takes.
 */
async function holdNavigation(page: Page, from: string, path: string): Promise<() => Promise<void>> {
  await page.clock.install();
  await gotoHydrated(page, from);
  await page.clock.pauseAt(Date.now() + 60_000);
  let release: (() => void) | undefined;
  await page.route(`**${path}.data*`, async (route) => {
    await new Promise<void>((resolve) => (release = resolve));
    await route.continue();
  });
  return async () => {
    await expect.poll(() => release !== undefined).toBe(true);
    release?.();
  };
}

test("a navigation shows a thin bar at once, and the full-screen Loading... only once it has taken 400 ms", async ({ page }) => {
  const release = await holdNavigation(page, "/", "/courses");
  const bar = page.getByRole("progressbar", { name: "Loading the next page" });
  const overlay = page.getByRole("status").filter({ hasText: "Loading..." });
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Courses" }).click();
  await expect(bar).toBeVisible();
  // The page being left stays readable: no overlay while the delay has not passed.
  await expect(overlay).toHaveCount(0);
  await page.clock.runFor(overlayDelayMs);
  await expect(overlay).toBeVisible();
  await expect(bar).toBeVisible();
  // axe waits on timers: the clock runs again (the page is still held).
  await page.clock.resume();
  expect(await seriousViolations(page, "a page loading")).toEqual([]);
  await release();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/Learn by building/);
  await expect(bar).toHaveCount(0);
  await expect(overlay).toHaveCount(0);
});

test("the navigation bar stands still for people who ask for less motion", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  const release = await holdNavigation(page, "/", "/team");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Team" }).click();
  const bar = page.getByRole("progressbar", { name: "Loading the next page" });
  await expect(bar).toBeVisible();
  expect(await bar.locator("div").evaluate((fill) => getComputedStyle(fill).animationName)).toBe("none");
  await release();
  await expect(bar).toHaveCount(0);
});

test("a slow form shows its pending state on its own button, not the navigation bar or the full-screen Loading...", async ({ page, request, context }) => {
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
  await expect(page.getByRole("progressbar", { name: "Loading the next page" })).toHaveCount(0);
  await expect(page.getByText("Your name was saved.")).toBeVisible();
});

test("a navigation quicker than the overlay's delay shows only the bar, never the full-screen Loading...", async ({ page }) => {
  const release = await holdNavigation(page, "/", "/team");
  await page.evaluate(() => {
    const seen = new Set<string>();
    (window as unknown as { seen: Set<string> }).seen = seen;
    new MutationObserver(() => {
      if (document.querySelector('[role="progressbar"]')) seen.add("bar");
      if (document.querySelector('[role="status"]')) seen.add("overlay");
    }).observe(document.body, { childList: true, subtree: true });
  });
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Team" }).click();
  await page.clock.runFor(overlayDelayMs - 1);
  await release();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/The people behind/);
  expect(await page.evaluate(() => [...(window as unknown as { seen: Set<string> }).seen])).toEqual(["bar"]);
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

test("the header's and footer's links change the page within the app, the header marking the section, the skip link only moving down the page", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  // React Router learns the routes of the links on the page once it has hydrated, before any click.
  const discovered = page.waitForRequest((request) => request.url().includes("/__manifest") && decodeURIComponent(request.url()).includes("/team"));
  await gotoHydrated(page, "/");
  await discovered;
  const manifests: string[] = [];
  page.on("request", (request) => void (request.url().includes("/__manifest") && manifests.push(request.url())));
  const main = page.getByRole("navigation", { name: "Main" });
  await expect(main.locator("[aria-current]")).toHaveCount(0);
  // A mark on the window: a full page load would lose it.
  await page.evaluate(() => ((window as unknown as { kept: boolean }).kept = true));
  const kept = () => page.evaluate(() => (window as unknown as { kept?: boolean }).kept === true);
  await page.getByRole("contentinfo").getByRole("link", { name: "Team" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/The people behind/);
  await expect(main.getByRole("link", { name: "Team" })).toHaveAttribute("aria-current", "page");
  expect(manifests).toEqual([]);
  await main.getByRole("link", { name: "Courses" }).click();
  await expect(page).toHaveURL(/\/courses$/);
  await expect(main.getByRole("link", { name: "Courses" })).toHaveAttribute("aria-current", "page");
  await expect(main.getByRole("link", { name: "Team" })).not.toHaveAttribute("aria-current", /.*/);
  expect(await kept()).toBe(true);
  await page.getByRole("link", { name: "Skip to content" }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/courses#main$/);
  // The browser moved the keyboard's place to the content: the next Tab lands in it, not back in the header.
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => document.activeElement?.closest("main") !== null)).toBe(true);
  await page.getByRole("banner").getByRole("link", { name: "Academy" }).first().click();
  await expect(page).toHaveURL(/\/$/);
  await expect(main.locator("[aria-current]")).toHaveCount(0);
  expect(await kept()).toBe(true);
  await page.goBack();
  await expect(page).toHaveURL(/\/courses#main$/);
});

test("the back action returns to the previous page", async ({ page }) => {
  await gotoHydrated(page, "/");
  await page.getByRole("region", { name: "Popular courses" }).getByRole("link", { name: "Front-End Web Development" }).first().click();
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
  await expect(menuToggle(page)).toHaveAccessibleName("Open menu");
  await menuToggle(page).click();
  await expect(menuToggle(page)).toHaveAccessibleName("Close menu");
  await page.getByRole("navigation", { name: "Mobile" }).getByRole("link", { name: "Services" }).click();
  await expect(page).toHaveURL(/\/services$/);
  await expect(page.getByRole("navigation", { name: "Mobile" })).toBeHidden();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test("on a phone the menu opens before the page's scripts arrive, and stays in step once they do", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  const held = Promise.withResolvers<void>();
  await page.route(/\.js(\?|$)/, async (route) => {
    await held.promise;
    await route.continue();
  });
  await page.goto("/", { waitUntil: "commit" });
  const mobile = page.getByRole("navigation", { name: "Mobile" });
  await expect(menuToggle(page)).toHaveAccessibleName("Open menu");
  await menuToggle(page).click();
  await expect(mobile.getByRole("link", { name: "Courses" })).toBeVisible();
  await expect(menuToggle(page)).toHaveAccessibleName("Close menu");
  await menuToggle(page).click();
  await expect(mobile).toBeHidden();
  await menuToggle(page).click();

  held.resolve();
  await hydrated(page);
  // Opened before the scripts ran: following one of its links still closes it, as it does after.
  await mobile.getByRole("link", { name: "Team" }).click();
  await expect(page).toHaveURL(/\/team$/);
  await expect(page).toHaveTitle(/^Team/);
  await expect(mobile).toBeHidden();
  await menuToggle(page).click();
  await expect(mobile).toBeVisible();
});

test("on a phone only one menu is open at a time", async ({ page, context, request }) => {
  await giveOwnAddress(context);
  await signUpVerified(page, request, { name: "Two Menus", email: uniqueEmail("menus"), password: "correct horse battery staple" });
  await page.setViewportSize({ width: 375, height: 740 });
  await gotoHydrated(page, "/courses");
  await menuToggle(page).click();
  const mobile = page.getByRole("navigation", { name: "Mobile" });
  await expect(mobile).toBeVisible();
  await page.getByRole("button", { name: "Account menu for Two Menus" }).click();
  await expect(page.getByRole("link", { name: "My courses" })).toBeVisible();
  await expect(mobile).toBeHidden();
  await menuToggle(page).click();
  await expect(mobile).toBeVisible();
  await expect(page.getByRole("link", { name: "My courses" })).toBeHidden();
  await page.keyboard.press("Escape");
  await expect(mobile).toBeHidden();
  await expect(menuToggle(page)).toBeFocused();
});

test("the site can be used with the keyboard alone", async ({ page }) => {
  await gotoHydrated(page, "/");
  await page.getByRole("link", { name: "Skip to content" }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/#main$/);
  await page.goto("/courses");
  await page.getByRole("link", { name: "Front-End Web Development" }).first().focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/course\/webdevfrontendcourse$/);
});

test("the account menu opens while its script is still on the way, and becomes the button once it arrives", async ({ page, context, request }) => {
  await giveOwnAddress(context);
  await signUpVerified(page, request, { name: "Late Menu", email: uniqueEmail("late-menu"), password: "correct horse battery staple" });
  let release: (() => void) | undefined;
  await page.route("**/assets/user-menu-*.js", async (route) => {
    await new Promise<void>((resolve) => (release = resolve));
    await route.continue();
  });
  await gotoHydrated(page, "/courses");
  await expect.poll(() => release !== undefined).toBe(true);
  const early = page.locator("summary", { hasText: "Account menu for Late Menu" });
  await early.click();
  await expect(page.getByRole("link", { name: "My courses" })).toBeVisible();
  await early.click();
  await expect(page.getByRole("link", { name: "My courses" })).toBeHidden();
  release?.();
  const button = page.getByRole("button", { name: "Account menu for Late Menu" });
  await expect(button).toHaveAttribute("aria-expanded", "false");
  await button.click();
  await expect(page.getByRole("link", { name: "My courses" })).toBeVisible();
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
