import type { Page, Response } from "@playwright/test";

/**
 * Waits until the page's scripts have taken it over (app/entry.client.tsx marks <html data-hydrated>
 * once React has hydrated it): from then on a click or a keystroke reaches the app, not only the browser.
 * After a full page load, call it once the new page is there: the old page carried the mark too.
 */
export async function hydrated(page: Page): Promise<void> {
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

/** page.goto, then waits for hydration. */
export async function gotoHydrated(page: Page, url: string): Promise<Response | null> {
  const response = await page.goto(url);
  await hydrated(page);
  return response;
}
