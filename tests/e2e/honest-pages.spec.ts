import { type APIRequestContext, expect, type Locator, type Page, test } from "@playwright/test";
import { scanBudget, seriousViolationsInBothThemes } from "./axe.ts";
import { gotoHydrated } from "./hydration.ts";
import { giveOwnAddress, signUpVerified, uniqueEmail } from "./identity.ts";
import { buyCourse } from "./shop.ts";
import { contrastRatio, type Rgb } from "../support/contrast.ts";

test.beforeEach(async ({ context }) => {
  await giveOwnAddress(context);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
});

/** A new account, verified and signed in, on a window `width` px wide. */
async function signedInAt(page: Page, request: APIRequestContext, width: number, name: string): Promise<void> {
  await page.setViewportSize({ width, height: 800 });
  await signUpVerified(page, request, { name, email: uniqueEmail(name.toLowerCase().replace(/\W+/g, "-")), password: "correct horse battery staple" });
}

/** The value the home page's hero shows beside `label`, or null when it shows no such figure. */
async function heroFigure(page: Page, label: RegExp): Promise<string | null> {
  const figure = page.locator("dl > div").filter({ has: page.getByRole("term").filter({ hasText: label }) });
  return (await figure.count()) === 0 ? null : figure.getByRole("definition").textContent();
}

/** Whether the page is wider than its window, so a phone would scroll sideways. */
const scrollsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

for (const width of [1280, 375]) {
  test(`at ${width} px the home page claims only figures it can count, with free lessons to try in the hero`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/courses");
    const lessonCounts = await page.getByRole("article").getByText(/^\d+ lessons$/).allTextContents();
    expect(lessonCounts).toHaveLength(6);

    await gotoHydrated(page, "/");
    const main = page.getByRole("main");
    await expect(main).not.toContainText(/12,000|140\+|9 years|learners trained|websites launched/);
    expect(await heroFigure(page, /^lessons$/)).toBe(String(lessonCounts.reduce((sum, text) => sum + Number.parseInt(text), 0)));
    expect(await heroFigure(page, /^instructors$/)).toBe("5");

    const heading = page.getByRole("heading", { level: 1 });
    const previews = page.getByRole("region", { name: "Try a lesson before you buy" });
    await expect(previews.getByRole("link")).toHaveCount(4);
    const [headingBox, previewBox] = [await heading.boundingBox(), await previews.boundingBox()];
    if (!headingBox || !previewBox) throw new Error("the hero's heading and lessons are on the page");
    if (width === 1280) {
      // The right half of the hero, level with the heading.
      expect(previewBox.x).toBeGreaterThan(640);
      expect(previewBox.y).toBeLessThan(headingBox.y + headingBox.height);
    } else {
      // Under the heading and the figures, the phone's width less its margins.
      expect(previewBox.y).toBeGreaterThan(headingBox.y + headingBox.height);
      expect(previewBox.width).toBeGreaterThan(width - 40);
      expect(await scrollsSideways(page)).toBe(false);
    }

    await previews.getByRole("link", { name: /How the web works/ }).click();
    await expect(page).toHaveURL(/\/courses\/webdevfrontendcourse\/submodule\/1-1$/);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("How the web works");
  });
}

test("the home page counts each enrolled learner once, from the database", async ({ page, request }) => {
  await signedInAt(page, request, 1280, "Counted Chitra");
  await buyCourse(page, "ui-ux-design");
  await page.goto("/");
  expect(Number((await heroFigure(page, /^learners? enrolled$/))?.replace(/,/g, ""))).toBeGreaterThanOrEqual(1);
});

test("the home page has no serious axe violations in either theme, at 375 px", async ({ page }) => {
  test.setTimeout(scanBudget(2));
  await page.setViewportSize({ width: 375, height: 900 });
  await gotoHydrated(page, "/");
  expect(await seriousViolationsInBothThemes(page, "/ at 375 px")).toEqual([]);
});

