import { expect, test } from "@playwright/test";
import { gotoHydrated } from "./hydration.ts";

const pages: { path: string; title: RegExp; heading: RegExp }[] = [
  { path: "/", title: /^Academy$/, heading: /Learn the skills/ },
  { path: "/courses", title: /^Courses \| Academy$/, heading: /Learn by building real things/ },
  { path: "/course/webdevfrontendcourse", title: /^Front-End Web Development \| Academy$/, heading: /Front-End Web Development/ },
  { path: "/course/webdevfrontendcourse/feedback", title: /^Feedback for Front-End Web Development \| Academy$/, heading: /Front-End Web Development/ },
  { path: "/services", title: /^Services \| Academy$/, heading: /We build, host and look after/ },
  { path: "/service/website-hosting", title: /Hosting.*\| Academy$/i, heading: /hosting/i },
  { path: "/team", title: /^Team \| Academy$/, heading: /The people behind/ },
  { path: "/portfolio", title: /^Portfolio \| Academy$/, heading: /Work we are proud of/ },
  { path: "/help", title: /^Help centre \| Academy$/, heading: /How can we help/ },
  { path: "/help/refunds", title: /^Refunds and cancellations · Help centre \| Academy$/, heading: /Refunds and cancellations/ },
  { path: "/privacy", title: /^Privacy Policy \| Academy$/, heading: /Privacy Policy/ },
  { path: "/terms", title: /^Terms.*\| Academy$/, heading: /Terms/ },
  { path: "/shipping", title: /^Shipping.*\| Academy$/, heading: /Shipping/ },
  { path: "/cancellation-refund", title: /^Cancellation.*\| Academy$/, heading: /Cancellation/ },
  { path: "/cookies", title: /^Cookie.*\| Academy$/, heading: /Cookie/ },
];

for (const { path, title, heading } of pages) {
  test(`${path} renders its content with a specific title, description and Open Graph tags`, async ({ page }) => {
    const response = await page.goto(path);
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle(title);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
    const description = await page.locator('meta[name="description"]').getAttribute("content");
    expect(description?.length ?? 0).toBeGreaterThan(40);
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", title);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", new RegExp(`${path === "/" ? "/" : path}$`));
    await expect(page.getByRole("navigation", { name: "Policies" }).getByRole("link")).toHaveCount(5);
  });
}

test("a page paints before any of its scripts is asked for, and they then take it over", async ({ page }) => {
  for (const path of ["/", "/course/webdevfrontendcourse"]) {
    await gotoHydrated(page, path);
    const { painted, scripts } = await page.evaluate(() => ({
      painted: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN,
      scripts: performance
        .getEntriesByType("resource")
        .filter((entry) => /\/assets\/[^/]+\.js$/.test(entry.name))
        .map((entry) => entry.startTime),
    }));
    expect(scripts.length, path).toBeGreaterThan(2);
    expect(Math.min(...scripts), path).toBeGreaterThanOrEqual(painted);
  }
});

test("the course page lists the syllabus, outcomes, price and instructor", async ({ page }) => {
  await page.goto("/course/webdevfrontendcourse");
  await expect(page.getByRole("heading", { name: "Syllabus" })).toBeVisible();
  await expect(page.locator("#syllabus ~ ol > li")).toHaveCount(6);
  await expect(page.getByText("How the web works", { exact: false })).toBeVisible();
  await expect(page.getByRole("complementary", { name: "Enrol" })).toContainText("₹4,999");
  await expect(page.getByRole("heading", { name: "Your instructor" })).toBeVisible();
});

test("courses can be filtered by category", async ({ page }) => {
  await page.goto("/courses");
  const all = await page.getByRole("article").count();
  expect(all).toBeGreaterThanOrEqual(6);
  await page.getByRole("navigation", { name: "Filter by category" }).getByRole("link", { name: "Design" }).click();
  await expect(page).toHaveURL(/category=Design/);
  await expect(page.getByRole("article")).toHaveCount(1);
  await expect(page.getByRole("article")).toContainText("UI/UX Design");
});

test("the feedback page shows an honest empty state", async ({ page }) => {
  await page.goto("/course/react-fundamentals/feedback");
  await expect(page.getByRole("heading", { name: "No feedback yet" })).toBeVisible();
});

test("a question in the help centre opens its answer on its topic's page, and the topics lead to one another", async ({ page }) => {
  await gotoHydrated(page, "/help");
  await page.getByRole("link", { name: "How do I get a GST invoice?" }).click();
  await expect(page).toHaveURL(/\/help\/payments-and-invoices#[\w-]+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payments and invoices");
  const answer = page.getByRole("region", { name: "How do I get a GST invoice?" });
  await expect(answer).toBeInViewport();
  await expect(answer.locator(".prose")).not.toBeEmpty();
  const topics = page.getByRole("navigation", { name: "Help topics" });
  await expect(topics.getByRole("link", { name: "Payments and invoices" })).toHaveAttribute("aria-current", "page");
  await topics.getByRole("link", { name: "Refunds and cancellations" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Refunds and cancellations");
  expect((await page.request.get("/help/no-such-topic")).status()).toBe(404);
});

test("long HTML (help answers, a course's description) is sent once, and reads the same after hydration and after a client navigation", async ({ page, request }) => {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  for (const { path, selector } of [
    { path: "/help/getting-started", selector: "[id^='answer-'].prose" },
    { path: "/course/webdevfrontendcourse", selector: "#course-description" },
  ]) {
    const html = await (await request.get(path)).text();
    await gotoHydrated(page, path);
    const sent = (await page.locator(selector).first().textContent()) ?? "";
    // Words the HTML writes as they read: no markup or entity inside them.
    const phrase = /[A-Za-z][A-Za-z ,]{30,}/.exec(sent)?.[0] ?? "";
    expect(phrase.length, path).toBeGreaterThan(30);
    // Once in the page, not a second time (escaped) in its loader data.
    expect(html.split(phrase).length - 1, path).toBe(1);
    // A client navigation gets the HTML in its data, and renders the same.
    await gotoHydrated(page, "/");
    await page.evaluate((to) => {
      const link = Object.assign(document.createElement("a"), { href: to, textContent: "go" });
      document.body.append(link);
    }, path);
    await page.getByRole("link", { name: "go", exact: true }).click();
    await expect(page.locator(selector).first()).toHaveText(sent);
  }
  expect(errors).toEqual([]);
});

test("an unknown path answers 404 with a helpful page", async ({ page }) => {
  const response = await page.goto("/this/does/not/exist");
  expect(response?.status()).toBe(404);
  await expect(page).toHaveTitle("Page not found | Academy");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("We couldn't find that page");
  await page.getByRole("main").getByRole("link", { name: /Courses/ }).click();
  await expect(page).toHaveURL(/\/courses$/);
});

test("unknown course and service ids are 404s", async ({ page }) => {
  expect((await page.goto("/course/not-a-course"))?.status()).toBe(404);
  expect((await page.goto("/service/not-a-service"))?.status()).toBe(404);
});

test("robots.txt and sitemap.xml are served", async ({ request }) => {
  expect(await (await request.get("/robots.txt")).text()).toContain("Sitemap:");
  expect(await (await request.get("/sitemap.xml")).text()).toContain("/course/webdevfrontendcourse</loc>");
  const image = await request.get("/og-image.jpg");
  expect(image.status()).toBe(200);
  expect(image.headers()["content-type"]).toBe("image/jpeg");
});
