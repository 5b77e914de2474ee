import { expect, test } from "@playwright/test";
import { scanBudget, seriousViolations, seriousViolationsInBothThemes } from "./axe.ts";
import { signUpVerified, uniqueEmail, giveOwnAddress } from "./identity.ts";
import { buyCourse } from "./shop.ts";
import { gotoHydrated, hydrated } from "./hydration.ts";

const password = "correct horse battery staple";
const course = "webdevfrontendcourse";

test.beforeEach(async ({ context }) => {
  await giveOwnAddress(context);
});

test("every player URL of the front-end course renders for an enrolled learner", async ({ page, request }) => {
  test.setTimeout(scanBudget(8));
  await signUpVerified(page, request, { name: "Ritu", email: uniqueEmail("player"), password });
  await buyCourse(page, course);
  await page.getByRole("link", { name: "Start learning" }).click();
  await expect(page).toHaveURL(`/courses/${course}/MainPage`);
  await expect(page.getByRole("heading", { name: "Front-End Web Development", level: 1 })).toBeVisible();
  await expect(page.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "0");

  await page.goto(`/courses/${course}/modules`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("all modules");
  for (let n = 1; n <= 6; n++) {
    const response = await page.goto(`/courses/${course}/module/${n}`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { name: "By the end of this module you will" })).toBeVisible();
  }
  const lesson = await page.goto(`/courses/${course}/submodule/1-1`);
  expect(lesson?.status()).toBe(200);
  await expect(page.getByRole("heading", { name: "How the web works — browsers, servers and URLs", level: 1 })).toBeVisible();
  await expect(page.locator("article .prose h2").first()).toBeVisible();
  expect((await page.goto(`/courses/${course}/module/7`))?.status()).toBe(404);
  expect((await page.goto(`/courses/${course}/submodule/9-9`))?.status()).toBe(404);

  const violations: string[] = [];
  for (const path of ["MainPage", "modules", "module/1", "submodule/1-1"]) {
    await page.goto(`/courses/${course}/${path}`);
    violations.push(...(await seriousViolationsInBothThemes(page, path)));
  }
  expect(violations).toEqual([]);
});

test("the course contents beside a lesson can be scrolled from the keyboard before any script runs", async ({ page, request, browser }) => {
  await signUpVerified(page, request, { name: "Kiran", email: uniqueEmail("contents"), password });
  // Without the app's scripts (as before hydration) the contents drawer stays closed, so its links are
  // not focusable, yet on a wide screen the list is shown and scrolls on its own.
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, storageState: await page.context().storageState() });
  await context.route(/\/assets\/.*\.js$/, (route) => route.abort());
  const noScript = await context.newPage();
  await noScript.goto(`/courses/${course}/submodule/1-1`);
  const contents = noScript.getByRole("navigation", { name: "Course contents" });
  expect(await contents.evaluate((nav) => nav.scrollHeight > nav.clientHeight)).toBe(true);
  expect(await seriousViolations(noScript, "lesson before hydration")).toEqual([]);
  await contents.focus();
  await noScript.keyboard.press("PageDown");
  await expect.poll(() => contents.evaluate((nav) => nav.scrollTop)).toBeGreaterThan(0);
  await context.close();
});

test("the player is a focused page: slim header with progress, the current lesson in view, the contents hidden on request and remembered", async ({ page, request }) => {
  await signUpVerified(page, request, { name: "Farah", email: uniqueEmail("player"), password });
  await buyCourse(page, course);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`/courses/${course}/submodule/5-3`);
  // No marketing navigation or footer; the way back, progress and the account are there.
  await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
  await expect(page.getByRole("contentinfo")).toHaveCount(0);
  const banner = page.getByRole("banner");
  await expect(banner.getByRole("link", { name: "Front-End Web Development" })).toHaveAttribute("href", `/courses/${course}/MainPage`);
  await expect(banner.getByRole("progressbar", { name: "Your progress in this course" })).toHaveAttribute("aria-valuenow", "0");
  await expect(banner.getByRole("button", { name: /^Account menu for/ })).toBeVisible();

  // The contents scrolled themselves to the current lesson, far down the list.
  const contents = page.getByRole("navigation", { name: "Course contents" });
  await expect(contents.getByText("You are on lesson 19 of 24")).toBeVisible();
  const current = contents.locator('a[aria-current="page"]');
  await expect(current).toContainText("5-3");
  await expect(current).toBeInViewport();
  expect(await contents.evaluate((nav) => nav.scrollTop)).toBeGreaterThan(0);

  const toggle = banner.getByRole("button", { name: "Course contents" });
  await expect(toggle).toHaveAttribute("aria-pressed", "true");
  // The contents' links change the lesson within the app: a mark on the window would not survive a page load.
  await page.evaluate(() => ((window as unknown as { kept: boolean }).kept = true));
  await contents.getByRole("link", { name: /^5-4 / }).click();
  await expect(page).toHaveURL(`/courses/${course}/submodule/5-4`);
  await expect(contents.locator('a[aria-current="page"]')).toContainText("5-4");
  await contents.getByRole("link", { name: /^5-3 / }).click();
  await expect(page).toHaveURL(`/courses/${course}/submodule/5-3`);
  await expect(contents.locator('a[aria-current="page"]')).toContainText("5-3");
  expect(await page.evaluate(() => (window as unknown as { kept?: boolean }).kept)).toBe(true);
  await toggle.click();
  await expect(contents).toBeHidden();
  await page.reload();
  await expect(banner.getByRole("button", { name: "Course contents" })).toHaveAttribute("aria-pressed", "false");
  await expect(contents).toBeHidden();
  await banner.getByRole("button", { name: "Course contents" }).click();
  await expect(contents).toBeVisible();
  // Opening the lesson is what the course home offers to continue.
  await banner.getByRole("link", { name: "Front-End Web Development" }).click();
  await expect(page.getByRole("link", { name: /^Continue where you left off: 5-3/ })).toBeVisible();
  await expect(page.getByRole("link", { name: /^First lesson not done yet: 1-1/ })).toBeVisible();
});

