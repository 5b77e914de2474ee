import { expect, test, type Page } from "@playwright/test";
import { signUpVerified, uniqueEmail, giveOwnAddress } from "./identity.ts";
import { buyCourse } from "./shop.ts";

const password = "correct horse battery staple";
const course = "webdevfrontendcourse";

test.beforeEach(async ({ context }) => {
  await giveOwnAddress(context);
});

/** Holds every script of the next page back until `release` is called: the page is its server HTML until then. */
async function holdScripts(page: Page) {
  const held = Promise.withResolvers<void>();
  await page.route(/\.js(\?|$)/, async (route) => {
    await held.promise;
    await route.continue();
  });
  return () => held.resolve();
}

/** React has taken over this element: its fiber is attached to the node. */
const hydrated = (page: Page, selector: string) =>
  page.waitForFunction((s) => Object.keys(document.querySelector(s) ?? {}).some((key) => key.startsWith("__reactFiber")), selector);

test("a star and a comment chosen before the page's script arrives are kept through hydration and posted", async ({ page, request }) => {
  test.setTimeout(120_000);
  await signUpVerified(page, request, { name: "Early Reviewer", email: uniqueEmail("feedback-early"), password });
  await buyCourse(page, course);

  const release = await holdScripts(page);
  await page.goto(`/course/${course}/feedback`, { waitUntil: "commit" });
  const yours = page.locator("#your-review");
  await yours.getByRole("radio", { name: /^4 stars/ }).check({ force: true });
  await yours.getByLabel("Your comment").fill("Chosen before the script arrived.");

  release();
  await hydrated(page, "#your-review form");
  // Typing after hydration renders the form again: the early choice must survive that too.
  await yours.getByLabel("Your comment").press("End");
  await yours.getByLabel("Your comment").pressSequentially(" Then more.");
  await expect(yours.getByRole("radio", { name: /^4 stars/ })).toBeChecked();
  await expect(yours.getByText("4 out of 5 · Very good")).toBeVisible();
  await expect(yours.getByText("44 of 2,000 characters")).toBeVisible();

  await yours.getByRole("button", { name: "Post review" }).click();
  await expect(yours.getByRole("status")).toHaveText("Thank you. Your review is posted.");
  const card = page.locator("article").filter({ hasText: "Chosen before the script arrived. Then more." });
  await expect(card.getByText("4 out of 5 stars")).toBeAttached();
});
