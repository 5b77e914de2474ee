import { expect, type Page } from "@playwright/test";

/** Buys a course through the sandbox checkout, paying or declining, and waits for the result page. */
export async function buyCourse(page: Page, id: string, outcome: "Pay" | "Decline" = "Pay"): Promise<void> {
  await page.goto(`/courses/${id}/confirm`);
  await page.getByRole("button", { name: /Pay ₹/ }).click();
  await expect(page).toHaveURL(/\/sandbox\/checkout\/[^/?]+$/);
  await page.getByRole("button", { name: outcome, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/courses/${id}/confirm\\?order=`));
  if (outcome === "Pay") await expect(page.getByRole("heading", { name: "You're enrolled" })).toBeVisible();
}
