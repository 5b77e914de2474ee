import { expect, test } from "@playwright/test";
import { latestMail, uniqueEmail, giveOwnAddress } from "./identity.ts";

const password = "correct horse battery staple";
const course = { id: "react-fundamentals", title: "React from Fundamentals to Production" };
const confirmPath = `/courses/${course.id}/confirm`;

test.beforeEach(async ({ context }) => {
  await giveOwnAddress(context);
});

test("a visitor enrols: create an account for that course, verify, and land back on its confirmation page", async ({ page, request }) => {
  const email = uniqueEmail("first-buyer");
  await page.goto(`/course/${course.id}`);
  await page.getByRole("link", { name: /^Enrol now/ }).first().click();
  await expect(page).toHaveURL(`/login?redirectTo=${encodeURIComponent(confirmPath)}`);
  await expect(page.getByRole("heading", { name: `Create your account to enrol in ${course.title}`, level: 1 })).toBeVisible();
  await expect(page).toHaveTitle(`Create your account to enrol in ${course.title} | Academy`);
  // Signing in instead is one click away, and keeps the course.
  await page.getByRole("main").getByRole("link", { name: "Sign in", exact: true }).first().click();
  await expect(page.getByRole("heading", { name: `Sign in to enrol in ${course.title}`, level: 1 })).toBeVisible();
  await page.getByRole("link", { name: "Create account" }).click();

  await page.getByLabel("Your name").fill("Nila Varma");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(`/verify-email?redirectTo=${encodeURIComponent(confirmPath)}`);

  // A tampered link says so and offers a new one, which still leads to the course.
  const mail = await latestMail(request, email, /Confirm your e-mail/);
  const bad = new URL(mail.links[0] as string);
  bad.searchParams.set("token", `${bad.searchParams.get("token")}x`);
  await page.goto(bad.toString());
  await expect(page).toHaveURL(/\/email-verified\?redirectTo=.*&error=INVALID_TOKEN$/);
  await expect(page.getByRole("heading", { name: "This link did not work", level: 1 })).toBeVisible();
  await page.getByRole("button", { name: "Send me a new link" }).click();
  await expect(page.getByText(`A new link is on its way to ${email}`)).toBeVisible();
  await expect
    .poll(async () => ((await (await request.get(`/dev/mailbox.json?to=${encodeURIComponent(email)}`)).json()) as unknown[]).length)
    .toBe(2);

  const fresh = await latestMail(request, email, /Confirm your e-mail/);
  await page.goto(fresh.links[0] as string);
  await expect(page).toHaveURL(confirmPath);
  await expect(page.getByRole("status").filter({ hasText: "E-mail verified" })).toBeVisible();
  await expect(page.getByRole("button", { name: /Pay ₹/ })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("button", { name: /Pay ₹/ })).toBeVisible();
  await expect(page.getByText("E-mail verified")).toHaveCount(0);
});

test("a verification link opened signed out, after it failed, explains and offers a sign-in for a new one", async ({ browser }) => {
  const context = await browser.newContext();
  await giveOwnAddress(context);
  const page = await context.newPage();
  await page.goto(`/api/auth/verify-email?token=not-a-token&callbackURL=${encodeURIComponent(`/email-verified?redirectTo=${encodeURIComponent(confirmPath)}`)}`);
  await expect(page.getByRole("heading", { name: "This link did not work", level: 1 })).toBeVisible();
  await page.getByRole("link", { name: "Sign in to get a new link" }).click();
  await expect(page).toHaveURL(`/login?redirectTo=${encodeURIComponent(`/verify-email?redirectTo=${encodeURIComponent(confirmPath)}`)}`);
  await context.close();
});
