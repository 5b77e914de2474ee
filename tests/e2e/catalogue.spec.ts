import { expect, test, type Page } from "@playwright/test";
import { signUpVerified, uniqueEmail, giveOwnAddress } from "./identity.ts";
import { buyCourse } from "./shop.ts";
import { gotoHydrated } from "./hydration.ts";

const titles = (page: Page) => page.getByRole("main").getByRole("article").getByRole("heading").allTextContents();

test("typing searches in place, the sort and category follow, and the URL keeps the state", async ({ page }) => {
  await gotoHydrated(page, "/courses");
  await page.evaluate(() => Object.assign(window, { sameDocument: true }));
  const historyLength = await page.evaluate(() => history.length);

  await page.getByLabel("Search courses").fill("terraform");
  await expect(page).toHaveURL(/\/courses\?q=terraform&sort=popular$/);
  await expect(page.getByRole("main").getByRole("article")).toHaveCount(1);
  await expect(page.getByRole("main").getByRole("article")).toContainText("Cloud and DevOps Essentials");
  await expect(page.getByText("1 of 6 courses")).toBeVisible();
  await expect(page.getByLabel("Search courses")).toBeFocused();
  await expect(page.getByLabel("Search courses")).toHaveValue("terraform");

  await page.getByLabel("Search courses").fill("");
  await page.getByLabel("Sort by").selectOption({ label: "Price: low to high" });
  await expect(page).toHaveURL(/sort=price-low/);
  await expect.poll(() => titles(page).then((t) => t[0])).toBe("UI/UX Design for Developers");

  await page.getByRole("navigation", { name: "Filter by category" }).getByRole("link", { name: "Web Development" }).click();
  await expect(page).toHaveURL(/sort=price-low&category=Web\+Development|category=Web(%20|\+)Development/);
  // The address changes as the navigation starts; the list once its data has arrived.
  await expect.poll(() => titles(page)).toEqual(["Front-End Web Development", "React from Fundamentals to Production", "Back-End Development with Node.js and PostgreSQL"]);

  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  // Typing and sorting replace the entry: only the category link added one.
  expect(await page.evaluate(() => history.length)).toBe(historyLength + 1);
});

test("a search with no results says so and offers a way back to every course", async ({ page }) => {
  await gotoHydrated(page, "/courses?q=quantum+knitting&sort=newest");
  await expect(page.getByRole("heading", { name: "No courses match “quantum knitting”" })).toBeVisible();
  await page.getByRole("link", { name: "Clear search and filters" }).click();
  await expect(page).toHaveURL(/\/courses$/);
  await expect(page.getByRole("main").getByRole("article")).toHaveCount(6);
  await expect(page.getByLabel("Search courses")).toHaveValue("");
  await expect(page.getByLabel("Sort by")).toHaveValue("popular");
});

test("cards show the instructor, level, length, lessons, price, and New for a course nobody has reviewed", async ({ page }) => {
  await page.goto("/courses");
  const card = page.getByRole("article").filter({ hasText: "React from Fundamentals to Production" });
  await expect(card).toContainText("by Ananya Rao");
  await expect(card).toContainText("Intermediate");
  await expect(card).toContainText("7 h 43 min");
  await expect(card).toContainText("24 lessons");
  await expect(card).toContainText("₹6,999");
  await expect(card).toContainText("New");
  await expect(card.getByRole("img", { name: /React atom/ })).toHaveAttribute("width", "640");
});

test("a learner's purchase and review show on the card, and the rating sort puts reviewed courses first", async ({ page, context, request }) => {
  test.setTimeout(120_000);
  await giveOwnAddress(context);
  await signUpVerified(page, request, { name: "Ravi Shankar", email: uniqueEmail("catalogue"), password: "correct horse battery staple" });
  await buyCourse(page, "cloud-devops-essentials");
  await page.goto("/course/cloud-devops-essentials/feedback");
  const yours = page.locator("#your-review");
  await yours.getByRole("radio", { name: /^5 stars/ }).check({ force: true });
  await yours.getByLabel("Your comment").fill("The Terraform module alone was worth it: clear, practical and honest about costs.");
  await yours.getByRole("button", { name: "Post review" }).click();
  await expect(yours.getByRole("status")).toHaveText("Thank you. Your review is posted.");

  await page.goto("/courses?sort=rating");
  const card = page.getByRole("article").filter({ hasText: "Cloud and DevOps Essentials" });
  await expect(card.getByText("Rated 5.0 out of 5 from 1 review")).toBeAttached();
  await expect(card).toContainText(/[1-9]\d* learners?/);
  await expect(card.getByText("New", { exact: true })).toHaveCount(0);
  const order = await titles(page);
  expect(order.indexOf("Cloud and DevOps Essentials")).toBeLessThan(order.indexOf("React from Fundamentals to Production"));

  // Enrolled, every lesson row on the course page is a link into the course.
  await page.goto("/course/cloud-devops-essentials");
  await expect(page.locator("#syllabus ~ ol").getByRole("link").nth(1)).toHaveAttribute("href", "/courses/cloud-devops-essentials/submodule/1-2");
  await expect(page.getByRole("complementary", { name: "Enrol" }).getByRole("link", { name: "Go to course" })).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the search, sort and category work as a plain form and links", async ({ page }) => {
    await page.goto("/courses");
    await page.getByLabel("Search courses").fill("ananya");
    await page.getByLabel("Sort by").selectOption("price-high");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/\/courses\?q=ananya&sort=price-high$/);
    expect(await titles(page)).toEqual(["React from Fundamentals to Production", "Front-End Web Development"]);
    await expect(page.getByLabel("Search courses")).toHaveValue("ananya");
    await expect(page.getByLabel("Sort by")).toHaveValue("price-high");

    await page.getByRole("navigation", { name: "Filter by category" }).getByRole("link", { name: "Design" }).click();
    await expect(page).toHaveURL(/q=ananya&sort=price-high&category=Design/);
    await expect(page.getByRole("heading", { name: "No courses match “ananya”" })).toBeVisible();
  });
});
