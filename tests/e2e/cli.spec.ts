import { execFile, spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { chromiumPath } from "../chromium.ts";
import { seriousViolations, seriousViolationsInBothThemes } from "./axe.ts";
import { gotoHydrated } from "./hydration.ts";
import { buyCourse } from "./shop.ts";
import { latestMail, signIn, signOut, signUpVerified, uniqueEmail, giveOwnAddress } from "./identity.ts";

const password = "correct horse battery staple";

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The CLI from this checkout's sources; an installed one is its `academy` file alone. */
const sourceCli = [process.execPath, "cli/academy.ts"];

/** Runs the academy CLI (from this checkout unless `cli` says) with its own config directory; `onStderr` sees its progress as it comes. */
function academy(args: string[], env: NodeJS.ProcessEnv, onStderr?: (text: string) => void, input = "", cli = sourceCli): Promise<Run> {
  const [command = "", ...before] = cli;
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...before, ...args], { env: { ...process.env, NO_COLOR: "1", ...env }, stdio: ["pipe", "pipe", "pipe"] });
    child.stdin.end(input);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      onStderr?.(stderr);
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Starts `academy login`; resolves `url` with the address it asks to open, and `done` when it exits. */
function startLogin(args: string[], env: NodeJS.ProcessEnv, cli = sourceCli): { url: Promise<string>; done: Promise<Run> } {
  const url = Promise.withResolvers<string>();
  const done = academy(
    ["login", "--no-browser", ...args],
    env,
    (text) => {
      const match = /(https?:\/\/\S+\/login\?cliToken=[\w-]+)/.exec(text)?.[1];
      if (match) url.resolve(match);
    },
    "",
    cli,
  );
  return { url: url.promise, done };
}

test.beforeEach(async ({ context }) => {
  await giveOwnAddress(context);
});

test("academy login is approved in the browser, then whoami, courses and logout work with their exit codes", async ({ page, request, baseURL }) => {
  const config = await mkdtemp(path.join(tmpdir(), "academy-cli-"));
  const env = { XDG_CONFIG_HOME: config, ACADEMY_URL: baseURL ?? "" };
  const email = uniqueEmail("cli");
  await signUpVerified(page, request, { name: "Terminal Tara", email, password });

  const signedOut = await academy(["whoami"], env);
  expect(signedOut.code).toBe(3);
  expect(signedOut.stderr).toContain("You are not signed in to");

  const login = startLogin([], env);
  const url = await login.url;
  const code = new URL(url).searchParams.get("cliToken") ?? "";
  await page.goto(url);
  await expect(page.getByRole("heading", { name: "Sign in the Academy CLI on this device?" })).toBeVisible();
  await expect(page.getByText(code, { exact: true })).toBeVisible();
  await expect(page.getByText(/^Academy CLI on (Linux|macOS|Windows)$/)).toBeVisible();
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page).toHaveURL(/\/cli-auth-success\?outcome=/);
  // Approved; the terminal may already have collected its sign-in.
  await expect(page.getByRole("heading", { name: /^(Academy CLI approved|The Academy CLI is signed in)$/ })).toBeVisible();
  await expect(page.getByText("You can close this tab and return to your terminal")).toBeVisible();

  const finished = await login.done;
  expect(finished.code, finished.stderr).toBe(0);
  await page.reload();
  await expect(page.getByRole("heading", { name: "The Academy CLI is signed in" })).toBeVisible();
  await expect(page.getByText(code, { exact: true })).toBeVisible();
  expect(finished.stdout).toContain(`Signed in to ${baseURL} as ${email}`);
  const file = path.join(config, "academy", "credentials.json");
  expect((await stat(file)).mode & 0o777).toBe(0o600);

  const whoami = await academy(["whoami", "--json"], env);
  expect(whoami.code).toBe(0);
  expect(JSON.parse(whoami.stdout)).toMatchObject({ name: "Terminal Tara", email });
  const courses = await academy(["courses", "--json"], env);
  const list = JSON.parse(courses.stdout) as { courses: { id: string; enrolled: boolean }[] };
  expect(list.courses.length).toBeGreaterThan(0);
  expect(list.courses.every((c) => !c.enrolled)).toBe(true);
  const table = await academy(["courses"], env);
  expect(table.stdout.split("\n")[0]).toBe("PRICE\tYOURS\tTITLE\tID");

  // Notes: written from standard input, listed as JSON, read, deleted; a note that is not there is exit code 4.
  const added = await academy(["notes", "add", "--title", "From the terminal", "--json"], env, undefined, "useEffect runs after paint\n");
  expect(added.code, added.stderr).toBe(0);
  const note = JSON.parse(added.stdout) as { id: string; title: string; body: string };
  expect(note).toMatchObject({ title: "From the terminal", body: "useEffect runs after paint\n" });
  const listed = JSON.parse((await academy(["notes", "list", "--json"], env)).stdout) as { notes: { id: string }[] };
  expect(listed.notes.map((n) => n.id)).toEqual([note.id]);
  expect((await academy(["notes", "show", note.id], env)).stdout).toContain("useEffect runs after paint");
  await page.goto("/notes");
  await expect(page.getByText("From the terminal")).toBeVisible();
  expect((await academy(["notes", "rm", note.id], env)).code).toBe(0);
  const gone = await academy(["notes", "show", note.id], env);
  expect(gone.code).toBe(4);
  expect(gone.stderr).toContain("We could not find that note.");

  // The CLI is one of the person's signed-in devices, and signing it out there ends its token.
  await page.goto("/settings");
  await page.getByRole("button", { name: /^Sign out Academy CLI on (Linux|macOS|Windows)$/ }).click();
  await expect(page.getByRole("button", { name: /^Sign out Academy CLI on/ })).toHaveCount(0);
  const revoked = await academy(["whoami"], env);
  expect(revoked.code).toBe(3);
  expect(revoked.stderr).toContain("This token is not valid any more. Run academy login to sign in again.");

  const logout = await academy(["logout"], env);
  expect(logout.code).toBe(0);
  expect((await academy(["whoami"], env)).stderr).toContain("You are not signed in to");
  expect((await academy(["frobnicate"], env)).code).toBe(2);
});

