import { childEnv, spawnNode, type NodeProcess } from "../support/node-process.ts";
import { randomBytes } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { Agent, request } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { PGlite } from "@electric-sql/pglite";
import { Client } from "pg";
import pino from "pino";
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../server/api/keys.ts";
import { clientIpHeader } from "../../server/auth/index.ts";
import { fromPglite } from "../../server/db/client.ts";
import { mailOutbox, sandboxWebhooks, scheduledJobs } from "../../server/db/schema.ts";
import { createHttpApp } from "../../server/http/app.ts";
import { createMetrics } from "../../server/metrics/registry.ts";
import { pagePatternMatcher } from "../../server/metrics/route-patterns.ts";
import { projectRoot, startTestApp, type TestApp } from "./helpers.ts";

const token = "metrics-token-for-the-tests-0123456789";

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * Parses Prometheus text exposition (format 0.0.4), failing on any line that is not a comment, a
 * sample or blank. prom-client writes NaN as `Nan`, which Prometheus reads (it ignores the case).
 */
function parseExposition(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("# HELP ")) continue;
    const type = /^# TYPE ([a-zA-Z_:][\w:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      types.set(type[1] as string, type[2] as string);
      continue;
    }
    const sample = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (-?(?:\d+(?:\.\d+)?(?:e[+-]?\d+)?|NaN|Nan|\+Inf|-Inf))$/.exec(line);
    if (!sample) throw new Error(`Not Prometheus text exposition: ${JSON.stringify(line)}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (sample[2] ?? "").matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)",?/g)) labels[name as string] = value as string;
    samples.push({ name: sample[1] as string, labels, value: Number(sample[3]) });
  }
  return { samples, types };
}

const total = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value)).reduce((sum, s) => sum + s.value, 0);

describe("/metrics on the HTTP app", () => {
  let testApp: TestApp;
  let app: ReturnType<typeof createHttpApp>;
  const logged: Record<string, unknown>[] = [];
  const logger = pino(new Writable({ write: (chunk: Buffer, _encoding, done) => (logged.push(JSON.parse(chunk.toString()) as Record<string, unknown>), done()) }));

  beforeAll(async () => {
    testApp = await startTestApp();
    const collector = createMetrics({ database: testApp.database, sandboxWebhooks: true, logger, worker: false });
    app = createHttpApp({ ...testApp.deps, logger, production: false, metrics: { token, collector } });
  });
  afterAll(() => testApp.close());

  const get = (urlPath: string, headers: Record<string, string> = {}) => app.fetch(new Request(`http://academy.test${urlPath}`, { headers }));
  const scrape = async () => {
    const response = await get("/metrics", { authorization: `Bearer ${token}` });
    expect(response.status).toBe(200);
    return parseExposition(await response.text());
  };

  it("is not there without a token configured: 404 like any unknown path", async () => {
    const response = await testApp.app.fetch(new Request("http://academy.test/metrics", { headers: { authorization: `Bearer ${token}` } }));
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("Page not found");
  });

  it("answers 401 with a Bearer challenge to a missing or wrong token, and logs it", async () => {
    for (const authorization of [undefined, "Bearer not-the-token", `Basic ${token}`, `Bearer ${token}x`]) {
      const response = await get("/metrics", authorization ? { authorization, "x-request-id": "metrics-refused-1" } : {});
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe("Bearer");
      expect(await response.text()).not.toContain("academy_");
    }
    expect(logged.some((line) => line.requestId === "metrics-refused-1" && line.status === 401)).toBe(true);
  });

  it("serves Prometheus text with the request, backlog and process metrics, uncached and unlogged", async () => {
    await get("/healthz");
    const response = await get("/metrics", { authorization: `Bearer ${token}`, "x-request-id": "metrics-scrape-1" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const { samples, types } = parseExposition(await response.text());
    expect(Object.fromEntries([...types].filter(([name]) => !name.startsWith("academy_nodejs_") && !name.startsWith("academy_process_")))).toEqual({
      academy_http_requests_total: "counter",
      academy_http_request_duration_seconds: "histogram",
      academy_mail_outbox_pending: "gauge",
      academy_mail_outbox_failed: "gauge",
      academy_mail_outbox_oldest_pending_seconds: "gauge",
      academy_sandbox_webhooks_pending: "gauge",
      academy_scheduled_job_overdue_seconds: "gauge",
      academy_scheduled_job_last_run_failed: "gauge",
    });
    for (const name of ["academy_nodejs_eventloop_lag_seconds", "academy_nodejs_heap_size_used_bytes", "academy_process_cpu_seconds_total", "academy_nodejs_gc_duration_seconds"]) {
      expect(types.has(name), name).toBe(true);
    }
    expect(total(samples, "academy_http_requests_total", { method: "GET", route: "/healthz", status: "200" })).toBeGreaterThanOrEqual(1);
    expect(total(samples, "academy_http_request_duration_seconds_count", { method: "GET", route: "/healthz" })).toBeGreaterThanOrEqual(1);
    expect(samples.filter((s) => s.name === "academy_http_request_duration_seconds_bucket").map((s) => s.labels.le)).toContain("0.005");
    // PGlite has no connection pool.
    expect(types.has("academy_db_pool_connections")).toBe(false);
    expect(logged.some((line) => line.requestId === "metrics-scrape-1")).toBe(false);
  });

  it("counts a page under its route pattern, not its raw path", async () => {
    const before = total((await scrape()).samples, "academy_http_requests_total", { method: "GET", route: "/course/:courseId", status: "200" });
    expect((await get("/course/webdevfrontendcourse")).status).toBe(200);
    expect((await get("/course/webdevfrontendcourse.data")).status).toBe(200);
    const { samples } = await scrape();
    expect(total(samples, "academy_http_requests_total", { method: "GET", route: "/course/:courseId", status: "200" })).toBe(before + 1);
    expect(total(samples, "academy_http_requests_total", { route: "/course/:courseId.data" })).toBe(1);
    expect(samples.filter((s) => s.labels.route?.includes("webdevfrontendcourse"))).toEqual([]);
  });

  it("counts a page the cache answers under its route pattern too", async () => {
    const team = { method: "GET", route: "/team", status: "200" };
    const before = total((await scrape()).samples, "academy_http_requests_total", team);
    const first = await get("/team");
    const second = await get("/team");
    // The same nonce: the second answer is the first one, kept.
    expect(second.headers.get("content-security-policy")).toBe(first.headers.get("content-security-policy"));
    expect(total((await scrape()).samples, "academy_http_requests_total", team)).toBe(before + 2);
  });

  it("counts unknown paths as other, and itself not at all", async () => {
    const before = total((await scrape()).samples, "academy_http_requests_total", { route: "other", status: "404" });
    expect((await get(`/no-such-page-${randomBytes(4).toString("hex")}`)).status).toBe(404);
    expect((await get(`/no/such/thing-${randomBytes(4).toString("hex")}.data`)).status).toBe(404);
    const { samples } = await scrape();
    expect(total(samples, "academy_http_requests_total", { route: "other", status: "404" })).toBe(before + 2);
    expect(samples.filter((s) => s.labels.route === "/metrics" || s.labels.route?.startsWith("/no"))).toEqual([]);
  });

  it("counts API calls and files under their Hono route, and odd methods as other", async () => {
    const { user } = await testApp.identity.auth.api.signUpEmail({
      body: { name: "Metric Mira", email: `mira-${randomBytes(4).toString("hex")}@example.com`, password: "a good long password" },
      headers: new Headers({ [clientIpHeader]: "10.9.8.7" }),
    });
    const { secret } = await createApiKey(testApp.database.db, user.id, { name: "Metrics test", scopes: ["read"], lifetimeDays: 30 }, new Date());
    expect((await get("/api/v1/notes/no-such-note", { authorization: `Bearer ${secret}` })).status).toBe(404);
    expect((await get("/api/v1/notes/no-such-note")).status).toBe(401);
    const asset = [...testApp.deps.assets.keys()].find((file) => file.startsWith("/assets/")) ?? "";
    expect((await get(asset)).status).toBe(200);
    expect((await get("/favicon.svg")).status).toBe(200);
    expect((await app.fetch(new Request("http://academy.test/courses", { method: "PROPFIND" }))).status).toBeGreaterThanOrEqual(400);
    const { samples } = await scrape();
    expect(total(samples, "academy_http_requests_total", { method: "GET", route: "/api/v1/notes/:id", status: "404" })).toBe(1);
    expect(total(samples, "academy_http_requests_total", { method: "GET", route: "/api/v1/*", status: "401" })).toBe(1);
    expect(total(samples, "academy_http_requests_total", { method: "GET", route: "/assets/*", status: "200" })).toBe(1);
    expect(total(samples, "academy_http_requests_total", { method: "GET", route: "/favicon.svg", status: "200" })).toBe(1);
    expect(total(samples, "academy_http_requests_total", { method: "other", route: "/courses" })).toBe(1);
  });

  it("reports the mail and webhook backlogs as they stand in the database", async () => {
    const { db } = testApp.database;
    const created = new Date(Date.now() - 120_000);
    const mail = { to: "someone@example.com", subject: "Hello", text: "Hello", html: "<p>Hello</p>", createdAt: created };
    await db.insert(mailOutbox).values([
      { ...mail, status: "pending" },
      { ...mail, status: "pending", createdAt: new Date() },
      { ...mail, status: "failed" },
      { ...mail, status: "sent" },
    ]);
    await db.insert(sandboxWebhooks).values({ eventId: "evt_metrics", event: "payment.captured", body: "{}" });
    const { samples } = await scrape();
    expect(total(samples, "academy_mail_outbox_pending")).toBe(2);
    expect(total(samples, "academy_mail_outbox_failed")).toBe(1);
    expect(total(samples, "academy_mail_outbox_oldest_pending_seconds")).toBeGreaterThanOrEqual(119);
    expect(total(samples, "academy_mail_outbox_oldest_pending_seconds")).toBeLessThan(600);
    expect(total(samples, "academy_sandbox_webhooks_pending")).toBe(1);
  });

  it("reports how overdue each scheduled job is and whether its last run failed", async () => {
    const { db } = testApp.database;
    await db.delete(scheduledJobs);
    await db.insert(scheduledJobs).values([
      { name: "clean-up", nextRunAt: new Date(Date.now() - 600_000), lastError: "the database went away" },
      { name: "website-reminders", nextRunAt: new Date(Date.now() + 600_000) },
    ]);
    const { samples } = await scrape();
    expect(total(samples, "academy_scheduled_job_overdue_seconds", { job: "clean-up" })).toBeGreaterThanOrEqual(599);
    expect(samples).toContainEqual({ name: "academy_scheduled_job_overdue_seconds", labels: { job: "website-reminders" }, value: 0 });
    expect(total(samples, "academy_scheduled_job_last_run_failed", { job: "clean-up" })).toBe(1);
    expect(samples).toContainEqual({ name: "academy_scheduled_job_last_run_failed", labels: { job: "website-reminders" }, value: 0 });
  });

  it("leaves the backlogs out, and logs why, when the database cannot count them", async () => {
    // A database without our tables: every count fails.
    const empty = fromPglite(await PGlite.create());
    try {
      const collector = createMetrics({ database: empty, sandboxWebhooks: true, logger, worker: false });
      const broken = createHttpApp({ ...testApp.deps, logger, production: false, metrics: { token, collector } });
      await broken.fetch(new Request("http://academy.test/healthz"));
      const response = await broken.fetch(new Request("http://academy.test/metrics", { headers: { authorization: `Bearer ${token}` } }));
      expect(response.status).toBe(200);
      const { samples, types } = parseExposition(await response.text());
      expect(total(samples, "academy_http_requests_total", { route: "/healthz" })).toBe(1);
      expect([...types.keys()].filter((name) => name.startsWith("academy_mail_") || name.startsWith("academy_sandbox_"))).toEqual([]);
      expect(logged.some((line) => line.msg === "the backlog metrics could not be read")).toBe(true);
    } finally {
      await empty.close();
    }
  });

  it("labels every page path with the pattern React Router matches it to", async () => {
    const build = (await import(path.join(projectRoot, "build/server/index.js"))) as ServerBuild;
    const tree = (parentId: string | undefined): RouteObject[] =>
      Object.values(build.routes)
        .filter((route) => route?.parentId === parentId)
        .map((route) => ({ id: route?.id, path: route?.path, index: route?.index, children: route?.index ? undefined : tree(route?.id) }) as RouteObject);
    const reactRouter = (urlPath: string) => {
      const matches = matchRoutes(tree(undefined), urlPath);
      return matches ? `/${matches.map((m) => m.route.path).filter(Boolean).join("/")}` : undefined;
    };
    const ours = pagePatternMatcher(build.routes);
    const patterns = Object.values(build.routes).flatMap((route) => (route?.path ? [route.path] : []));
    const paths = patterns.flatMap((pattern) => {
      const filled = `/${pattern.replace(/:\w+/g, "x-1").replace(/\*$/, "any/thing")}`;
      return [filled, `${filled}/`, filled.toUpperCase(), `${filled}/extra`];
    });
    paths.push("/", "//", "/account/services/websites/new", "/account/services/websites/web-1/renew", "/nowhere", "/courses/x/submodule");
    for (const urlPath of paths) expect(ours(urlPath), urlPath).toBe(reactRouter(urlPath));
  });
});

/** One request on `agent`'s connection (a new one each time without it), as the server answers it. */
function httpGet(url: string, headers: Record<string, string>, agent: Agent | false = false): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { headers, agent }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
    })
      .on("error", reject)
      .end();
  });
}

