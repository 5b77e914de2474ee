import { randomBytes } from "node:crypto";
import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { scanBudget, seriousViolationsInBothThemes } from "./axe.ts";
import { signUpVerified, uniqueEmail, giveOwnAddress } from "./identity.ts";
import { buyCourse } from "./shop.ts";

const password = "correct horse battery staple";
const course = "webdevfrontendcourse";
const lessonUrl = `/courses/${course}/submodule/1-2`;
const lessonTitle = "Document structure and semantic elements";

// One enrolled learner per worker; every test writes notes with words of its own, so they do not meet.
let learner: { state: Awaited<ReturnType<BrowserContext["storageState"]>>; address: string };

test.beforeAll(async ({ browser }) => {
  const context = await browser.newContext();
  const address = await giveOwnAddress(context);
  const page = await context.newPage();
  await signUpVerified(page, context.request, { name: "Nandini", email: uniqueEmail("notes"), password });
  await buyCourse(page, course);
  learner = { state: await context.storageState(), address };
  await context.close();
});

async function signedIn(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ storageState: learner.state, extraHTTPHeaders: { "x-forwarded-for": learner.address } });
  return context.newPage();
}

const word = (label: string) => `${label}${randomBytes(3).toString("hex")}`;

async function newNote(page: Page, title: string, body: string) {
  await page.goto("/notes");
  await page.getByRole("button", { name: "New note" }).click();
  await expect(page).toHaveURL(/\/notes\?note=[0-9a-f-]{36}$/);
  await expect(page.getByRole("textbox", { name: "Title", exact: true })).toBeFocused();
  await page.getByRole("textbox", { name: "Title", exact: true }).fill(title);
  await page.getByLabel("Note (Markdown)").fill(body);
  await expect(page.getByRole("status").filter({ hasText: /^Saved/ })).toBeVisible();
}

test("a note added on a lesson appears in Notes, linked back to its lesson", async ({ browser }) => {
  const page = await signedIn(browser);
  const text = word("flexbox");
  await page.goto(lessonUrl);
  const panel = page.getByRole("region", { name: "Your notes on this lesson" });
  await panel.getByLabel("Note (Markdown)").fill(`Remember ${text}`);
  // Typing in the note does not move between lessons.
  await panel.getByLabel("Note (Markdown)").press("ArrowRight");
  await expect(page).toHaveURL(lessonUrl);
  await panel.getByRole("button", { name: "Add note" }).click();
  await expect(panel.getByText("Note added.")).toBeVisible();
  await expect(panel.getByLabel("Note (Markdown)")).toHaveValue("");
  const added = panel.getByRole("article").filter({ hasText: text });
  await expect(added.getByRole("heading", { name: lessonTitle })).toBeVisible();

  await added.getByRole("link", { name: /^Open in Notes/ }).click();
  await expect(page).toHaveURL(/\/notes\?note=/);
  await expect(page.getByLabel("Note (Markdown)")).toHaveValue(`Remember ${text}`);
  await page.getByRole("link", { name: `Front-End Web Development · 1-2 ${lessonTitle}` }).click();
  await expect(page).toHaveURL(lessonUrl);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(lessonTitle);
});

test("a note written in Notes saves itself, survives a reload and is found by search", async ({ browser }) => {
  const page = await signedIn(browser);
  const title = word("Grid areas ");
  const text = word("subgrid");
  await newNote(page, title, `Line up items with ${text}.`);
  await page.reload();
  await expect(page.getByRole("textbox", { name: "Title", exact: true })).toHaveValue(title);
  await expect(page.getByLabel("Note (Markdown)")).toHaveValue(`Line up items with ${text}.`);
  const exported = (await (await page.request.get("/settings/my-data.json")).json()) as { notes: { title: string; body: string }[] };
  expect(exported.notes).toContainEqual(expect.objectContaining({ title, body: `Line up items with ${text}.` }));

  await page.getByRole("searchbox", { name: "Search notes" }).fill(text);
  await expect(page).toHaveURL(new RegExp(`q=${text}`));
  const list = page.getByRole("list", { name: /^Notes,/ });
  await expect(list.getByRole("link")).toHaveCount(1);
  await expect(list.getByRole("link")).toContainText(title);
  await page.getByRole("searchbox", { name: "Search notes" }).fill(word("nothing-like-this-"));
  await expect(page.getByText("No notes match your search.")).toBeVisible();
});

