import { expect, test, type Page } from "@playwright/test";
import { seriousViolations } from "./axe.ts";
import { gotoHydrated, hydrated } from "./hydration.ts";
import { giveOwnAddress, signUpVerified, uniqueEmail } from "./identity.ts";
import { buyCourse } from "./shop.ts";

test.use({ serviceWorkers: "allow" });

const course = "webdevfrontendcourse";
const lesson = (id: string) => `/courses/${course}/submodule/${id}`;

/** The addresses of the lessons the service worker keeps for reading offline. */
function keptLessons(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const paths: string[] = [];
    for (const name of (await caches.keys()).filter((n) => n.startsWith("academy-lessons-"))) {
      for (const request of await (await caches.open(name)).keys()) paths.push(new URL(request.url).pathname);
    }
    return paths.toSorted();
  });
}

async function expectOfflinePage(page: Page) {
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("You are offline");
  await expect(page.getByRole("heading", { name: "What has to wait until you are back online" })).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: "Completing a lesson" })).toBeVisible();
}

test("lessons opened while online still read offline, any other page says what has to wait, and signing out forgets them", async ({ page, request, context }) => {
  test.setTimeout(90_000);
  await giveOwnAddress(context);
  await signUpVerified(page, request, { name: "Meera", email: uniqueEmail("offline"), password: "correct horse battery staple" });
  await buyCourse(page, course);

  // The lesson open when the worker first starts is kept, and so is one reached in the browser.
  const opened = await gotoHydrated(page, lesson("1-2"));
  // The server marks what it renders for a signed-in person as theirs alone; the worker keeps only such lessons.
  expect(opened?.headers()["cache-control"]).toBe("private, no-cache");
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await expect.poll(() => keptLessons(page)).toEqual([lesson("1-2")]);
  await page.keyboard.press("ArrowRight");
  await expect(page).toHaveURL(lesson("1-3"));
  await expect.poll(() => keptLessons(page)).toEqual([lesson("1-2"), lesson("1-3")]);
  // Nothing else is kept: not the account's pages, nor the API.
  await page.goto("/account/courses");
  await page.request.get("/api/auth/get-session");
  expect(await keptLessons(page)).toEqual([lesson("1-2"), lesson("1-3")]);

  await page.goto(lesson("1-2"));
  await context.setOffline(true);
  await page.reload();
  await expect(page.locator("#lesson-body")).toContainText("HTML describes");
  await page.goto(lesson("1-3"));
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Links, images and media");

  // A page never opened, and a lesson completed offline, end on the offline page.
  await page.goto("/courses");
  await expectOfflinePage(page);
  expect(await seriousViolations(page, "offline page")).toEqual([]);
  await page.emulateMedia({ colorScheme: "dark" });
  expect(await seriousViolations(page, "offline page (dark)", { colours: true })).toEqual([]);
  await page.goBack();
  await expect(page).toHaveURL(lesson("1-3"));
  // Completing offline is answered by the page's script, which the lesson read from the worker's copy starts again.
  await hydrated(page);
  await page.getByRole("button", { name: "Complete and continue" }).click();
  await expectOfflinePage(page);

  // Back online, signing out forgets every kept lesson.
  await context.setOffline(false);
  await gotoHydrated(page, "/logout");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL("/");
  await expect.poll(() => keptLessons(page)).toEqual([]);
  // A free preview read by a visitor is not kept either.
  const preview = await gotoHydrated(page, lesson("1-1"));
  expect(preview?.headers()["cache-control"]).toBe("no-cache");
  await expect(page.getByText("You are reading a free preview")).toBeVisible();
  await page.goto("/courses");
  expect(await keptLessons(page)).toEqual([]);
  await context.setOffline(true);
  await page.goto(lesson("1-2"));
  await expectOfflinePage(page);
});
