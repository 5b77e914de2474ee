import { readdirSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { formatDay } from "../../app/lib/format.ts";
import { seriousViolations } from "./axe.ts";
import { signUpVerified, uniqueEmail, useOwnAddress } from "./identity.ts";
import { buyCourse } from "./shop.ts";

// The course with the fewest lessons keeps completing it quick.
const courseId = "ui-ux-design";
const courseTitle = "UI/UX Design for Developers";
const lessons = readdirSync(path.join(import.meta.dirname, "../../content/courses", courseId, "lessons"))
  .map((file) => file.replace(/\.md$/, ""))
  .toSorted((a, b) => a.localeCompare(b, "en", { numeric: true }));
const home = `/courses/${courseId}/MainPage`;
const password = "correct horse battery staple";

test.beforeEach(async ({ context }) => {
  await useOwnAddress(context);
});

test("a learner who completes every lesson gets a certificate that anyone can verify", async ({ page, request, browser }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail("certificate");
  await signUpVerified(page, request, { name: "Meera Raghunathan", email, password });
  await buyCourse(page, courseId);
  const origin = new URL(page.url()).origin;
  // The lesson page's own action, as its "Mark complete" button posts it.
  for (const lessonId of lessons.slice(0, -1)) {
    const done = await page.request.post(`/courses/${courseId}/submodule/${lessonId}`, { form: { intent: "complete" }, headers: { origin } });
    expect(done.ok()).toBe(true);
  }

  await page.goto(home);
  await expect(page.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "94");
  await expect(page.getByRole("heading", { name: "Course complete" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /certificate/i })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Rate this course" })).toHaveAttribute("href", `/course/${courseId}/feedback#your-review`);
  const refused = await page.request.post(`/courses/${courseId}/certificate`, { headers: { origin } });
  expect(refused.status()).toBe(403);
  expect(await refused.text()).toContain(`you have completed ${lessons.length - 1} of ${lessons.length} lessons`);
  await page.goto(`/courses/${courseId}/certificate`);
  await expect(page).toHaveURL(home);

  const last = lessons.at(-1) as string;
  // The last lesson is a text lesson: reading to its end completes it, as in the player.
  await page.goto(`/courses/${courseId}/submodule/${last}`);
  await page.getByText("Tip: use the ← and → keys").scrollIntoViewIfNeeded();
  await expect(page.getByRole("status").filter({ hasText: "Lesson complete" })).toBeVisible();

  await page.goto(home);
  const complete = page.getByRole("region", { name: "Course complete" });
  await expect(complete).toContainText(`You completed the last lesson on ${formatDay(new Date())}`);
  await complete.getByRole("button", { name: "Get your certificate" }).click();
  await expect(page).toHaveURL(/\/certificates\/AC-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
  const certificateUrl = page.url();
  const certificateId = certificateUrl.split("/").at(-1) as string;
  await expect(page).toHaveTitle(`Certificate: Meera Raghunathan · ${courseTitle} | Academy`);
  await expect(page.getByRole("heading", { name: "Certificate of completion", level: 1 })).toBeVisible();
  await expect(page.getByRole("article", { name: "Certificate of completion" }).getByText("Meera Raghunathan", { exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to the course" })).toBeVisible();

  // Issuing again, or asking for it, finds the same certificate.
  const again = await page.request.post(`/courses/${courseId}/certificate`, { headers: { origin }, maxRedirects: 0 });
  expect(again.status()).toBe(302);
  expect(again.headers().location).toBe(`/certificates/${certificateId}`);
  await page.goto(`/courses/${courseId}/certificate`);
  await expect(page).toHaveURL(certificateUrl);
  await page.goto(home);
  await expect(page.getByRole("link", { name: "View certificate" })).toHaveAttribute("href", `/certificates/${certificateId}`);
  expect(await seriousViolations(page, "completed course home")).toEqual([]);
  await page.goto("/account/courses");
  const card = page.getByRole("article", { name: courseTitle });
  await expect(card.getByText("Completed", { exact: true })).toBeVisible();
  await expect(card.getByRole("link", { name: `Certificate for ${courseTitle}` })).toHaveAttribute("href", `/certificates/${certificateId}`);

  const visitor = await browser.newContext();
  const stranger = await visitor.newPage();
  const response = await stranger.goto(`/certificates/${certificateId.toLowerCase()}`);
  expect(response?.status()).toBe(200);
  const sheet = stranger.getByRole("article", { name: "Certificate of completion" });
  await expect(sheet.getByText("Meera Raghunathan", { exact: true })).toBeVisible();
  await expect(sheet.getByText(courseTitle, { exact: true })).toBeVisible();
  await expect(sheet.getByText(formatDay(new Date()), { exact: true })).toBeVisible();
  await expect(sheet.getByText(certificateId, { exact: true })).toBeVisible();
  await expect(sheet).toContainText(`Anyone can verify it at ${origin}/certificates/${certificateId}`);
  await expect(stranger.getByRole("button", { name: "Print or save as PDF" })).toBeVisible();
  await expect(stranger.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
  await expect(stranger.getByRole("link", { name: "Back to the course" })).toHaveCount(0);
  expect(await stranger.content()).not.toContain(email);
  for (const scheme of ["light", "dark"] as const) {
    await stranger.emulateMedia({ colorScheme: scheme });
    await stranger.goto(`/certificates/${certificateId}`);
    expect(await seriousViolations(stranger, `certificate (${scheme})`)).toEqual([]);
  }
  await visitor.close();
});

test("an unknown or malformed certificate ID is not found, with a way forward", async ({ page }) => {
  for (const id of ["AC-0000-0000-0000-0000", "not-a-certificate"]) {
    const response = await page.goto(`/certificates/${id}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "We couldn't find that certificate" })).toBeVisible();
    await expect(page.getByText(`No certificate has the ID ${id}.`)).toBeVisible();
  }
});
