import { expect, test } from "@playwright/test";
import { scanBudget, seriousViolationsInBothThemes } from "./axe.ts";
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
  "/help/courses-and-learning",
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

for (const path of paths) {
  test(`${path} has no serious or critical axe violations in either theme`, async ({ page }) => {
    test.setTimeout(scanBudget(2));
    await gotoHydrated(page, path);
    // Open every disclosure so collapsed content is checked too.
    await page.evaluate(() => document.querySelectorAll("details").forEach((d) => (d.open = true)));
    expect(await seriousViolationsInBothThemes(page, path)).toEqual([]);
  });
}