test("a lesson is completed only by the learner's own act, an undo sticks, and the refund is not lost unawares", async ({ page, request }) => {
  test.setTimeout(120_000);
  await signUpVerified(page, request, { name: "Vivek", email: uniqueEmail("progress"), password });
  await buyCourse(page, course);
  await page.goto(`/courses/${course}/submodule/1-2`);
  const complete = page.getByRole("status").filter({ hasText: "Lesson complete" });
  const completeAndContinue = page.getByRole("button", { name: "Complete and continue" });
  // Reading to the end, or pressing End, completes nothing.
  await page.keyboard.press("End");
  await page.getByText("Tip: use the ← and → keys").scrollIntoViewIfNeeded();
  await expect(completeAndContinue).toBeVisible();
  await page.reload();
  await expect(completeAndContinue).toBeVisible();
  await expect(complete).toHaveCount(0);

  // "Complete and continue" marks it done and opens the next lesson.
  await completeAndContinue.click();
  await expect(page).toHaveURL(`/courses/${course}/submodule/1-3`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Links, images and media");
  await page.keyboard.press("ArrowLeft");
  await expect(page).toHaveURL(`/courses/${course}/submodule/1-2`);
  await expect(complete).toBeVisible();
  // Un-marking sticks: through a reload and reading to the end again.
  // The page shows the change at once; the reload must wait until the server has it.
  const undone = page.waitForResponse((response) => response.request().method() === "POST" && response.url().includes(`/submodule/1-2`));
  await page.getByRole("button", { name: "Mark as not done" }).click();
  await expect(completeAndContinue).toBeVisible();
  await undone;
  await page.reload();
  // The arrow keys move between lessons once the page's script has taken over.
  await hydrated(page);
  await page.keyboard.press("End");
  await expect(completeAndContinue).toBeVisible();
  await expect(complete).toHaveCount(0);
  await page.keyboard.press("ArrowRight");
  await expect(page).toHaveURL(`/courses/${course}/submodule/1-3`);

  // Six of 24 lessons is the refund policy's 25 %: the sixth asks first.
  await page.goto(`/courses/${course}/submodule/1-1`);
  for (let done = 0; done < 5; done++) {
    const at = page.url();
    await completeAndContinue.click();
    await expect(page).not.toHaveURL(at);
  }
  const sixth = page.url();
  await completeAndContinue.click();
  const dialog = page.getByRole("dialog", { name: "This ends your refund" });
  await expect(dialog).toContainText("Completing this lesson takes you to 25% of the course. Refunds are available until 25% is completed");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await page.goto("/account/orders");
  await expect(page.getByText(/You can ask for a full refund until/)).toBeVisible();
  await page.goto(sixth);
  await completeAndContinue.click();
  await dialog.getByRole("button", { name: "Complete anyway" }).click();
  await expect(page).not.toHaveURL(sixth);

  await page.goto(`/courses/${course}/MainPage`);
  await expect(page.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "25");
  await page.goto("/account/courses");
  await expect(page.getByText("6 of 24 lessons completed")).toBeVisible();
  await page.goto("/account/orders");
  await expect(page.getByText(/Refund not available: You have completed 25% of this course/)).toBeVisible();
});

test("a signed-in visitor sees free previews and is asked to enrol for the rest, on the server", async ({ page, request }) => {
  await signUpVerified(page, request, { name: "Guest", email: uniqueEmail("guest"), password });
  const preview = await page.goto(`/courses/${course}/submodule/1-1`);
  expect(preview?.status()).toBe(200);
  await expect(page.locator("article .prose")).toBeVisible();
  await expect(page.getByText("You are reading a free preview")).toBeVisible();
  const locked = await page.goto(`/courses/${course}/submodule/1-2`);
  expect(locked?.status()).toBe(403);
  await expect(page.getByText("This lesson is part of the full course")).toBeVisible();
  await expect(page.locator("article .prose")).toHaveCount(0);
  expect(await locked?.text()).not.toContain("Try it yourself");
});

test("free previews are open to visitors without an account; a locked lesson says how to unlock it", async ({ page }) => {
  const preview = await page.goto(`/courses/${course}/submodule/1-1`);
  expect(preview?.status()).toBe(200);
  await expect(page).toHaveURL(`/courses/${course}/submodule/1-1`);
  await expect(page.locator("article .prose")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Add a note" })).toHaveCount(0);
  const banner = page.getByRole("status").filter({ hasText: "You are reading a free preview" });
  await expect(banner).toContainText(/Enrol for ₹[\d,]+ \(GST included\) to unlock all 24 lessons/);
  const locked = await page.goto(`/courses/${course}/submodule/1-2`);
  expect(locked?.status()).toBe(403);
  await expect(page.locator("article .prose")).toHaveCount(0);
  await page.getByRole("link", { name: /^Enrol now for ₹/ }).click();
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fcourses%2Fwebdevfrontendcourse%2Fconfirm/);
  // The rest of the player stays for learners.
  await page.goto(`/courses/${course}/MainPage`);
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fcourses%2Fwebdevfrontendcourse%2FMainPage$/);
});