test("academy login reports a denial in the browser", async ({ page, request }) => {
  const config = await mkdtemp(path.join(tmpdir(), "academy-cli-"));
  await signUpVerified(page, request, { name: "Careful Kabir", email: uniqueEmail("deny"), password });
  const login = startLogin(["--server", new URL(page.url()).origin], { XDG_CONFIG_HOME: config });
  await page.goto(await login.url);
  await page.getByRole("button", { name: "Deny" }).click();
  await expect(page.getByRole("heading", { name: "CLI sign-in denied" })).toBeVisible();
  const finished = await login.done;
  expect(finished.code).toBe(1);
  expect(finished.stderr).toContain("The sign-in was denied in the browser. Run academy login to try again.");
});

test("a signed-out visitor opening the CLI's link is asked to sign in for the CLI, with its code, and comes back to the approval", async ({ page, request }) => {
  const config = await mkdtemp(path.join(tmpdir(), "academy-cli-"));
  const email = uniqueEmail("returning");
  await signUpVerified(page, request, { name: "Returning Ravi", email, password });
  await signOut(page);
  await page.setViewportSize({ width: 375, height: 800 });
  const login = startLogin(["--server", new URL(page.url()).origin], { XDG_CONFIG_HOME: config });
  const url = await login.url;
  const code = new URL(url).searchParams.get("cliToken") ?? "";
  await gotoHydrated(page, url);
  await expect(page.getByRole("heading", { name: "Sign in the Academy CLI" })).toBeVisible();
  await expect(page.getByText("The academy command in your terminal asked to sign in.")).toBeVisible();
  await expect(page.getByText("Check that your terminal shows this code")).toBeVisible();
  await expect(page.getByText(code, { exact: true })).toBeVisible();
  await expect(page.getByText("Welcome back")).toHaveCount(0);
  expect(await seriousViolationsInBothThemes(page, "CLI sign-in")).toEqual([]);
  await page.emulateMedia({ colorScheme: "light" });
  await signIn(page, email, password);
  await expect(page.getByRole("heading", { name: "Sign in the Academy CLI on this device?" })).toBeVisible();
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("heading", { name: /^(Academy CLI approved|The Academy CLI is signed in)$/ })).toBeVisible();
  expect(await seriousViolationsInBothThemes(page, "CLI approved")).toEqual([]);
  expect((await login.done).code).toBe(0);

  // The page says nothing of the kind to a visitor who decided nothing there.
  await page.emulateMedia({ colorScheme: "light" });
  await gotoHydrated(page, "/cli-auth-success");
  await expect(page.getByRole("heading", { name: "Sign in the Academy CLI" })).toBeVisible();
  await expect(page.getByText("There is no CLI sign-in from this browser to report here.")).toBeVisible();
  expect(await seriousViolationsInBothThemes(page, "CLI nothing to report")).toEqual([]);
});