test("at 375 px a lesson's contents read a heading's code as written: “<a>”, not “&lt;a&gt;”", async ({ page, request }) => {
  await signedInAt(page, request, 375, "Reading Ravi");
  await buyCourse(page, "webdevfrontendcourse");
  await gotoHydrated(page, "/courses/webdevfrontendcourse/submodule/1-3");
  const contents = page.getByRole("navigation", { name: "On this page" });
  await expect(contents.getByRole("link", { name: "Links with the <a> element", exact: true })).toBeVisible();
  await expect(contents).not.toContainText("&lt;");
});

test("a lesson's highlighted code, comments included, passes axe's contrast check in the dark theme as in the light", async ({ page, request }) => {
  test.setTimeout(scanBudget(2));
  await signedInAt(page, request, 1280, "Dark Devika");
  await buyCourse(page, "webdevfrontendcourse");
  await gotoHydrated(page, "/courses/webdevfrontendcourse/submodule/1-3");
  await expect(page.locator("#lesson-body pre .line").filter({ hasText: "<!-- Vague -->" })).toBeVisible();
  expect(await seriousViolationsInBothThemes(page, "lesson 1-3")).toEqual([]);
});

test("at 375 px each code block of a lesson gets a Copy button once scripts run, which copies the block's code", async ({ page, request }) => {
  test.setTimeout(scanBudget(1));
  await signedInAt(page, request, 375, "Copying Kavya");
  await buyCourse(page, "webdevfrontendcourse");
  const lesson = "/courses/webdevfrontendcourse/submodule/1-3";
  // The page as the server sends it has the code and no buttons: they need JavaScript to work.
  const served = await (await page.request.get(lesson)).text();
  expect(served).toContain('<div class="code-block"><div class="code-bar">HTML</div><pre class="shiki');
  expect(served).not.toContain("Copy code example");

  await gotoHydrated(page, lesson);
  const body = page.locator("#lesson-body");
  const blocks = body.locator(".code-block");
  await expect(blocks.getByRole("button", { name: /^Copy code example \d+$/ })).toHaveCount(await blocks.locator("pre").count());
  const first = blocks.first();
  await first.getByRole("button", { name: "Copy code example 1" }).click();
  await expect(first.getByRole("status")).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await first.locator("pre").textContent());
  expect(await scrollsSideways(page)).toBe(false);
  expect(await seriousViolationsInBothThemes(page, "lesson 1-3 at 375 px with Copy buttons")).toEqual([]);

  // The next lesson, opened in the page: its own blocks, each with one button.
  await page.getByRole("link", { name: /^Next: / }).click();
  await expect(page).toHaveURL(/\/submodule\/1-4$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Forms, input types");
  await expect(blocks.getByRole("button", { name: /^Copy code example \d+$/ })).toHaveCount(await blocks.locator("pre").count());
  await expect(body.locator(".code-copy")).toHaveCount(await blocks.count());
});

test("at 375 px a new API key's secret has a Copy button that copies it", async ({ page, request }) => {
  test.setTimeout(scanBudget(1));
  await signedInAt(page, request, 375, "Scripting Sameer");
  await gotoHydrated(page, "/api-tools");
  await page.getByLabel("Name").fill("Backup script");
  await page.getByRole("button", { name: "Make a key" }).click();
  const secret = await page.getByLabel("Your new key (shown once)").inputValue();
  expect(secret).toMatch(/^acd_/);
  await page.getByRole("button", { name: "Copy your new key" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  expect(await scrollsSideways(page)).toBe(false);
  expect(await seriousViolationsInBothThemes(page, "/api-tools with a new key at 375 px")).toEqual([]);
});

test("at 375 px the help centre answers what a learner of written lessons asks, and nothing about videos the lessons do not have", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await gotoHydrated(page, "/help");
  await expect(page.getByRole("main")).not.toContainText(/video/i);
  const topics = await page.getByRole("main").getByRole("heading", { level: 2 }).getByRole("link").evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""));
  expect(topics.length).toBeGreaterThan(3);
  for (const topic of topics) {
    await page.goto(topic);
    await expect(page.getByRole("main"), topic).not.toContainText(/video/i);
    expect(await scrollsSideways(page), topic).toBe(false);
  }
  await gotoHydrated(page, "/help");
  await page.getByRole("link", { name: "Can I download the lessons or read them offline?" }).click();
  const answer = page.getByRole("region", { name: "Can I download the lessons or read them offline?" });
  await expect(answer).toContainText("Courses don't come with files to download.");
  await expect(answer).toContainText("each one has a Copy button");
  expect(await scrollsSideways(page)).toBe(false);
});

