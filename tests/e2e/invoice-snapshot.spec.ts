import { expect, test } from "@playwright/test";
import { latestMail, signUpVerified, uniqueEmail, giveOwnAddress } from "./identity.ts";
import { buyCourse } from "./shop.ts";

test.beforeEach(async ({ context }) => {
  await giveOwnAddress(context);
});

test("an invoice keeps the name it was billed to after the buyer renames their profile", async ({ page, request }) => {
  const email = uniqueEmail("invoice-name");
  await signUpVerified(page, request, { name: "Anil Kapoor", email, password: "correct horse battery staple" });
  await buyCourse(page, "ui-ux-design");
  const orderId = new URL(page.url()).searchParams.get("order") as string;
  const receipt = `/account/orders/${orderId}/receipt`;
  const invoice = page.getByRole("article", { name: "Tax invoice" });

  await page.goto(receipt);
  await expect(invoice).toContainText("Anil Kapoor");
  await expect(invoice).toContainText(email);

  await page.goto("/profile");
  await page.getByLabel("Name", { exact: true }).fill("Anil K. Kapoor");
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByText("Your name was saved.")).toBeVisible();

  await page.goto(receipt);
  await expect(invoice).toContainText("Anil Kapoor");
  await expect(invoice).not.toContainText("Anil K. Kapoor");
  // The invoice file the CLI saves is the same document.
  const file = await page.request.get(`/invoices/${orderId}`);
  expect(file.ok()).toBe(true);
  const html = await file.text();
  expect(html).toContain("Anil Kapoor");
  expect(html).not.toContain("Anil K. Kapoor");
  expect((await latestMail(request, email, /^Your receipt for/)).text).toContain("Hi Anil Kapoor,");
});