test("a visitor with no account signs up from the CLI's page, verifies the address and then approves the CLI", async ({ page, request }) => {
  const config = await mkdtemp(path.join(tmpdir(), "academy-cli-"));
  const email = uniqueEmail("newcli");
  const login = startLogin(["--server", new URL((await page.request.get("/healthz")).url()).origin], { XDG_CONFIG_HOME: config });
  const url = await login.url;
  await page.goto(url);
  await expect(page.getByText(new URL(url).searchParams.get("cliToken") ?? "", { exact: true })).toBeVisible();
  await page.getByRole("link", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Create your account for the Academy CLI" })).toBeVisible();
  await page.getByLabel("Your name").fill("New Nikhil");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/verify-email\?redirectTo=%2Flogin%3FcliToken%3D/);
  const mail = await latestMail(request, email, /Confirm your e-mail/);
  await page.goto(mail.links[0] as string);
  await expect(page.getByRole("heading", { name: "Sign in the Academy CLI on this device?" })).toBeVisible();
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page).toHaveURL(/\/cli-auth-success\?outcome=/);
  const finished = await login.done;
  expect(finished.code, finished.stderr).toBe(0);
  expect(finished.stdout).toContain(`as ${email}`);
});

test("the approval page shows the backend's error text verbatim, or the spec's message when there is none", async ({ page, request }) => {
  const config = await mkdtemp(path.join(tmpdir(), "academy-cli-"));
  await signUpVerified(page, request, { name: "Patient Pooja", email: uniqueEmail("fallback"), password });
  const login = startLogin(["--server", new URL(page.url()).origin], { XDG_CONFIG_HOME: config });
  await page.goto(await login.url);
  expect(await seriousViolations(page)).toEqual([]);
  // A proxy in front answers for the server, without the JSON the page expects.
  await page.route("**/api/cli-auth", (route) => route.fulfill({ status: 502, contentType: "text/html", body: "<h1>Bad gateway</h1>" }));
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("alert")).toHaveText("Failed to send auth data to CLI backend");
  await page.unroute("**/api/cli-auth");
  await page.route("**/api/cli-auth", (route) => route.fulfill({ status: 400, json: { success: false, error: "That code has expired. Run academy login again for a new one." } }));
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("alert")).toHaveText("That code has expired. Run academy login again for a new one.");
  await page.unroute("**/api/cli-auth");
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page).toHaveURL(/\/cli-auth-success\?outcome=/);
  expect(await seriousViolations(page)).toEqual([]);
  expect((await login.done).code).toBe(0);
});

test("academy orders lists a purchase, and receipts saves its tax invoice as HTML and prints it to PDF", async ({ page, request }) => {
  const config = await mkdtemp(path.join(tmpdir(), "academy-cli-"));
  const origin = new URL((await page.request.get("/healthz")).url()).origin;
  const env = { XDG_CONFIG_HOME: config, ACADEMY_URL: origin, CHROME_PATH: chromiumPath };
  await signUpVerified(page, request, { name: "Invoice Isha", email: uniqueEmail("invoice"), password });
  await buyCourse(page, "react-fundamentals");
  const login = startLogin([], env);
  await page.goto(await login.url);
  await page.getByRole("button", { name: "Approve" }).click();
  expect((await login.done).code).toBe(0);

  const { orders } = JSON.parse((await academy(["orders", "--json"], env)).stdout) as { orders: { id: string; number: string; status: string }[] };
  expect(orders).toHaveLength(1);
  const [order] = orders as [{ id: string; number: string; status: string }];
  expect(order.status).toBe("paid");

  const html = await academy(["receipts", order.id, "--html"], env);
  expect(html.code, html.stderr).toBe(0);
  expect(html.stdout).toMatch(/^<!doctype html>/);
  expect(html.stdout).toContain(`<title>Tax invoice ${order.number}</title>`);
  expect(html.stdout).toContain("Invoice Isha");
  expect(html.stdout).toContain("999293");

  const pdfFile = path.join(config, "invoice.pdf");
  const pdf = await academy(["receipts", order.id, "--pdf", "-o", pdfFile], env);
  expect(pdf.code, pdf.stderr).toBe(0);
  expect((await readFile(pdfFile)).subarray(0, 5).toString()).toBe("%PDF-");

  expect((await academy(["receipts", "00000000-0000-0000-0000-000000000000", "--html"], env)).code).toBe(4);
  expect((await academy(["receipts", order.id, "--html", "--pdf"], env)).code).toBe(2);
});

