import { expect, test } from "@playwright/test";
import { gotoHydrated } from "./hydration.ts";

const coursePath = "/course/webdevfrontendcourse";

test("the course page states the length, lesson count and format its lessons add up to", async ({ page }) => {
  await page.goto(coursePath);
  const hero = page.locator("section").first();
  await expect(hero).toContainText("7 h 43 min of lessons");
  await expect(hero).toContainText("6 modules · 24 lessons");
  await expect(hero).toContainText("Written lessons");
  await expect(page.getByRole("main")).not.toContainText(/video|24 hours/i);
  const course = JSON.parse((await page.locator('script[type="application/ld+json"]').first().textContent()) ?? "{}") as {
    hasCourseInstance?: { courseWorkload?: string };
  };
  expect(course.hasCourseInstance?.courseWorkload).toBe("PT7H43M");
});

test.describe("on a 375 px phone", () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test("the price and Enrol now are in the first screen, and the bar stays in view without covering the footer", async ({ page }) => {
    await page.goto(coursePath);
    const main = page.getByRole("main");
    await expect(main.getByText("₹4,999").first()).toBeInViewport();
    await expect(main.getByRole("link", { name: "Enrol now" }).first()).toBeInViewport();
    await expect(main.getByRole("link", { name: "Enrol now" }).first()).toHaveAttribute("href", "/courses/webdevfrontendcourse/confirm");

    const bar = page.getByRole("region", { name: "Buy this course" });
    await page.getByRole("heading", { name: "Syllabus" }).scrollIntoViewIfNeeded();
    await expect(bar).toBeInViewport();
    await expect(bar).toContainText("₹4,999");
    await expect(bar.getByRole("link", { name: "Enrol now" })).toBeVisible();
    const box = await bar.boundingBox();
    expect(Math.round((box?.y ?? 0) + (box?.height ?? 0))).toBe(812);

    // At the very end the bar rests above the footer: every footer link can be tapped.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    const links = page.getByRole("contentinfo").getByRole("link");
    for (const link of await links.all()) {
      await link.scrollIntoViewIfNeeded();
      const covered = await link.evaluate((element) => {
        const rect = element.getBoundingClientRect();
        const hit = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
        return !(hit && element.contains(hit));
      });
      expect(covered, (await link.textContent()) ?? "").toBe(false);
    }
  });

  test("the bar hides on a wide screen, where the enrol card is beside the content", async ({ page }) => {
    await page.goto(coursePath);
    await expect(page.getByRole("region", { name: "Buy this course" })).toBeVisible();
    await page.setViewportSize({ width: 1280, height: 900 });
    await expect(page.getByRole("region", { name: "Buy this course" })).toBeHidden();
    await expect(page.getByRole("complementary", { name: "Enrol" }).getByRole("link", { name: "Enrol now" })).toBeInViewport();
  });
});

test("a free preview's whole row links to the lesson, and a locked row is marked, its module saying what unlocks it", async ({ page }) => {
  await page.goto(coursePath);
  const syllabus = page.locator("#syllabus ~ ol");
  const preview = syllabus.getByRole("link", { name: /How the web works.*Free preview.*12 min/ });
  await expect(preview).toHaveAttribute("href", "/courses/webdevfrontendcourse/submodule/1-1");
  const box = await preview.boundingBox();
  const list = await preview.locator("xpath=ancestor::ul[1]").boundingBox();
  expect(box?.width).toBeGreaterThan((list?.width ?? 0) * 0.9);

  const module = syllabus.locator("details").filter({ has: page.getByText("Document structure and semantic elements") });
  const row = module.getByRole("listitem").filter({ hasText: "Document structure and semantic elements" });
  await expect(row).toHaveText(/^1-2Document structure and semantic elements \(locked\)18 min$/);
  // The lock is drawn, the size of the text, though the page carries no picture of it.
  const lock = row.locator(".syllabus-lock");
  expect(await lock.evaluate((icon) => [icon.getBoundingClientRect().width, getComputedStyle(icon).maskImage.startsWith("url(")])).toEqual([16, true]);
  await expect(row.getByRole("link")).toHaveCount(0);

  await expect(module.getByText("Locked lessons open when you enrol: ₹4,999, one payment for every lesson.")).toBeVisible();
  // The way to enrol is the page's own, beside the syllabus: one Enrol now, not one a module.
  await expect(page.getByRole("link", { name: "Enrol now" })).toHaveCount(1);
});

test("a syllabus link opens its lesson within the app, as every other link does, and a Ctrl-click is the browser's", async ({ page, context }) => {
  await gotoHydrated(page, coursePath);
  await page.evaluate(() => Object.assign(window, { stayedInTheApp: true }));
  const preview = page.locator("#syllabus ~ ol").getByRole("link", { name: /How the web works/ });
  await preview.click({ modifiers: ["ControlOrMeta"] });
  await expect.poll(() => context.pages().length).toBe(2);
  await expect(page).toHaveURL(coursePath);
  await preview.click();
  await expect(page).toHaveURL("/courses/webdevfrontendcourse/submodule/1-1");
  await expect(page.getByRole("heading", { level: 1, name: /How the web works/ })).toBeVisible();
  expect(await page.evaluate(() => (window as { stayedInTheApp?: boolean }).stayedInTheApp)).toBe(true);
  await page.goBack();
  await expect(page.getByRole("heading", { level: 1, name: "Front-End Web Development" })).toBeVisible();
  await expect(page.locator("#syllabus ~ ol > li")).toHaveCount(6);
});

test("the cover and the instructor's portrait load from long-cached, sandboxed SVGs with their size reserved", async ({ page, request }) => {
  await page.goto(coursePath);
  const cover = page.getByRole("img", { name: /browser window with a page layout/ });
  const portrait = page.getByRole("img", { name: /Illustrated portrait of Ananya Rao/ });
  for (const image of [cover, portrait]) {
    await image.scrollIntoViewIfNeeded();
    await expect(image).toHaveAttribute("width", /^\d+$/);
    await expect(image).toHaveAttribute("height", /^\d+$/);
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  }
  const src = (await cover.getAttribute("src")) ?? "";
  expect(src).toMatch(/^\/media\/course-webdevfrontendcourse\.[\w-]{12}\.svg$/);
  const response = await request.get(src);
  expect(response.headers()["content-type"]).toBe("image/svg+xml");
  expect(response.headers()["cache-control"]).toContain("immutable");
  expect(response.headers()["content-security-policy"]).toContain("sandbox");
});
