import { randomBytes } from "node:crypto";
import type { APIRequestContext, BrowserContext, Page } from "@playwright/test";
import { expect } from "@playwright/test";

/** A fresh client address per test, so Better Auth's per-address limits do not couple tests; on loopback (127/8), like the browser itself, so the development mailbox still serves it. */
export async function giveOwnAddress(context: BrowserContext): Promise<string> {
  const address = `127.${randomBytes(3).join(".")}`;
  await context.setExtraHTTPHeaders({ "x-forwarded-for": address });
  return address;
}

export function uniqueEmail(label: string): string {
  return `${label}-${randomBytes(4).toString("hex")}@example.com`;
}

interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
}

/** Waits for the newest mail to `to` matching `subject` in the development mailbox. */
export async function latestMail(request: APIRequestContext, to: string, subject: RegExp): Promise<Mail> {
  let found: Mail | undefined;
  await expect
    .poll(async () => {
      const mails = (await (await request.get(`/dev/mailbox.json?to=${encodeURIComponent(to)}`)).json()) as Mail[];
      found = mails.find((m) => subject.test(m.subject));
      return found !== undefined;
    })
    .toBe(true);
  return found as Mail;
}

export async function signUp(page: Page, account: { name: string; email: string; password: string }): Promise<void> {
  await page.goto("/login?mode=signup");
  await page.getByLabel("Your name").fill(account.name);
  await page.getByLabel("E-mail").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/verify-email$/);
}

/**
 * An account ready to use, signed in on the home page: created through the sign-up API the form
 * posts to (auth.spec.ts drives the form itself), then verified from the mailed link, as a person would.
 */
export async function signUpVerified(page: Page, request: APIRequestContext, account: { name: string; email: string; password: string }) {
  // The origin of the app this test talks to (a test may set its own baseURL), as a browser's form post carries it.
  const origin = new URL((await page.request.get("/healthz")).url()).origin;
  const created = await page.request.post("/api/auth/sign-up/email", { data: { ...account, callbackURL: "/" }, headers: { origin } });
  expect(created.ok(), await created.text()).toBe(true);
  const mail = await latestMail(request, account.email, /Confirm your e-mail/);
  await page.goto(mail.links[0] as string);
  await expect(page).toHaveURL(/\/$/);
}

export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** Signs out from the account menu and waits until the page shows it, so the next navigation is a visitor's. */
export async function signOut(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Account menu for" }).click();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("link", { name: "Sign in", exact: true })).toBeVisible();
}
