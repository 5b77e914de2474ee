import { expect, test, type Page } from "@playwright/test";
import { scanBudget, seriousViolationsInBothThemes } from "./axe.ts";
import { signUpVerified, uniqueEmail, giveOwnAddress } from "./identity.ts";
import { gotoHydrated, hydrated } from "./hydration.ts";

const password = "velvet quarry lantern biscuit";
// A 2 × 2 PNG, valid by its content.
const png = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==",
  "base64",
);

test.beforeEach(async ({ context }) => {
  await giveOwnAddress(context);
});

/** The page is the site's: its header and footer, its stylesheet applied (the header is sticky only by it), a heading and a way home. */
async function expectSitePage(page: Page, heading: string, home: RegExp = /Go to the home page/) {
  const header = page.getByRole("banner");
  await expect(header.getByRole("link", { name: "Academy" })).toBeVisible();
  await expect(header).toHaveCSS("position", "sticky");
  await expect(page.getByRole("contentinfo")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
  await expect(page.getByRole("main").getByRole("link", { name: home })).toHaveAttribute("href", "/");
}

test("404: an unknown address gets the site's page that says so", async ({ page }) => {
  const response = await page.goto("/no-such-page/anywhere");
  expect(response?.status()).toBe(404);
  await expect(page).toHaveTitle("Page not found | Academy");
  await expectSitePage(page, "We couldn't find that page", /^Home/);
});

test("403: a form posted from another site is refused on the site's page, and nothing changes", async ({ page, baseURL }) => {
  const target = `${baseURL}/logout`;
  await page.route("http://elsewhere.test/", (route) =>
    route.fulfill({ contentType: "text/html", body: `<form method="post" action="${target}"><button>Send</button></form>` }),
  );
  await page.goto("http://elsewhere.test/");
  const answer = page.waitForResponse((response) => response.url() === target);
  await page.getByRole("button", { name: "Send" }).click();
  expect((await answer).status()).toBe(403);
  await expect(page).toHaveTitle("That request was refused | Academy");
  await expectSitePage(page, "That request was refused");
  await expect(page.getByRole("main")).toContainText("This form was sent from another site, so nothing was changed.");
});

test("an error page has no serious or critical axe violations in either theme", async ({ page, baseURL }) => {
  test.setTimeout(scanBudget(2));
  await page.route("http://elsewhere.test/", (route) =>
    route.fulfill({ contentType: "text/html", body: `<form method="post" action="${baseURL}/logout"><button>Send</button></form>` }),
  );
  await page.goto("http://elsewhere.test/");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("That request was refused");
  expect(await seriousViolationsInBothThemes(page, "403")).toEqual([]);
});

test("413: a body over the limit gets the site's page with the limit, and the page stays after scripts load", async ({ page, request }) => {
  await signUpVerified(page, request, { name: "Large Upload", email: uniqueEmail("large"), password });
  await gotoHydrated(page, "/profile");
  // A form the browser sends itself (not the page's checked one): what a script-less browser or an old tab would send.
  const answer = page.waitForResponse((response) => response.request().method() === "POST");
  await page.evaluate(() => {
    const form = Object.assign(document.createElement("form"), { method: "post", enctype: "multipart/form-data", action: "/profile" });
    const input = Object.assign(document.createElement("input"), { type: "file", name: "photo" });
    const files = new DataTransfer();
    files.items.add(new File([new Uint8Array(3_400_000)], "holiday.png", { type: "image/png" }));
    input.files = files.files;
    form.append(input);
    document.body.append(form);
    form.submit();
  });
  expect((await answer).status()).toBe(413);
  await expect(page).toHaveTitle("That upload is too large | Academy");
  await expectSitePage(page, "That upload is too large");
  await expect(page.getByRole("main")).toContainText("Nothing was uploaded: files can be at most 2 MB.");
  await hydrated(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("That upload is too large");
  await expect(page.getByRole("button", { name: "Account menu for Large Upload" })).toBeVisible();
});

test("500: a failure on our side is shown on the site's page, in words, in the chosen theme", async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem("academy-theme", "dark"));
  await gotoHydrated(page, "/courses");
  // The browser asks the server for the next page's data; here that request fails as a crashed server's would.
  await page.route("**/help.data*", (route) => route.fulfill({ status: 500, contentType: "text/plain", body: "Internal Server Error" }));
  await page.getByRole("banner").getByRole("link", { name: "Help" }).click();
  await expect(page).toHaveTitle("Something went wrong on our side | Academy");
  await expectSitePage(page, "Something went wrong on our side");
  await expect(page.getByRole("main")).toContainText("Please try again in a moment");
  await expect(page.getByRole("main")).not.toContainText("Internal Server Error");
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
});

test("a photo over 2 MB or of another type is refused in the browser, before any upload", async ({ page, request }) => {
  await signUpVerified(page, request, { name: "Careful Uploader", email: uniqueEmail("photo-check"), password });
  await gotoHydrated(page, "/profile");
  const posts: string[] = [];
  page.on("request", (sent) => {
    if (sent.method() === "POST") posts.push(sent.url());
  });
  const field = page.getByLabel(/Upload a JPEG, PNG or WebP image/);
  await field.setInputFiles({ name: "holiday.png", mimeType: "image/png", buffer: Buffer.alloc(3_400_000) });
  await expect(page.getByRole("alert")).toHaveText("That photo is 3.3 MB. Choose one under 2 MB.");
  await page.getByRole("button", { name: "Upload photo" }).click();
  await expect(page.getByRole("alert")).toHaveText("That photo is 3.3 MB. Choose one under 2 MB.");
  await field.setInputFiles({ name: "animation.gif", mimeType: "image/gif", buffer: Buffer.from("GIF89a") });
  await expect(page.getByRole("alert")).toHaveText("Choose a JPEG, PNG or WebP image.");
  await page.getByRole("button", { name: "Upload photo" }).click();
  expect(posts).toEqual([]);
});

test("the uploaded photo is in the header's account menu button too", async ({ page, request }) => {
  await signUpVerified(page, request, { name: "Photo Person", email: uniqueEmail("photo-menu"), password });
  const menu = page.getByRole("button", { name: "Account menu for Photo Person" });
  await expect(menu).toContainText("PP");
  await expect(menu.locator("img")).toHaveCount(0);
  await page.goto("/profile");
  await page.getByLabel(/Upload a JPEG, PNG or WebP image/).setInputFiles({ name: "me.png", mimeType: "image/png", buffer: png });
  await page.getByRole("button", { name: "Upload photo" }).click();
  await expect(page.getByText("Your new photo is in place.")).toBeVisible();
  const photo = await page.getByRole("img", { name: "Photo Person" }).getAttribute("src");
  await page.goto("/courses");
  await expect(menu.locator("img")).toHaveAttribute("src", photo ?? "");
  await expect(menu).not.toContainText("PP");
});
