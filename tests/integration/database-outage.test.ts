import { randomBytes } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { Client } from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientIpHeader } from "../../server/auth/index.ts";
import { user } from "../../server/db/schema.ts";
import { createHttpApp } from "../../server/http/app.ts";
import { listeningUrl, startProcess, type ServerProcess } from "../support/server-process.ts";
import { migratedPostgresTemplate } from "../support/database-templates.ts";
import { newPostgresDatabase, startTestApp, type TestApp } from "./helpers.ts";

const outageSentence = "Our database cannot be reached just now, so this page cannot be shown. Please try again in a minute.";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("pages while the embedded database is closed", () => {
  let t: TestApp;
  let app: ReturnType<typeof createHttpApp>;
  let cookie = "";
  beforeAll(async () => {
    t = await startTestApp();
    app = createHttpApp({ ...t.deps, pageCacheSeconds: 1, production: false });
    const email = `outage-${randomBytes(4).toString("hex")}@example.com`;
    const signUp = await t.identity.auth.api.signUpEmail({
      body: { name: "Outage Olu", email, password: "a good long password" },
      headers: new Headers({ [clientIpHeader]: "10.20.30.40" }),
      asResponse: true,
    });
    cookie = signUp.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    await t.database.db.update(user).set({ emailVerified: true }).where(eq(user.email, email));
  });
  // The database is closed by the test; the mail worker is all that is left to stop.
  afterAll(() => t?.identity.mailWorker.stop());

  const get = (url: string, headers: Record<string, string> = {}) => app.fetch(new Request(`http://academy.test${url}`, { headers: { accept: "text/html", ...headers } }));

  it("serves anonymous pages it has cached, however old, says how old, and answers 503 pages for the rest", async () => {
    const fresh = await get("/course/webdevfrontendcourse");
    expect(fresh.status).toBe(200);
    const page = await fresh.text();
    expect((await get("/account", { cookie })).status).toBe(200);
    // Older than PAGE_CACHE_SECONDS: the copy would be rendered again if the database answered.
    await sleep(1_200);
    await t.database.close();

    const stale = await get("/course/webdevfrontendcourse");
    expect(stale.status).toBe(200);
    expect(await stale.text()).toBe(page);
    expect(Number(stale.headers.get("age"))).toBeGreaterThanOrEqual(1);

    for (const [url, headers] of [
      ["/account", { cookie }],
      ["/course/webdevfrontendcourse", { cookie }],
      ["/course/node-backend", {}],
    ] as const) {
      const refused = await get(url, headers);
      expect(refused.status, url).toBe(503);
      expect(refused.headers.get("retry-after"), url).toBe("60");
      const body = await refused.text();
      expect(body, url).toContain(outageSentence);
      expect(body, url).toContain("<html");
    }
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("pages while PostgreSQL refuses connections, as in a restart", { timeout: 180_000 }, () => {
  const serverUrl = process.env.TEST_DATABASE_URL as string;
  let database: Awaited<ReturnType<typeof newPostgresDatabase>>;
  let server: ServerProcess | undefined;
  const admin = async (statement: string) => {
    const client = new Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  const databaseName = () => new URL(database.url).pathname.slice(1);
  beforeAll(async () => {
    database = await newPostgresDatabase(serverUrl, await migratedPostgresTemplate(serverUrl));
  });
  afterAll(async () => {
    server?.child.kill("SIGKILL");
    await database?.drop();
  });

  it("serves the cached copy of an anonymous page, answers 503 for others, and recovers when the database is back", async () => {
    server = startProcess({ PORT: "0", DATA_DIR: await mkdtemp(path.join(tmpdir(), "academy-outage-")), DATABASE_URL: database.url, PAGE_CACHE_SECONDS: "1" });
    const url = await listeningUrl(server);
    const get = (page: string) => fetch(`${url}${page}`, { headers: { accept: "text/html" } });
    const fresh = await get("/course/webdevfrontendcourse");
    expect(fresh.status).toBe(200);
    const page = await fresh.text();
    await sleep(1_200);

    await admin(`alter database ${databaseName()} allow_connections false`);
    await admin(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${databaseName()}'`);
    const stale = await get("/course/webdevfrontendcourse");
    expect(stale.status).toBe(200);
    expect(await stale.text()).toBe(page);
    expect(Number(stale.headers.get("age"))).toBeGreaterThanOrEqual(1);
    const refused = await get("/course/node-backend");
    expect(refused.status).toBe(503);
    expect(await refused.text()).toContain(outageSentence);
    expect((await fetch(`${url}/readyz`)).status).toBe(503);

    await admin(`alter database ${databaseName()} allow_connections true`);
    await expect.poll(async () => (await get("/course/node-backend")).status, { timeout: 10_000 }).toBe(200);
    const rendered = await get("/course/webdevfrontendcourse");
    expect(rendered.status).toBe(200);
    expect(rendered.headers.get("age")).toBeNull();
  });
});
