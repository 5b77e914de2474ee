import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { hydrated } from "./hydration.ts";

/** The axe rules whose outcome depends on colours: all a theme changes (it swaps CSS colours on the same elements). */
const colourRules = ["color-contrast", "link-in-text-block"];

/** The serious and critical WCAG 2.1 AA and best-practice violations on the page as it is now, one line each (`colours`: only the colour rules). */
export async function seriousViolations(page: Page, label = page.url(), { colours = false } = {}): Promise<string[]> {
  const builder = new AxeBuilder({ page });
  const results = await (colours ? builder.withRules(colourRules) : builder.withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${label}: ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")})`);
}

/**
 * `seriousViolations` in the light theme, then the colour rules in the dark one: the app follows the
 * device's colour scheme live while the person has not chosen one, so both are scanned on one load of
 * the page, and the dark theme changes nothing but colours. Waits for the colours to settle first, so
 * no contrast is measured halfway through a transition.
 */
export async function seriousViolationsInBothThemes(page: Page, label = page.url()): Promise<string[]> {
  await hydrated(page);
  const found: string[] = [];
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.locator(scheme === "dark" ? "html.dark" : "html:not(.dark)").waitFor({ state: "attached" });
    await page.waitForFunction(() => document.getAnimations().length === 0);
    found.push(...(await seriousViolations(page, `${label} (${scheme})`, { colours: scheme === "dark" })));
  }
  return found;
}

/**
 * `seriousViolations` of a mail's HTML set as the page's content, in a light client, then the colour
 * rules in a dark one: the mail recolours itself by prefers-color-scheme, not by the app's class.
 */
export async function seriousMailViolations(page: Page, label: string): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    found.push(...(await seriousViolations(page, `${label} (${scheme})`, { colours: scheme === "dark" })));
  }
  return found;
}

/**
 * A test's time budget for `scans` axe scans on top of its other work: a scan of a long page takes
 * several seconds on one loaded core, so each gets 12 s beside the 60 s the rest of a test may use.
 */
export const scanBudget = (scans: number, rest = 60_000) => rest + scans * 12_000;
