import { readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { formatDay } from "../../common/format.ts";
import { webhookPath } from "../../server/payments/index.ts";
import { testPayPath } from "../support/razorpay-api.ts";
import { gotoHydrated } from "./hydration.ts";
import { scanBudget, seriousViolations, seriousViolationsInBothThemes } from "./axe.ts";
import { signUpVerified, uniqueEmail, giveOwnAddress } from "./identity.ts";
import { razorpayApiUrl, razorpayAppUrl, razorpayKeys } from "./servers.ts";
import { buyCourse, razorpayWebhook } from "./shop.ts";

// The course with the fewest lessons keeps completing it quick.
const courseId = "ui-ux-design";
const courseTitle = "UI/UX Design for Developers";
const lessons = readdirSync(path.join(import.meta.dirname, "../../content/courses", courseId, "lessons"))
  .map((file) => file.replace(/\.md$/, ""))
  .toSorted((a, b) => a.localeCompare(b, "en", { numeric: true }));
const home = `/courses/${courseId}/MainPage`;

/** Completes lessons through the lesson page's own action, as its "Complete and continue" posts it (the refund's end accepted). */
async function completeLessons(page: Page, ids: string[]) {
  const origin = new URL(page.url()).origin;
  for (const lessonId of ids) {
    const done = await page.request.post(`/courses/${courseId}/submodule/${lessonId}`, { form: { intent: "complete", acceptRefundLimit: "yes" }, headers: { origin } });
    expect(done.ok()).toBe(true);
  }
}
const password = "correct horse battery staple";

/** The days, as pages write them (India's time), of `since` and of now: an event between them fell on one, even when midnight came between. */
const daysSince = (since: Date) => `(${[...new Set([formatDay(since), formatDay(new Date())])].join("|")})`;

test.beforeEach(async ({ context }) => {
  await giveOwnAddress(context);
});

test("a learner who completes every lesson gets a certificate that anyone can verify", async ({ page, request, browser }) => {
  test.setTimeout(scanBudget(7, 120_000));
  const started = new Date();
  const email = uniqueEmail("certificate");
  await signUpVerified(page, request, { name: "Meera Raghunathan", email, password });
  await buyCourse(page, courseId);
  const origin = new URL(page.url()).origin;
  await completeLessons(page, lessons.slice(0, -1));

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
  // The finish line before the last lesson names what is left.
  await page.goto(`/courses/${courseId}/complete`);
  await expect(page.getByRole("heading", { name: "Almost there", level: 1 })).toBeVisible();
  await expect(page.getByText(`You have completed ${lessons.length - 1} of ${lessons.length} lessons`)).toBeVisible();

  // The last lesson ends with "Finish course": the certificate is issued with it.
  const last = lessons.at(-1) as string;
  await page.goto(`/courses/${courseId}/submodule/${last}`);
  await page.getByRole("button", { name: "Finish course" }).click();
  await expect(page).toHaveURL(`/courses/${courseId}/complete`);
  await expect(page.getByRole("heading", { name: `You finished ${courseTitle}`, level: 1 })).toBeVisible();
  const linkedIn = new URL((await page.getByRole("link", { name: /^Add to LinkedIn/ }).getAttribute("href")) ?? "");
  expect(linkedIn.origin + linkedIn.pathname).toBe("https://www.linkedin.com/profile/add");
  expect(linkedIn.searchParams.get("startTask")).toBe("CERTIFICATION_NAME");
  expect(linkedIn.searchParams.get("name")).toBe(courseTitle);
  expect(linkedIn.searchParams.get("certId")).toMatch(/^AC-/);
  expect(linkedIn.searchParams.get("certUrl")).toBe(`${origin}/certificates/${linkedIn.searchParams.get("certId")}`);
  await expect(page.getByRole("heading", { name: "What to learn next" })).toBeVisible();
  expect(await seriousViolations(page, "course finished")).toEqual([]);

  // On a phone: "View and download (PDF)" is a real PDF file of the certificate, made on the server.
  await page.setViewportSize({ width: 375, height: 812 });
  expect(await seriousViolationsInBothThemes(page, "course finished at 375 px")).toEqual([]);
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "View and download (PDF)" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^certificate-ui-ux-design-for-developers-AC-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}\.pdf$/);
  const pdf = await readFile(await download.path());
  expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  expect(pdf.length).toBeGreaterThan(5_000);
  await page.getByRole("link", { name: /\/certificates\/AC-/ }).click();
  await expect(page).toHaveURL(/\/certificates\/AC-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
  const certificateUrl = page.url();
  const certificateId = certificateUrl.split("/").at(-1) as string;
  expect(download.suggestedFilename()).toContain(certificateId);
  await expect(page.getByRole("link", { name: "Download PDF" })).toHaveAttribute("href", `/certificates/${certificateId}/pdf`);
  expect(await seriousViolationsInBothThemes(page, "the holder's certificate at 375 px")).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 720 });
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
  const listed = page.getByRole("region", { name: "Your certificates" });
  await expect(listed.getByText(courseTitle, { exact: true })).toBeVisible();
  await expect(listed.getByRole("link", { name: `View the certificate for ${courseTitle}` })).toHaveAttribute("href", `/certificates/${certificateId}`);
  await page.getByRole("button", { name: /^Account menu for/ }).click();
  await expect(page.getByRole("link", { name: "Certificates" })).toHaveAttribute("href", "/account/courses#certificates");

  const visitor = await browser.newContext();
  const stranger = await visitor.newPage();
  const response = await stranger.goto(`/certificates/${certificateId.toLowerCase()}`);
  expect(response?.status()).toBe(200);
  const sheet = stranger.getByRole("article", { name: "Certificate of completion" });
  await expect(sheet.getByText("Meera Raghunathan", { exact: true })).toBeVisible();
  await expect(sheet.getByText(courseTitle, { exact: true })).toBeVisible();
  await expect(sheet.getByText(new RegExp(`^${daysSince(started)}$`))).toBeVisible();
  await expect(sheet.getByText(certificateId, { exact: true })).toBeVisible();
  await expect(sheet).toContainText(`Anyone can verify it at ${origin}/certificates/${certificateId}`);
  await expect(stranger.getByRole("button", { name: "Print or save as PDF" })).toBeVisible();
  await expect(stranger.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
  await expect(stranger.getByRole("link", { name: "Back to the course" })).toHaveCount(0);
  await expect(stranger.getByRole("link", { name: "Download PDF" })).toHaveCount(0);
  expect(await stranger.content()).not.toContain(email);
  expect(await seriousViolationsInBothThemes(stranger, "certificate")).toEqual([]);
  await visitor.close();
});