for (const { path, profile } of [
  { path: "/course/webdevfrontendcourse", profile: (page: Page) => page.getByRole("region", { name: "Your instructor" }) },
  { path: "/team", profile: (page: Page) => page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Ananya Rao" }) }) },
]) {
  test(`at 375 px ${path} puts an instructor's bio under the portrait at the full width of its box`, async ({ page }) => {
    test.setTimeout(scanBudget(2));
    await page.setViewportSize({ width: 375, height: 800 });
    await gotoHydrated(page, path);
    const box = profile(page);
    const [portrait, bio] = [await box.getByRole("img").first().boundingBox(), await box.locator(".prose").boundingBox()];
    if (!portrait || !bio) throw new Error("the profile has a portrait and a bio");
    expect(bio.y).toBeGreaterThanOrEqual(portrait.y + portrait.height);
    expect(bio.x).toBeLessThanOrEqual(portrait.x);
    // 375 px less the page's and the box's margins: the bio was 205 px beside the portrait.
    expect(bio.width).toBeGreaterThan(280);
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousViolationsInBothThemes(page, `${path} at 375 px`)).toEqual([]);
  });
}

/** WCAG 2's contrast of a radio button's or checkbox's border against the first opaque background behind it, as drawn now. */
async function borderContrast(control: Locator): Promise<number> {
  const [border, behind] = await control.evaluate((input) => {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 1;
    const paint = canvas.getContext("2d", { willReadFrequently: true }) as CanvasRenderingContext2D;
    // The browser turns any CSS colour (oklch too) into sRGB bytes.
    const bytes = (colour: string) => {
      paint.clearRect(0, 0, 1, 1);
      paint.fillStyle = colour;
      paint.fillRect(0, 0, 1, 1);
      return [...paint.getImageData(0, 0, 1, 1).data];
    };
    let background = [255, 255, 255, 255];
    for (let element = input.parentElement; element; element = element.parentElement) {
      const colour = bytes(getComputedStyle(element).backgroundColor);
      if (colour[3] === 255) {
        background = colour;
        break;
      }
    }
    return [bytes(getComputedStyle(input).borderTopColor), background];
  });
  return contrastRatio(border.slice(0, 3) as Rgb, behind.slice(0, 3) as Rgb);
}

for (const scheme of ["dark", "light"] as const) {
  test(`at 375 px in the ${scheme} theme an unchosen radio button or checkbox has a border of at least 3:1, not a disabled look`, async ({ page, request }) => {
    test.setTimeout(scanBudget(2));
    await signedInAt(page, request, 375, `Choosing Chandra ${scheme}`);
    await page.emulateMedia({ colorScheme: scheme });
    await gotoHydrated(page, "/settings");
    const light = page.getByRole("radio", { name: "Light" });
    await expect(light).not.toBeChecked();
    await expect(light).toBeEnabled();
    expect(await borderContrast(light)).toBeGreaterThanOrEqual(3);
    expect(await borderContrast(page.getByRole("radio", { name: "Dark" }))).toBeGreaterThanOrEqual(3);
    expect(await seriousViolationsInBothThemes(page, `/settings at 375 px`)).toEqual([]);

    await gotoHydrated(page, "/api-tools");
    const write = page.getByRole("checkbox", { name: /write/i });
    await expect(write).not.toBeChecked();
    expect(await borderContrast(write)).toBeGreaterThanOrEqual(3);
    // Ticked, it is filled with the brand's colour and still reads as a control.
    await write.check();
    await expect(write).toBeChecked();
    expect(await borderContrast(write)).toBeGreaterThanOrEqual(3);
  });
}
