import { AxeBuilder } from "@axe-core/playwright";
import { expect, test } from "@playwright/test";

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
      await page.goto(path);
      await page.waitForLoadState("networkidle");
      expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(scheme === "dark");
      // Open every disclosure so collapsed content is checked too.
      await page.evaluate(() => document.querySelectorAll("details").forEach((d) => (d.open = true)));
      const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
      const serious = results.violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map((v) => `${v.id}: ${v.help}\n  ${v.nodes.map((n) => n.target.join(" ")).slice(0, 5).join("\n  ")}`);
      expect(serious, serious.join("\n")).toEqual([]);
    });
  }
}