test("without JavaScript, the approval page's form signs the CLI in through the page itself", async ({ browser, request }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  await giveOwnAddress(context);
  const page = await context.newPage();
  const config = await mkdtemp(path.join(tmpdir(), "academy-cli-"));
  await signUpVerified(page, request, { name: "Plain Priya", email: uniqueEmail("nojs"), password });
  const login = startLogin(["--server", new URL(page.url()).origin], { XDG_CONFIG_HOME: config });
  await page.goto(await login.url);
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page).toHaveURL(/\/cli-auth-success\?outcome=/);
  await expect(page.getByText("You can close this tab and return to your terminal")).toBeVisible();
  expect((await login.done).code).toBe(0);
  await context.close();
});

/** `npm pack ./cli` and `npm install -g` of the tarball into an empty prefix, offline, as docs/cli.md says: the installed `academy`. */
async function installedAcademy(work: string): Promise<string[]> {
  const run = promisify(execFile);
  // Not the settings of an npm that may have started the tests; npm's cache stays in the test's folder.
  const env = { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith("npm_"))), npm_config_cache: path.join(work, "npm-cache") };
  await run("npm", ["pack", path.resolve("cli"), "--pack-destination", work], { env });
  const tarball = (await readdir(work)).find((name) => name.endsWith(".tgz")) ?? "";
  const prefix = path.join(work, "prefix");
  await mkdir(prefix);
  await run("npm", ["install", "-g", "--offline", "--no-audit", "--no-fund", "--prefix", prefix, path.join(work, tarball)], { env });
  return [path.join(prefix, "bin/academy")];
}

test("the installed academy signs in through the browser, calls the API, and runs on a key in a script", async ({ page, request }) => {
  test.setTimeout(120_000);
  const work = await mkdtemp(path.join(tmpdir(), "academy-cli-installed-"));
  const cli = await installedAcademy(work);
  const origin = new URL((await page.request.get("/healthz")).url()).origin;
  const env = { XDG_CONFIG_HOME: path.join(work, "config"), ACADEMY_URL: origin };
  const email = uniqueEmail("installed");
  await signUpVerified(page, request, { name: "Installed Indu", email, password });

  const login = startLogin([], env, cli);
  await page.goto(await login.url);
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page).toHaveURL(/\/cli-auth-success\?outcome=/);
  expect((await login.done).code).toBe(0);

  const me = await academy(["api", "GET", "/me"], env, undefined, "", cli);
  expect(me.code, me.stderr).toBe(0);
  expect(JSON.parse(me.stdout)).toMatchObject({ name: "Installed Indu", email });
  const added = await academy(["notes", "add", "--title", "From the installed CLI"], env, undefined, "It runs from npm install -g.\n", cli);
  expect(added.code, added.stderr).toBe(0);

  await page.goto("/api-tools");
  await page.getByLabel("Name").fill("CI script");
  await page.getByRole("button", { name: "Make a key" }).click();
  const key = await page.getByLabel("Your new key (shown once)").inputValue();
  // A script with the key and no login: what `ACADEMY_TOKEN=<key> academy notes --json title | jq` reads.
  const script = await academy(["notes", "--json", "title"], { XDG_CONFIG_HOME: path.join(work, "no-login"), ACADEMY_URL: origin, ACADEMY_TOKEN: key }, undefined, "", cli);
  expect(script.code, script.stderr).toBe(0);
  expect(JSON.parse(script.stdout)).toEqual({ notes: [{ title: "From the installed CLI" }] });
  // The jq the package carries (WebAssembly, in the bundle) runs where it is installed.
  const filtered = await academy(["notes", "--jq", ".notes[].title"], { XDG_CONFIG_HOME: path.join(work, "no-login"), ACADEMY_URL: origin, ACADEMY_TOKEN: key }, undefined, "", cli);
  expect(filtered.code, filtered.stderr).toBe(0);
  expect(filtered.stdout).toBe("From the installed CLI\n");
});