test("a lesson's text reaches the browser once, and stays through hydration and moving between lessons", async ({ page, request }) => {
  await signUpVerified(page, request, { name: "Kavya", email: uniqueEmail("lesson-once"), password });
  await buyCourse(page, course);
  // React reports a hydration that had to start over as an uncaught error or on the console.
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  const document = await gotoHydrated(page, `/courses/${course}/submodule/1-2`);
  const html = (await document?.text()) ?? "";
  // In the page, and not a second time inside the loader data React Router embeds for hydration.
  expect(html.split("HTML describes").length - 1).toBe(1);
  const body = page.locator("#lesson-body");
  await expect(body).toContainText("HTML describes");
  await expect(body.getByRole("heading", { name: /The skeleton every page needs/ })).toBeVisible();

  await page.keyboard.press("ArrowRight");
  await expect(page).toHaveURL(`/courses/${course}/submodule/1-3`);
  await expect(body).not.toContainText("HTML describes");
  await expect(body.locator("h2").first()).toBeVisible();
  await page.keyboard.press("ArrowLeft");
  await expect(page).toHaveURL(`/courses/${course}/submodule/1-2`);
  await expect(body).toContainText("HTML describes");
  expect(errors).toEqual([]);
});

test("the keyboard skips the course contents to the lesson, reaches 'Complete and continue' in a few Tabs, and the lesson ends with one primary button", async ({ page, request }) => {
  test.setTimeout(90_000);
  await signUpVerified(page, request, { name: "Tara", email: uniqueEmail("keyboard"), password });
  await buyCourse(page, course);
  const end = page.locator("#lesson-end");
  const primary = end.locator('[data-variant="primary"]:visible');
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await gotoHydrated(page, `/courses/${course}/submodule/2-1`);
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to lesson" });
    await expect(skip).toBeFocused();
    await expect(skip).toBeVisible();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("article", { name: "Selectors, the cascade and specificity" })).toBeFocused();
    // The lesson's table is wider than a phone: it scrolls in its own box, which the keyboard can reach; the page itself does not scroll sideways.
    if (width === 375) {
      await expect(page.getByRole("region", { name: "Table (scrolls sideways)" })).toHaveAttribute("tabindex", "0");
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    }
    // Real Tab presses from the lesson to its main action: through the lesson's own text (its Copy buttons, a table
    // too wide for a phone), past its own links, but not the 24 lessons of the contents.
    let tabs = 0;
    let inText = 0;
    while (!(await end.getByRole("button", { name: "Complete and continue" }).evaluate((button) => button === document.activeElement))) {
      expect(tabs - inText, `Tabs outside the lesson's text, from the lesson to "Complete and continue" at ${width} px`).toBeLessThan(10);
      expect(tabs, `Tabs in all at ${width} px`).toBeLessThan(30);
      await page.keyboard.press("Tab");
      tabs++;
      if (await page.evaluate(() => document.activeElement?.closest("#lesson-body") !== null)) inText++;
    }
    await expect(primary).toHaveCount(1);
    await expect(primary).toHaveAccessibleName(/Complete and continue/);
    await expect(end.getByRole("link", { name: /^Next: 2-2/ })).toHaveAttribute("data-variant", "secondary");
  }

  // Once the lesson is done, moving on is the one primary action.
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(`/courses/${course}/submodule/2-2`);
  // The address changes a moment before the page shows the next lesson, whose neighbours ← goes by.
  await expect(page.getByRole("article", { name: "Selectors, the cascade and specificity" })).toHaveCount(0);
  await page.keyboard.press("ArrowLeft");
  await expect(page).toHaveURL(`/courses/${course}/submodule/2-1`);
  await expect(end.getByRole("status")).toHaveText("Lesson complete");
  await expect(primary).toHaveCount(1);
  await expect(primary).toHaveAccessibleName(/^Next: 2-2/);
});
