import { expect, test } from "@playwright/test";
import { scanBudget, seriousViolations } from "./axe.ts";
import { gotoHydrated } from "./hydration.ts";
import { signUpVerified, uniqueEmail, giveOwnAddress } from "./identity.ts";

test.beforeEach(async ({ context }) => {
  await giveOwnAddress(context);
});

test("a visitor sees what the CLI and API offer; a signed-in person makes a key, sees its secret once, uses it and revokes it", async ({ page, request }) => {
  await page.goto("/api-tools");
  await expect(page).toHaveTitle(/API and command-line tools/);
  await expect(page.getByRole("heading", { name: "The academy CLI" })).toBeVisible();
  // The installed CLI's commands, the escape hatch and a key for scripts included.
  const cli = page.getByRole("region", { name: "The academy CLI" });
  await expect(cli).toContainText("academy api GET /me");
  await expect(cli).toContainText("academy auth status");
  await expect(cli).toContainText("ACADEMY_TOKEN");
  await expect(cli).toContainText("academy courses --jq '.courses[].title'");
  await expect(cli).toContainText("academy notes --search hooks --sort title");
  await expect(page.getByRole("cell", { name: "/api/v1/notes", exact: true }).first()).toBeVisible();
  await page.getByRole("region", { name: "API keys" }).getByRole("link", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fapi-tools$/);

  await signUpVerified(page, request, { name: "Scripting Sunita", email: uniqueEmail("keys"), password: "correct horse battery staple" });
  await page.goto("/api-tools");
  await expect(page.getByText("You have no API keys.")).toBeVisible();
  await page.getByLabel("Name").fill("Reading-list script");
  await page.getByLabel("Expires").selectOption("30");
  await page.getByRole("button", { name: "Make a key" }).click();
  // The page's message, not the Copy button's (which says nothing until used).
  await expect(page.getByRole("status").filter({ hasText: "made" })).toHaveText('Key "Reading-list script" made. Copy its secret now: it is not shown again.');
  const secret = await page.getByLabel("Your new key (shown once)").inputValue();
  expect(secret).toMatch(/^acd_/);
  const keys = page.getByRole("list", { name: "Your API keys" });
  await expect(keys.getByRole("listitem")).toHaveCount(1);
  await expect(keys).toContainText("Reading-list script");
  await expect(keys).toContainText(`${secret.slice(0, 10)}… · read · expires`);
  await expect(keys).toContainText("Never used");

  const me = await request.get("/api/v1/me", { headers: { authorization: `Bearer ${secret}` } });
  expect(await me.json()).toMatchObject({ name: "Scripting Sunita" });
  const write = await request.post("/api/v1/notes", { headers: { authorization: `Bearer ${secret}` }, data: { title: "x", body: "y" } });
  expect(write.status()).toBe(403);
  await page.reload();
  await expect(page.getByLabel("Your new key (shown once)")).toHaveCount(0);
  await expect(keys).toContainText("Last used");

  await keys.getByRole("button", { name: "Revoke Reading-list script" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke the key" }).click();
  await expect(page.getByRole("status")).toContainText("The key is revoked.");
  await expect(page.getByText("You have no API keys.")).toBeVisible();
  expect((await request.get("/api/v1/me", { headers: { authorization: `Bearer ${secret}` } })).status()).toBe(401);
});

test("the interactive API reference renders every operation from the OpenAPI document, from this origin under the CSP, its bundle fetched by that page alone", async ({ page }) => {
  const refused: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy/.test(message.text())) refused.push(message.text());
  });
  const bundleRequests: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.startsWith("/api-tools/scalar/")) bundleRequests.push(new URL(request.url()).pathname);
  });
  await gotoHydrated(page, "/");
  await gotoHydrated(page, "/api-tools");
  // Pointing at the link prefetches the page's code, not the reference's bundle.
  await page.getByRole("link", { name: "interactive reference" }).hover();
  await expect(page.getByRole("link", { name: "interactive reference" })).toBeVisible();
  expect(bundleRequests).toEqual([]);
  await page.getByRole("link", { name: "interactive reference" }).click();
  await expect(page).toHaveURL(/\/api-tools\/reference$/);
  await expect(page.getByRole("heading", { name: "Academy API", level: 1 }).or(page.getByRole("heading", { name: "Academy API" })).first()).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText("Write a note").first()).toBeVisible();
  await expect(page.getByText("One website, with its paid periods").first()).toBeVisible();
  const firstLoad = bundleRequests.length;
  expect(bundleRequests[0]).toBe("/api-tools/scalar/standalone.esm.js");

  // The example answers, and the console's response panel, drawn with Scalar's own styles and theme.
  const me = page.getByRole("region", { name: "Who the token signs in as" });
  const answers = me.getByRole("region", { name: /^Status: 200/ });
  await expect(answers.getByRole("tab", { name: "Status: 200" })).toBeVisible();
  await expect(answers.getByRole("code")).toContainText('"email": "string"');
  await expect(answers.getByRole("code")).toBeVisible();
  await me.getByRole("button", { name: "Test Request (get /me)" }).click();
  const panel = page.getByRole("dialog");
  await expect(panel.getByText("Response", { exact: true }).first()).toBeVisible();
  await expect(panel.getByText("Send Request")).toBeVisible();
  expect(await page.locator("style#scalar-style").count()).toBe(1);
  expect(refused).toEqual([]);

  // Away from the reference, its styles leave with it; back again, they return without another request.
  await page.keyboard.press("Escape");
  await page.getByRole("link", { name: "Back to API and CLI" }).click();
  await expect(page).toHaveURL(/\/api-tools$/);
  // The URL changes as the navigation commits; the reference's clean-up runs as React unmounts it, a moment later.
  await expect(page.locator("style#scalar-style")).toHaveCount(0);
  await page.getByRole("link", { name: "interactive reference" }).click();
  await expect(page.getByText("Write a note").first()).toBeVisible({ timeout: 20_000 });
  await expect(page.locator("style#scalar-style")).toHaveCount(1);
  expect(bundleRequests.slice(firstLoad).filter((path) => path === "/api-tools/scalar/standalone.esm.js")).toEqual([]);
  expect(refused).toEqual([]);
});

for (const [theme, width] of [["light", 1280], ["dark", 375]] as const) {
  test(`/api-tools has no serious or critical axe violations in the ${theme} theme at ${width} px`, async ({ page, request }) => {
    test.setTimeout(scanBudget(2));
    await page.emulateMedia({ colorScheme: theme });
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/api-tools");
    expect(await seriousViolations(page)).toEqual([]);
    await signUpVerified(page, request, { name: "Axe Keys", email: uniqueEmail(`axe-keys-${theme}`), password: "correct horse battery staple" });
    await page.goto("/api-tools");
    await page.getByLabel("Name").fill("Axe");
    await page.getByRole("button", { name: "Make a key" }).click();
    await expect(page.getByLabel("Your new key (shown once)")).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
}

for (const [theme, width] of [["light", 1280], ["dark", 375]] as const) {
  test(`the API reference has no serious or critical axe violations in the ${theme} theme at ${width} px`, async ({ page }) => {
    test.setTimeout(scanBudget(1));
    await page.emulateMedia({ colorScheme: theme });
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/api-tools/reference");
    // The reference draws itself in the browser, in the theme the page opened in.
    await expect(page.locator(".sidebar-heading-type--get").first()).toBeAttached({ timeout: 20_000 });
    expect(await seriousViolations(page, `/api-tools/reference (${theme})`)).toEqual([]);
  });
}
