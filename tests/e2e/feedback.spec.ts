import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { seriousViolationsInBothThemes } from "./axe.ts";
import { signIn, signUpVerified, uniqueEmail, giveOwnAddress } from "./identity.ts";
import { buyCourse } from "./shop.ts";

const password = "correct horse battery staple";
const course = "webdevfrontendcourse";
const feedbackPath = `/course/${course}/feedback`;

test.beforeEach(async ({ context }) => {
  await giveOwnAddress(context);
});

test("a learner who bought the course reviews it, edits the review and deletes it", async ({ page, request }) => {
  test.setTimeout(120_000);
  // A first name of its own, so this learner's review can be told apart from any other.
  const first = `Rev${randomBytes(3).toString("hex")}`;
  await signUpVerified(page, request, { name: `${first} Kumar`, email: uniqueEmail("feedback"), password });
  await buyCourse(page, course);

  await page.goto(`/courses/${course}/MainPage`);
  await expect(page.getByRole("heading", { name: "Front-End Web Development", level: 1 })).toBeVisible();
  await page.goto(`/courses/${course}/submodule/1-2`);
  await page.getByRole("button", { name: "Complete and continue" }).click();
  await expect(page).toHaveURL(`/courses/${course}/submodule/1-3`);
  await page.goto("/account/courses");
  await expect(page.getByText("1 of 24 lessons completed")).toBeVisible();

  await page.goto(feedbackPath);
  const yours = page.locator("#your-review");
  await expect(yours.getByRole("heading", { name: "Your review" })).toBeVisible();
  const comment = yours.getByLabel("Your comment");

  // Bad input is refused with a specific message, and nothing is posted.
  // The radios are drawn as stars; a click on a star checks its radio.
  await yours.getByRole("radio", { name: /^4 stars/ }).check({ force: true });
  await comment.fill("   ");
  await yours.getByRole("button", { name: "Post review" }).click();
  await expect(yours.getByText("Write a few words about the course: the comment cannot be empty.")).toBeVisible();
  await comment.fill("x".repeat(2001));
  await expect(yours.getByText("2,001 of 2,000 characters · 1 too many")).toBeVisible();
  await yours.getByRole("button", { name: "Post review" }).click();
  await expect(yours.getByText("Keep your comment to 2,000 characters or fewer; it has 2,001.")).toBeVisible();
  await expect(page.locator("article").filter({ hasText: first })).toHaveCount(0);

  const text = `Loved the layout module. <b>x</b> stays as typed.\nSecond line ${first}.`;
  await comment.fill(text);
  await expect(yours.getByText(`${text.length} of 2,000 characters`)).toBeVisible();
  await yours.getByRole("button", { name: "Post review" }).click();
  await expect(yours.getByRole("status")).toHaveText("Thank you. Your review is posted.");
  const card = page.locator("article").filter({ hasText: `${first} K.` });
  await expect(card).toHaveCount(1);
  await expect(card.getByText("Verified learner")).toBeVisible();
  await expect(card.getByText("4 out of 5 stars")).toBeAttached();
  await expect(card.locator("p").filter({ hasText: "Loved the layout module." })).toHaveText(text);
  await expect(card.locator("b")).toHaveCount(0);

  await test.step("the feedback page has no serious axe violations in either theme", async () => {
    await page.goto(feedbackPath);
    expect(await seriousViolationsInBothThemes(page, "feedback")).toEqual([]);
  });

  await page.goto(`/course/${course}`);
  await expect(page.getByRole("link", { name: /^Rated \d\.\d out of 5 from \d+ reviews?$/ })).toBeVisible();
  await expect(page.locator("#course-reviews")).toHaveText("What learners say");
  await expect(page.locator("article").filter({ hasText: `${first} K.` }).getByText("<b>x</b>", { exact: false })).toBeVisible();
  await page.getByRole("link", { name: /^(See all \d+ reviews|Go to the feedback page)$/ }).click();
  await expect(page).toHaveURL(feedbackPath);

  // Editing changes the one review; it is never a second one.
  await yours.getByRole("radio", { name: /^5 stars/ }).check({ force: true });
  await expect(comment).toHaveValue(text);
  await comment.fill(`Even better the second time, ${first}.`);
  await yours.getByRole("button", { name: "Update review" }).click();
  await expect(yours.getByRole("status")).toHaveText("Your review was updated.");
  await expect(card).toHaveCount(1);
  await expect(card).toContainText(`Even better the second time, ${first}.`);
  await expect(card).toContainText("edited");
  await expect(card.getByText("5 out of 5 stars")).toBeAttached();

  // Deleting asks first; Cancel keeps the review.
  await yours.getByRole("button", { name: "Delete review" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete your review?" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(card).toHaveCount(1);
  await yours.getByRole("button", { name: "Delete review" }).click();
  await dialog.getByRole("button", { name: "Yes, delete it" }).click();
  await expect(yours.getByRole("status")).toHaveText("Your review was deleted.");
  await expect(card).toHaveCount(0);
  await expect(comment).toHaveValue("");
  await expect(yours.getByRole("button", { name: "Post review" })).toBeVisible();
});

test("an empty review or note is answered in the page's own words, and a review needs a few words, on a phone", async ({ page, request }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 375, height: 740 });
  await signUpVerified(page, request, { name: "Terse Learner", email: uniqueEmail("terse"), password });
  await buyCourse(page, course);

  await page.goto(feedbackPath);
  const yours = page.locator("#your-review");
  await yours.getByRole("button", { name: "Post review" }).click();
  // No browser bubble stops the form: the server's messages show beside each field.
  await expect(yours.getByText("Choose a rating: a whole number of stars from 1 to 5.")).toBeVisible();
  await expect(yours.getByText("Write a few words about the course: the comment cannot be empty.")).toBeVisible();
  await expect(yours.getByLabel("Your comment")).toHaveAttribute("aria-invalid", "true");

  await yours.getByRole("radio", { name: /^5 stars/ }).check({ force: true });
  await yours.getByLabel("Your comment").fill("ok");
  await yours.getByRole("button", { name: "Post review" }).click();
  await expect(yours.getByText(/^Tell other learners a little more: a review needs at least 3 words\./)).toBeVisible();
  await expect(page.locator("article").filter({ hasText: "Terse L." })).toHaveCount(0);

  await page.goto(`/courses/${course}/submodule/1-2`);
  const panel = page.getByRole("region", { name: "Your notes on this lesson" });
  await panel.getByRole("button", { name: "Add note" }).click();
  await expect(panel.getByRole("alert")).toHaveText("Write your note first: it is empty.");
  await expect(panel.getByText("No notes yet.")).toBeVisible();
});

