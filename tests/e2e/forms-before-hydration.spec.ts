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

test("a theme picked in settings before the page's script arrives is kept through hydration and applied", async ({ page, request }) => {
  await signUpVerified(page, request, { name: "Early Theme", email: uniqueEmail("theme-early"), password });
  const release = await holdScripts(page);
  await page.goto("/settings", { waitUntil: "commit" });
  await page.getByRole("radio", { name: "Dark" }).check();
  release();
  await hydrated(page, "#theme-dark");
  await expect(page.getByRole("radio", { name: "Dark" })).toBeChecked();
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await page.reload();
  await expect(page.getByRole("radio", { name: "Dark" })).toBeChecked();
});

test("a note's title and text typed before the page's script arrives are kept through hydration and saved", async ({ page, request }) => {
  await signUpVerified(page, request, { name: "Early Notes", email: uniqueEmail("notes-early"), password });
  await page.goto("/notes");
  await page.getByRole("button", { name: "New note" }).click();
  await expect(page).toHaveURL(/\/notes\?note=[0-9a-f-]{36}$/);
  const noteUrl = page.url();

  const release = await holdScripts(page);
  await page.goto(noteUrl, { waitUntil: "commit" });
  await page.getByRole("textbox", { name: "Title", exact: true }).fill("Written early");
  await page.getByLabel("Note (Markdown)").fill("Before the script arrived.");
  release();
  await hydrated(page, "textarea[name=body]");
  await page.getByLabel("Note (Markdown)").press("End");
  await page.getByLabel("Note (Markdown)").pressSequentially(" And after.");
  await expect(page.getByRole("textbox", { name: "Title", exact: true })).toHaveValue("Written early");
  await expect(page.getByRole("status").filter({ hasText: /^Saved/ })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("textbox", { name: "Title", exact: true })).toHaveValue("Written early");
  await expect(page.getByLabel("Note (Markdown)")).toHaveValue("Before the script arrived. And after.");
});

test("a hosting plan chosen before the page's script arrives is kept through hydration, and the plan bar shows it", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  const release = await holdScripts(page);
  await page.goto("/service/website-hosting", { waitUntil: "commit" });
  await page.getByRole("radio", { name: /^Business/ }).check();
  release();
  await hydrated(page, "#hosting-plan");
  await expect(page.getByRole("radio", { name: /^Business/ })).toBeChecked();
  await expect(page.getByRole("radio", { name: /^Starter/ })).not.toBeChecked();
  await expect(page.getByRole("region", { name: "Your plan" })).toContainText("₹3,999 per monthBusiness");
});
test("a new password typed before the page's script arrives is measured once it does", async ({ page }) => {
  const release = await holdScripts(page);
  await page.goto("/login?mode=signup", { waitUntil: "commit" });
  await page.getByLabel("Password", { exact: true }).fill("password");
  release();
  await hydrated(page, "input[name=password]");
  await expect(page.getByText(/^Too weak: /)).toBeVisible();
});
