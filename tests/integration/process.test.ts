import { existsSync } from "node:fs";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { contentCopy, projectRoot } from "./helpers.ts";
import { migratedDataDir } from "../support/database-templates.ts";
import { freePort } from "../support/free-port.ts";
import { listeningUrl, logLines, productionSandboxEnv, startProcess, type ServerProcess } from "../support/server-process.ts";

const running: ServerProcess[] = [];
afterEach(() => {
  for (const server of running.splice(0)) server.child.kill("SIGKILL");
});

const tempDir = () => mkdtemp(path.join(tmpdir(), "academy-process-"));
/** A data folder with a migrated database in it: for the tests of a running server, not of its first start. */
const readyDir = () => migratedDataDir("academy-process-");
/** The process that holds the embedded database in `dataDir`, as it wrote it down (server/db/pglite-lock.ts). */
const lockHolder = async (dataDir: string) => (JSON.parse(await readFile(path.join(dataDir, "db.lock.holder"), "utf8")) as { pid: number }).pid;

/** The cookies a response sets, as a Cookie header merged over the ones already held. */
function withCookies(held: string, response: Response): string {
  const jar = new Map(held ? held.split("; ").map((pair) => pair.split(/=(.*)/s, 2) as [string, string]) : []);
  for (const line of response.headers.getSetCookie()) {
    const [pair = ""] = line.split(";");
    const [name = "", value = ""] = pair.split(/=(.*)/s, 2);
    jar.set(name, value);
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
}

const unescapeHtml = (text: string) => text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));

describe("start-up failures", { timeout: 60_000 }, () => {
  it("refuses to start in production and names every missing variable", async () => {
    const server = startProcess({ NODE_ENV: "production", DATA_DIR: await tempDir() });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain(
      "Missing required environment variables: PUBLIC_URL, AUTH_SECRET, ENCRYPTION_KEY, SMTP_URL, RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET, RAZORPAY_WEBHOOK_SECRET",
    );
  });

  it("refuses several processes on the embedded database, before starting any", async () => {
    const server = startProcess({ WEB_CONCURRENCY: "2", DATA_DIR: await tempDir() });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain("WEB_CONCURRENCY=2 needs DATABASE_URL: the embedded database (PGlite) can be opened by one process only.");
    expect(server.output()).not.toContain("starting server processes");
  });

  it("refuses to start with a bad content file and names the file and field", async () => {
    const content = await contentCopy();
    const file = path.join(content, "courses/ui-ux-design/course.md");
    await writeFile(file, (await readFile(file, "utf8")).replace(/^level: .*$/m, "level: soon"));
    const server = startProcess({ CONTENT_DIR: content, DATA_DIR: await tempDir() });
    expect(await server.exited).toBe(1);
    expect(server.output()).toMatch(/courses\/ui-ux-design\/course\.md: level: /);
  });
});