test("only enrolled learners may review: visitors are asked to sign in and the server refuses the rest", async ({ page, request, browser }) => {
  const email = uniqueEmail("feedback-visitor");
  await signUpVerified(page, request, { name: "Nina Visitor", email, password });
  const refused = await page.request.post(feedbackPath, {
    form: { intent: "save", rating: "5", comment: "I never took this course." },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(refused.status()).toBe(403);
  expect(await refused.text()).toContain("Only learners enrolled in this course can review it.");

  const anonymous = await browser.newContext();
  await giveOwnAddress(anonymous);
  const visitor = await anonymous.newPage();
  const signedOut = await visitor.request.post(feedbackPath, {
    form: { intent: "save", rating: "5", comment: "Nobody signed in." },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(signedOut.status()).toBe(403);
  await visitor.goto(feedbackPath);
  await visitor.locator("#your-review").getByRole("link", { name: "Sign in to leave feedback" }).click();
  await expect(visitor).toHaveURL(/\/login\?redirectTo=%2Fcourse%2Fwebdevfrontendcourse%2Ffeedback%23your-review$/);
  await signIn(visitor, email, password);
  await expect(visitor).toHaveURL(new RegExp(`${feedbackPath}#your-review$`));
  await expect(visitor.locator("#your-review")).toContainText("Only learners enrolled in this course can review it");
  await expect(visitor.locator("#your-review").getByRole("textbox")).toHaveCount(0);
  await anonymous.close();

  // Query values that mean nothing are ignored; a page past the end says so and links back.
  expect((await page.goto(`${feedbackPath}?rating=9&page=abc`))?.status()).toBe(200);
  await page.goto(`${feedbackPath}?page=500`);
  await expect(page.getByText(/^There is no page 500 of these reviews\.|^No feedback yet$/)).toBeVisible();
});