test("a save that fails says so and can be tried again, keeping the text", async ({ browser }) => {
  const page = await signedIn(browser);
  const title = word("Offline ");
  await newNote(page, title, "first version");
  await page.route("**/notes.data*", (route) => route.abort("internetdisconnected"));
  await page.getByLabel("Note (Markdown)").fill("second version");
  const alert = page.getByRole("alert");
  await expect(alert).toContainText("Not saved: We could not reach the server.");
  await expect(page.getByLabel("Note (Markdown)")).toHaveValue("second version");
  await page.unroute("**/notes.data*");
  await alert.getByRole("button", { name: "Try again" }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Saved/ })).toBeVisible();
  await expect(alert).toHaveCount(0);
  await page.reload();
  await expect(page.getByLabel("Note (Markdown)")).toHaveValue("second version");
});

test("a deleted note comes back with Undo", async ({ browser }) => {
  const page = await signedIn(browser);
  const title = word("Specificity ");
  await newNote(page, title, "IDs beat classes.");
  await page.getByRole("button", { name: "Delete note" }).click();
  const toast = page.getByRole("status").filter({ hasText: "Note deleted" });
  await expect(toast).toBeVisible();
  await expect(page.getByRole("link", { name: new RegExp(title) })).toHaveCount(0);

  await toast.getByRole("button", { name: "Undo" }).click();
  await expect(page).toHaveURL(/\/notes\?note=/);
  await expect(page.getByRole("textbox", { name: "Title", exact: true })).toHaveValue(title);
  await expect(page.getByRole("list", { name: /^Notes,/ }).getByRole("link", { name: new RegExp(title) })).toBeVisible();
});

test("Markdown in a note is rendered, and HTML in it is shown as text, never run", async ({ browser }) => {
  const page = await signedIn(browser);
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await newNote(page, word("Unsafe "), "<img src=x onerror=alert(1)> and **bold**");
  await page.getByRole("link", { name: "Preview" }).click();
  const preview = page.locator("article .prose");
  await expect(preview.locator("strong")).toHaveText("bold");
  await expect(preview).toContainText("<img src=x onerror=alert(1)>");
  await expect(page.locator("main img")).toHaveCount(0);
  await page.getByRole("link", { name: "Write" }).click();
  await expect(page.getByLabel("Note (Markdown)")).toBeVisible();
  expect(dialogs).toEqual([]);
});

test("another learner's note is not found, to read or to change", async ({ browser }) => {
  const owner = await signedIn(browser);
  const title = word("Private ");
  await newNote(owner, title, "mine");
  const noteId = new URL(owner.url()).searchParams.get("note") ?? "";

  const context = await browser.newContext();
  await giveOwnAddress(context);
  const other = await context.newPage();
  await signUpVerified(other, context.request, { name: "Someone Else", email: uniqueEmail("notes-other"), password });
  expect((await other.goto(`/notes?note=${noteId}`))?.status()).toBe(404);
  const origin = new URL(other.url()).origin;
  for (const intent of ["save", "delete", "restore"]) {
    const response = await other.request.post("/notes", { form: { intent, noteId, title: "Changed", body: "changed" }, headers: { origin } });
    expect(response.status()).toBe(404);
  }
  await context.close();

  await owner.reload();
  await expect(owner.getByRole("textbox", { name: "Title", exact: true })).toHaveValue(title);
  await expect(owner.getByLabel("Note (Markdown)")).toHaveValue("mine");
});

