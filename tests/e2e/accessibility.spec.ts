import { expect, test } from "@playwright/test";
import { seriousViolations } from "./axe.ts";
import { gotoHydrated } from "./hydration.ts";

const paths = [
  "/",
  "/courses",
  "/course/webdevfrontendcourse",
  "/course/webdevfrontendcourse/feedback",
  "/services",
  "/service/website-hosting",
  "/team",
  "/portfolio",
  "/help",
  "/privacy",
  "/terms",
  "/shipping",
  "/cancellation-refund",
  "/cookies",
  "/no-such-page",
  "/login",
  "/login?mode=signup",
  "/forgot-password",
  "/reset-password?token=example",
];

for (const scheme of ["light", "dark"] as const) {
  for (const path of paths) {
    test(`${path} has no serious or critical axe violations (${scheme})`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await gotoHydrated(page, path);
      expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(scheme === "dark");
      // Open every disclosure so collapsed content is checked too.
      await page.evaluate(() => document.querySelectorAll("details").forEach((d) => (d.open = true)));
      expect(await seriousViolations(page, `${path} ${scheme}`)).toEqual([]);
    });
  }
}
