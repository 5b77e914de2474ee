// Page views are measured with GA4 only after the visitor accepts: before that, and after Reject,
// not one request goes to Google. The network is closed here, so gtag.js is answered by a stub
// and page views are read from the data layer the page hands to it.
import { randomBytes } from "node:crypto";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { gotoHydrated } from "../e2e/hydration.ts";
import { productionUrl } from "../e2e/servers.ts";

const analyticsHost = /googletagmanager\.com|google-analytics\.com|analytics\.google\.com/;

async function visitor(context: BrowserContext): Promise<{ page: Page; analyticsRequests: string[] }> {
  await context.setExtraHTTPHeaders({ "x-forwarded-for": `198.51.100.${randomBytes(1)[0]}` });
  const analyticsRequests: string[] = [];
  context.on("request", (request) => {
    if (analyticsHost.test(new URL(request.url()).hostname)) analyticsRequests.push(request.url());
  });
  await context.route(/googletagmanager\.com/, (route) =>
    route.fulfill({ contentType: "text/javascript", body: "window.gtagLoads = (window.gtagLoads || 0) + 1;" }),
  );
  return { page: await context.newPage(), analyticsRequests };
}

/** The page views handed to gtag, as [path, title] pairs. */
const pageViews = (page: Page) =>
  page.evaluate(() =>
    ((window as unknown as { dataLayer?: ArrayLike<unknown>[] }).dataLayer ?? [])
      .map((entry) => Array.from(entry))
      .filter((entry) => entry[0] === "event" && entry[1] === "page_view")
      .map((entry) => (entry[2] as { page_path: string }).page_path),
  );

const bar = (page: Page) => page.getByRole("region", { name: "Cookie choices" });

test("nothing goes to Google before an answer or after Reject, and the answer is remembered", async ({ context }) => {
  const { page, analyticsRequests } = await visitor(context);
  await page.goto("/");
  await expect(bar(page)).toBeVisible();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Courses" }).click();
  await expect(page).toHaveURL(`${productionUrl}/courses`);
  expect(analyticsRequests).toEqual([]);

  await bar(page).getByRole("button", { name: "Reject" }).click();
  await expect(bar(page)).toBeHidden();
  expect((await context.cookies()).find((c) => c.name === "academy_consent")?.value).toBe("none");
  await page.reload();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Services" }).click();
  await expect(page).toHaveURL(`${productionUrl}/services`);
  await expect(bar(page)).toBeHidden();
  expect(analyticsRequests).toEqual([]);
  expect(await pageViews(page)).toEqual([]);
});

test("after Accept, gtag.js loads once and every navigation, client-side too, is one page view", async ({ context }) => {
  const { page, analyticsRequests } = await visitor(context);
  await page.goto("/courses");
  await bar(page).getByRole("button", { name: "Accept" }).click();
  await expect(bar(page)).toBeHidden();
  await expect.poll(() => page.evaluate(() => (window as unknown as { gtagLoads?: number }).gtagLoads)).toBe(1);
  expect(analyticsRequests).toEqual(["https://www.googletagmanager.com/gtag/js?id=G-E2ETEST123"]);
  expect(await pageViews(page)).toEqual(["/courses"]);

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Team" }).click();
  await expect(page).toHaveURL(`${productionUrl}/team`);
  await expect.poll(() => pageViews(page)).toEqual(["/courses", "/team"]);

  await page.reload();
  await expect(bar(page)).toBeHidden();
  await expect.poll(() => pageViews(page)).toEqual(["/team"]);
  expect(analyticsRequests).toHaveLength(2);
});

test("Cookie settings in the footer asks again, and Reject then removes Google's cookies", async ({ context }) => {
  const { page } = await visitor(context);
  await context.addCookies([
    { name: "academy_consent", value: "analytics", url: productionUrl },
    { name: "_ga", value: "GA1.1.123.456", url: productionUrl },
  ]);
  // Cookie settings is the page script's: wait for it before asking.
  await gotoHydrated(page, "/help");
  await expect(bar(page)).toBeHidden();
  await page.getByRole("contentinfo").getByRole("button", { name: "Cookie settings" }).click();
  await expect(bar(page)).toBeVisible();
  await expect(bar(page).getByRole("button", { name: "Reject" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(bar(page)).toBeHidden();
  const cookies = await context.cookies();
  expect(cookies.find((c) => c.name === "academy_consent")?.value).toBe("none");
  expect(cookies.find((c) => c.name === "_ga")).toBeUndefined();

  await gotoHydrated(page, "/cookies");
  await page.getByRole("main").getByRole("button", { name: "Cookie settings" }).click();
  await expect(bar(page)).toBeVisible();
});

test("the server sends every visitor the same page, whatever they answered", async ({ browser }) => {
  const pages: string[] = [];
  for (const consent of [null, "analytics", "none"]) {
    const context = await browser.newContext({ javaScriptEnabled: false });
    if (consent) await context.addCookies([{ name: "academy_consent", value: consent, url: productionUrl }]);
    const page = await context.newPage();
    await page.goto("/portfolio");
    pages.push((await page.locator("main").innerHTML()).replace(/nonce="[^"]*"/g, ""));
    await expect(bar(page)).toHaveCount(0);
    await context.close();
  }
  expect(new Set(pages).size).toBe(1);
});