test("a long list shows its first twenty notes, with the rest one link or a search away", async ({ browser }) => {
  test.setTimeout(90_000);
  // A learner of its own: twenty notes would push the shared learner's notes off the first page.
  const context = await browser.newContext();
  await giveOwnAddress(context);
  const page = await context.newPage();
  await signUpVerified(page, context.request, { name: "Prolific", email: uniqueEmail("many-notes"), password });
  const origin = new URL(page.url()).origin;
  const oldest = word("earliest");
  // The editor's own posts; their redirects are not followed, so the list is rendered only when looked at.
  for (let i = 1; i <= 21; i++) {
    const created = await page.request.post("/notes", { form: { intent: "create" }, headers: { origin }, maxRedirects: 0 });
    expect(created.status()).toBe(302);
    const noteId = new URL(created.headers().location ?? "", origin).searchParams.get("note") ?? "";
    const saved = await page.request.post("/notes", {
      form: { intent: "save", noteId, title: `Note ${i}`, body: i === 1 ? oldest : `Body ${i}` },
      headers: { origin },
      maxRedirects: 0,
    });
    expect(saved.status(), `note ${i}`).toBeLessThan(400);
  }

  await page.goto("/notes");
  const list = page.getByRole("list", { name: "Notes, last updated first" });
  await expect(page.getByRole("status").filter({ hasText: "21 notes" })).toBeVisible();
  await expect(list.getByRole("listitem")).toHaveCount(20);
  await expect(list.getByText("Note 21", { exact: true })).toBeVisible();
  await expect(list.getByText("Note 1", { exact: true })).toHaveCount(0);
  await expect(page.getByText("Showing the first 20 of 21; search finds any of them.")).toBeVisible();

  await page.getByRole("link", { name: "Show all 21" }).click();
  await expect(list.getByRole("listitem")).toHaveCount(21);
  await list.getByText("Note 1", { exact: true }).click();
  await expect(page.getByLabel("Note (Markdown)")).toHaveValue(oldest);
  await expect(list.getByRole("listitem")).toHaveCount(21);

  await page.goto(`/notes?q=${oldest}`);
  await expect(page.getByRole("status").filter({ hasText: `1 of 21 notes match “${oldest}”` })).toBeVisible();
  await expect(page.getByRole("list", { name: "Notes, last updated first" }).getByRole("listitem")).toHaveCount(1);
  await context.close();
});

test("a learner past their limits is told so on the notes page and keeps their list", async ({ browser }) => {
  test.setTimeout(90_000);
  // A learner of their own: the limits count per person.
  const context = await browser.newContext();
  await giveOwnAddress(context);
  const page = await context.newPage();
  await signUpVerified(page, context.request, { name: "Hasty", email: uniqueEmail("limits"), password });
  const title = word("Limits ");
  await newNote(page, title, "kept");
  const origin = new URL(page.url()).origin;
  // Restoring a live note changes nothing, but it is a write all the same.
  const noteId = new URL(page.url()).searchParams.get("note") ?? "";
  const restore = () => page.request.post("/notes", { form: { intent: "restore", noteId }, headers: { origin }, maxRedirects: 0 });
  for (let i = 0; i < 1_000; i += 10) await Promise.all(Array.from({ length: 10 }, restore));
  await page.goto("/notes");
  await page.getByRole("button", { name: "New note" }).click();
  await expect(page.getByRole("alert")).toHaveText(/^You have changed your notes 1,000 times in the last 10 minutes, the most we accept\. Try again in (9|10) minutes\.$/);

  // A small account's searches count as 1.5 MiB each, 96 MiB a minute.
  for (let i = 0; i < 64; i++) expect((await page.request.get(`/notes?q=${encodeURIComponent(title)}`)).status()).toBe(200);
  await page.goto(`/notes?q=${encodeURIComponent(title)}`);
  await expect(page.getByRole("alert")).toHaveText(
    /^Searching reads every one of your notes, and you have searched them as much as we can keep up with this minute\. Try again in \d+ seconds?\.$/,
  );
  await expect(page.getByRole("list", { name: "Notes, last updated first" }).getByRole("link", { name: new RegExp(title) })).toBeVisible();
  await context.close();
});

// One test per page: an axe scan of a long page takes seconds on a loaded machine.
for (const view of ["editor", "preview", "lesson"] as const) {
  test(`the notes ${view} has no serious or critical axe violations in either theme`, async ({ browser }) => {
    test.setTimeout(scanBudget(2));
    const page = await signedIn(browser);
    if (view === "lesson") {
      await page.goto(lessonUrl);
    } else {
      await newNote(page, word("Axe "), "# Heading\n\n- a list\n- [link](https://example.com)\n\n`code`");
      if (view === "preview") await page.goto(`${new URL(page.url()).pathname}${new URL(page.url()).search}&view=preview`);
    }
    expect(await seriousViolationsInBothThemes(page, view)).toEqual([]);
  });
}