test("the name on a certificate stays as issued, and its holder may correct it once", async ({ page, request, browser }) => {
  test.setTimeout(120_000);
  const started = new Date();
  await signUpVerified(page, request, { name: "Meera Raghunathn", email: uniqueEmail("certificate-name"), password });
  await buyCourse(page, courseId);
  const origin = new URL(page.url()).origin;
  await completeLessons(page, lessons);
  const issued = await page.request.post(`/courses/${courseId}/certificate`, { headers: { origin }, maxRedirects: 0 });
  const certificatePath = issued.headers().location as string;
  const sheet = page.getByRole("article", { name: "Certificate of completion" });

  // Renaming the profile does not touch a certificate already issued.
  await page.goto("/profile");
  await page.getByLabel("Name", { exact: true }).fill("Meera R.");
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByText("Your name was saved.")).toBeVisible();
  await page.goto(certificatePath);
  await expect(sheet.getByText("Meera Raghunathn", { exact: true })).toBeVisible();

  await page.getByText("Name wrong on this certificate?").click();
  const name = page.getByLabel("Your name as it should appear");
  await expect(name).toHaveValue("Meera Raghunathn");
  await name.fill(" ");
  await page.getByRole("button", { name: "Reissue with this name" }).click();
  await expect(name).toHaveAccessibleDescription("Tell us your name.");
  expect(await seriousViolations(page, "certificate name correction")).toEqual([]);
  await name.fill("Meera Raghunathan");
  await page.getByRole("button", { name: "Reissue with this name" }).click();
  await expect(page.getByRole("status")).toContainText("Your certificate was reissued with the corrected name.");
  await expect(page).toHaveURL(certificatePath);
  await expect(sheet.getByText("Meera Raghunathan", { exact: true })).toBeVisible();
  await expect(page.getByText(new RegExp(`name corrected on ${daysSince(started)}`))).toBeVisible();
  await expect(page.getByText("Name wrong on this certificate?")).toHaveCount(0);
  await expect(page.getByText(new RegExp(`The name on this certificate was corrected on ${daysSince(started)}\\. For any other change, write to us at`))).toBeVisible();

  // Once used, the correction is gone: a second one is refused, and the same one again changes nothing.
  const again = await page.request.post(certificatePath, { form: { intent: "correct-name", name: "M. Raghunathan" }, headers: { origin } });
  expect(again.status()).toBe(409);
  await page.reload();
  await expect(sheet.getByText("Meera Raghunathan", { exact: true })).toBeVisible();

  // Anyone else sees the corrected certificate, but no way to change it.
  const other = await browser.newContext();
  await giveOwnAddress(other);
  const stranger = await other.newPage();
  await signUpVerified(stranger, request, { name: "Someone Else", email: uniqueEmail("certificate-stranger"), password });
  await stranger.goto(certificatePath);
  await expect(stranger.getByRole("article", { name: "Certificate of completion" }).getByText("Meera Raghunathan", { exact: true })).toBeVisible();
  await expect(stranger.getByText(new RegExp(`name corrected on ${daysSince(started)}`))).toBeVisible();
  await expect(stranger.getByText("Name wrong on this certificate?")).toHaveCount(0);
  await expect(stranger.getByText("The name on this certificate was corrected on")).toHaveCount(0);
  const refused = await stranger.request.post(certificatePath, { form: { intent: "correct-name", name: "Someone Else" }, headers: { origin } });
  expect(refused.status()).toBe(403);
  await other.close();
});