describe("a running server", { timeout: 180_000 }, () => {
  it("runs side by side with another on its own port and data directory", async () => {
    const [dirA, dirB] = [await readyDir(), await readyDir()];
    const a = startProcess({ PORT: "0", DATA_DIR: dirA });
    const b = startProcess({ PORT: "0", DATA_DIR: dirB });
    running.push(a, b);
    const [urlA, urlB] = await Promise.all([listeningUrl(a), listeningUrl(b)]);
    expect(urlA).not.toBe(urlB);
    for (const url of [urlA, urlB]) expect((await fetch(`${url}/readyz`)).status).toBe(200);
    // Each holds the embedded database in its own folder.
    expect([await lockHolder(dirA), await lockHolder(dirB)]).toEqual([a.child.pid, b.child.pid]);
  });

  it("listens on loopback only when HOST is not set", async () => {
    const server = startProcess({ PORT: "0", HOST: "", DATA_DIR: await readyDir() });
    running.push(server);
    await listeningUrl(server);
    // The banner goes to stderr and the log line to stdout: either may arrive first.
    await expect.poll(() => logLines(server, "listening")).toHaveLength(1);
    expect(logLines(server, "listening")[0]).toMatchObject({ host: "127.0.0.1" });
  });

  it("creates DATA_DIR on a production first start", async () => {
    const dataDir = path.join(await tempDir(), "not", "made", "yet");
    const server = startProcess({
      PORT: "0",
      DATA_DIR: dataDir,
      ...productionSandboxEnv,
    });
    running.push(server);
    expect((await fetch(`${await listeningUrl(server)}/readyz`)).status).toBe(200);
    expect(existsSync(path.join(dataDir, "db"))).toBe(true);
  });

  it("logs JSON lines with a request id", async () => {
    const server = startProcess({ PORT: "0", DATA_DIR: await readyDir() });
    running.push(server);
    const url = await listeningUrl(server);
    await fetch(`${url}/courses`, { headers: { "x-request-id": "test-request-0001" } });
    await expect.poll(() => server.output()).toContain("test-request-0001");
    const line = server.output().split("\n").find((l) => l.includes("test-request-0001")) ?? "";
    expect(JSON.parse(line)).toMatchObject({ requestId: "test-request-0001", method: "GET", path: "/courses", status: 200 });
    // Health probes and static files are logged only when they fail.
    await fetch(`${url}/healthz`, { headers: { "x-request-id": "test-request-0002" } });
    await fetch(`${url}/favicon.svg`, { headers: { "x-request-id": "test-request-0003" } });
    await fetch(`${url}/assets/no-such-file.js`, { headers: { "x-request-id": "test-request-0004" } });
    await expect.poll(() => server.output()).toContain("test-request-0004");
    expect(server.output()).not.toContain("test-request-0002");
    expect(server.output()).not.toContain("test-request-0003");
  });

  it("renders with React's production build, also when started without NODE_ENV (as npm start is)", async () => {
    const loaded = path.join(await tempDir(), "modules.json");
    const server = startProcess({
      PORT: "0",
      DATA_DIR: await readyDir(),
      NODE_OPTIONS: `--import=${path.join(projectRoot, "tests/support/loaded-modules.ts")}`,
      LOADED_MODULES_FILE: loaded,
    });
    const url = await listeningUrl(server);
    expect((await fetch(`${url}/course/webdevfrontendcourse`)).status).toBe(200);
    // Still the development configuration: the mailbox is there.
    expect((await fetch(`${url}/dev/mailbox.json`)).status).toBe(200);
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    const files = (JSON.parse(await readFile(loaded, "utf8")) as string[]).filter((file) => /[\\/]node_modules[\\/]react(-dom)?[\\/]/.test(file));
    expect(files.some((file) => file.endsWith("react-dom-server.node.production.js"))).toBe(true);
    expect(files.filter((file) => file.includes(".development."))).toEqual([]);
  });

  it("finishes in-flight requests on SIGTERM, closes the database and exits cleanly", async () => {
    const dataDir = await readyDir();
    const server = startProcess({ PORT: "0", DATA_DIR: dataDir, PAGE_CACHE_SECONDS: "0" });
    const url = await listeningUrl(server);
    const inFlight = Array.from({ length: 40 }, (_, i) => fetch(`${url}/course/webdevfrontendcourse?n=${i}`));
    await new Promise((resolve) => setTimeout(resolve, 5));
    server.child.kill("SIGTERM");
    const responses = await Promise.allSettled(inFlight);
    const statuses = responses.map((r) => (r.status === "fulfilled" ? r.value.status : "failed"));
    // Every request that reached the server before the signal is answered in full.
    expect(statuses.filter((s) => s !== 200 && s !== "failed")).toEqual([]);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(0);
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('"msg":"stopped"');
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();

    // The database was closed cleanly: a new server opens the same data directory.
    const again = startProcess({ PORT: "0", DATA_DIR: dataDir });
    running.push(again);
    expect((await fetch(`${await listeningUrl(again)}/readyz`)).status).toBe(200);
  });

  it("offers Continue with Google on a fresh start through its development stand-in, which signs a person in", async () => {
    const port = await freePort();
    const server = startProcess({ PORT: String(port), DATA_DIR: await readyDir() });
    running.push(server);
    await listeningUrl(server);
    const site = `http://localhost:${port}`;
    const get = (url: string, cookie = "") => fetch(new URL(url, site), { redirect: "manual", headers: { cookie } });

    expect(await (await get("/login")).text()).toContain("Continue with Google");
    const started = await get("/auth/google?redirectTo=%2Faccount");
    expect(started.status).toBe(302);
    const authorize = new URL(started.headers.get("location") ?? "");
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${site}/dev/google/authorize`);
    let cookie = withCookies("", started);

    const chooser = await get(authorize.href, cookie);
    expect(chooser.status).toBe(200);
    const page = await chooser.text();
    expect(page).toContain("Development stand-in for Google: this page is not Google.");
    expect(page).toContain("<h1>Choose an account</h1>");
    const fields = new URLSearchParams(
      [...page.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)].map(([, name = "", value = ""]) => [name, unescapeHtml(value)]),
    );
    fields.set("sub", "g-1002");
    const chosen = await fetch(`${site}/dev/google/authorize`, { method: "POST", redirect: "manual", body: fields });
    const callback = chosen.headers.get("location") ?? "";
    expect(callback).toMatch(new RegExp(`^${site}/api/auth/callback/google\\?code=`));

    const signedIn = await get(callback, cookie);
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("location")).toBe("/account");
    cookie = withCookies(cookie, signedIn);
    const session = (await (await get("/api/auth/get-session", cookie)).json()) as { user: { name: string; email: string } } | null;
    expect(session?.user).toMatchObject({ name: "Vivek Builder", email: "vivek.builder@example.com" });
    // The code is exchanged in process: nothing was fetched from the server before it listened.
    expect(server.output()).not.toMatch(/discovery|Provider skipped/i);
  });
});