/** A port nothing listens on: the workers share the one named in PORT. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.once("error", reject);
  });
}

/** The /healthz requests a scrape counts, in the counter and in the histogram. */
const healthzCounts = (samples: Sample[]) => ({
  requests: total(samples, "academy_http_requests_total", { method: "GET", route: "/healthz", status: "200" }),
  durations: total(samples, "academy_http_request_duration_seconds_count", { method: "GET", route: "/healthz" }),
  slowest: total(samples, "academy_http_request_duration_seconds_bucket", { method: "GET", route: "/healthz", le: "+Inf" }),
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("/metrics with several server processes", { timeout: 180_000 }, () => {
  const serverUrl = process.env.TEST_DATABASE_URL as string;
  const databaseName = `academy_test_${randomBytes(6).toString("hex")}`;
  let child: NodeProcess | undefined;
  let output = "";
  let base = "";
  /** A kept-alive connection to each worker, by its pid. */
  const connections = new Map<number, Agent>();

  beforeAll(async () => {
    const admin = new Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${databaseName}`);
    await admin.end();
  });
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child?.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    const admin = new Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${databaseName} with (force)`);
    await admin.end();
  });

  it("answers through either worker with the requests and pools of both", async () => {
    const port = await freePort();
    const url = new URL(serverUrl);
    url.pathname = `/${databaseName}`;
    child = spawnNode(["server/main.ts"], {
      cwd: projectRoot,
      env: childEnv({
        HOST: "127.0.0.1",
        PORT: String(port),
        LOG_LEVEL: "info",
        DATA_DIR: await mkdtemp(path.join(tmpdir(), "academy-metrics-")),
        DATABASE_URL: url.toString(),
        DATABASE_POOL_SIZE: "3",
        WEB_CONCURRENCY: "2",
        METRICS_TOKEN: token,
      }),
    });
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    // Both workers listening, so Node's round robin hands new connections to each in turn.
    await expect.poll(() => output.split("Academy is running at").length - 1, { timeout: 120_000, interval: 200 }).toBe(2);
    base = `http://127.0.0.1:${port}`;

    for (let i = 0; i < 20; i++) expect((await httpGet(`${base}/readyz`, {})).status).toBe(200);

    // Each connection stays with the worker that accepted it: a refused scrape logs that worker's pid, then the scrape is read there.
    for (let attempt = 0; attempt < 8 && connections.size < 2; attempt++) {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const requestId = `metrics-probe-${attempt}-${randomBytes(3).toString("hex")}`;
      expect((await httpGet(`${base}/metrics`, { authorization: "Bearer wrong", "x-request-id": requestId }, agent)).status).toBe(401);
      const scraped = await httpGet(`${base}/metrics`, { authorization: `Bearer ${token}` }, agent);
      expect(scraped.status).toBe(200);
      const { samples } = parseExposition(scraped.body);
      expect(total(samples, "academy_http_requests_total", { method: "GET", route: "/readyz", status: "200" })).toBe(20);
      expect(total(samples, "academy_http_request_duration_seconds_count", { method: "GET", route: "/readyz" })).toBe(20);
      expect(total(samples, "academy_db_pool_max_connections")).toBe(6);
      expect(total(samples, "academy_db_pool_connections", { state: "total" })).toBeGreaterThanOrEqual(2);
      // Read once, by the worker that answered: one series, not one per worker or their sum.
      expect(samples.filter((s) => s.name === "academy_mail_outbox_pending")).toEqual([{ name: "academy_mail_outbox_pending", labels: {}, value: 0 }]);
      await expect.poll(() => output.includes(requestId)).toBe(true);
      const line = output.split("\n").find((l) => l.includes(requestId)) ?? "{}";
      const { pid } = JSON.parse(line) as { pid: number };
      if (connections.has(pid)) agent.destroy();
      else connections.set(pid, agent);
    }
    expect(connections.size).toBe(2);
  });

  it("answers 503 after about two seconds when a worker cannot send its metrics", async () => {
    const [[stoppedPid, stoppedAgent], [answeringPid, answering]] = [...connections] as [[number, Agent], [number, Agent]];
    stoppedAgent.destroy();
    process.kill(stoppedPid, "SIGSTOP");
    try {
      const started = Date.now();
      const scraped = await httpGet(`${base}/metrics`, { authorization: `Bearer ${token}` }, answering);
      expect(scraped.status).toBe(503);
      expect(scraped.body).toBe("The metrics could not be collected just now. Try again in a moment.");
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      process.kill(stoppedPid, "SIGCONT");
    }
    await expect.poll(() => output.split("\n").some((line) => line.includes('"metrics could not be collected"') && line.includes(`"pid":${answeringPid}`))).toBe(true);
    // The stopped worker, running again, answers the next collection.
    expect((await httpGet(`${base}/metrics`, { authorization: `Bearer ${token}` }, answering)).status).toBe(200);
    answering.destroy();
  });

  const scrape = async () => {
    const scraped = await httpGet(`${base}/metrics`, { authorization: `Bearer ${token}` });
    expect(scraped.status).toBe(200);
    return parseExposition(scraped.body).samples;
  };

  it("keeps a killed worker's counts, so totals only rise, and drops its gauges", async () => {
    // New connections, handed to the workers in turn: both count some.
    for (let i = 0; i < 10; i++) expect((await httpGet(`${base}/healthz`, {})).status).toBe(200);
    const before = await scrape();
    expect(healthzCounts(before)).toEqual({ requests: 10, durations: 10, slowest: 10 });
    const cpuBefore = total(before, "academy_process_cpu_seconds_total");

    const [victim] = [...connections.keys()];
    const replacedBefore = output.split("a server process died; starting another").length;
    process.kill(victim as number, "SIGKILL");
    await expect.poll(() => output.split("a server process died; starting another").length, { timeout: 30_000 }).toBe(replacedBefore + 1);
    await expect.poll(() => output.split("Academy is running at").length - 1, { timeout: 120_000, interval: 200 }).toBe(3);

    const after = await scrape();
    expect(healthzCounts(after)).toEqual({ requests: 10, durations: 10, slowest: 10 });
    expect(total(after, "academy_process_cpu_seconds_total")).toBeGreaterThanOrEqual(cpuBefore);
    // Gauges are the live processes' only: two pools of three, not the dead worker's as well.
    expect(total(after, "academy_db_pool_max_connections")).toBe(6);

    for (let i = 0; i < 4; i++) expect((await httpGet(`${base}/healthz`, {})).status).toBe(200);
    expect(healthzCounts(await scrape())).toEqual({ requests: 14, durations: 14, slowest: 14 });
  });
});