test("an unknown or malformed certificate ID is not found, with a way forward", async ({ page }) => {
  for (const id of ["AC-0000-0000-0000-0000", "not-a-certificate"]) {
    const response = await page.goto(`/certificates/${id}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "We couldn't find that certificate" })).toBeVisible();
    await expect(page.getByText(`No certificate has the ID ${id}.`)).toBeVisible();
  }
});

test.describe("with Razorpay as the provider", () => {
  test.use({ baseURL: razorpayAppUrl });

  test("a refund made at Razorpay's dashboard revokes the certificate, and its public page says so", async ({ page, request, browser }) => {
    test.setTimeout(120_000);
    const started = new Date();
    await page.route("https://checkout.razorpay.com/v1/checkout.js", (route) =>
      route.fulfill({ contentType: "application/javascript", body: "window.Razorpay = function (options) { this.open = function () { window.razorpayOrderId = options.order_id; }; };" }),
    );
    await signUpVerified(page, request, { name: "Farhan Qureshi", email: uniqueEmail("certificate-revoked"), password });
    await gotoHydrated(page, `/courses/${courseId}/confirm`);
    await page.getByRole("button", { name: /^Pay ₹/ }).click();
    await expect.poll(() => page.evaluate(() => (window as unknown as { razorpayOrderId?: string }).razorpayOrderId)).toMatch(/^order_/);
    const orderId = await page.evaluate(() => (window as unknown as { razorpayOrderId: string }).razorpayOrderId);
    const payment = (await (await request.post(`${razorpayApiUrl}${testPayPath}`, { data: { order_id: orderId, method: "upi", outcome: "captured" } })).json()) as {
      id: string;
      amount: number;
    };
    expect((await request.post(webhookPath, razorpayWebhook("payment.captured", { payment }))).status()).toBe(200);

    const origin = new URL(page.url()).origin;
    await completeLessons(page, lessons);
    const issued = await page.request.post(`/courses/${courseId}/certificate`, { headers: { origin }, maxRedirects: 0 });
    const certificatePath = issued.headers().location as string;
    expect(certificatePath).toMatch(/^\/certificates\/AC-/);

    // Someone at the company refunds the payment from Razorpay's dashboard; Razorpay reports it by webhook.
    const basic = `Basic ${Buffer.from(`${razorpayKeys.RAZORPAY_KEY_ID}:${razorpayKeys.RAZORPAY_KEY_SECRET}`).toString("base64")}`;
    const refund = (await (await request.post(`${razorpayApiUrl}/v1/payments/${payment.id}/refund`, { data: {}, headers: { authorization: basic } })).json()) as object;
    expect((await request.post(webhookPath, razorpayWebhook("refund.processed", { refund: { ...refund, status: "processed" } }))).status()).toBe(200);

    const visitor = await browser.newContext();
    const stranger = await visitor.newPage();
    const response = await stranger.goto(certificatePath);
    expect(response?.status()).toBe(200);
    await expect(stranger.getByRole("heading", { name: "This certificate was revoked", level: 1 })).toBeVisible();
    await expect(stranger.getByText(new RegExp(`revoked on ${daysSince(started)}, when the course was refunded`))).toBeVisible();
    await expect(stranger.getByText("Verified")).toHaveCount(0);
    await expect(stranger.getByText("Farhan Qureshi")).toHaveCount(0);
    await expect(stranger.getByRole("button", { name: "Print or save as PDF" })).toHaveCount(0);
    expect(await seriousViolations(stranger, "revoked certificate")).toEqual([]);
    await visitor.close();

    await page.goto(`/courses/${courseId}/certificate`);
    await expect(page).toHaveURL(home);
  });
});
