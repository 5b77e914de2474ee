// Three server processes on one PostgreSQL behind nginx terminating TLS, as DESIGN.md's "Scaling
// past one machine" runs them: nothing a process keeps to itself may matter to another. Runs when
// TEST_DATABASE_URL names a PostgreSQL server (CI starts one); PGlite is one process by design.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Pool } from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buyCourse, createBuyer, pooled, sessionCookie, type Buyer } from "../../bench/buyers.ts";
import { startServer, type RunningServer } from "../../bench/server.ts";
import { addressLimits } from "../../server/auth/index.ts";
import { loadCatalog } from "../../server/catalog/index.ts";
import { migrationsFolder } from "../../server/db/client.ts";
import { webhookSignature } from "../../server/payments/signature.ts";
import { purchaseViolations } from "../support/purchase-invariants.ts";
import { contentDir, newPostgresDatabase, projectRoot } from "./helpers.ts";
import { freePort } from "../support/free-port.ts";

const serverUrl = process.env.TEST_DATABASE_URL;

const password = "correct horse battery staple";
const purchases = 200;

/** Polls `check` until it returns something other than undefined, or fails with what it saw last. */
async function eventually<T>(what: string, check: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(250);
  }
}

describe.skipIf(!serverUrl)("three server processes on one PostgreSQL behind nginx", { timeout: 300_000 }, () => {
  let database: { url: string; drop(): Promise<void> };
  let pool: Pool;
  let servers: RunningServer[] = [];
  let proxy: ChildProcess | undefined;
  let site = "";
  const logDir = mkdtemp(path.join(tmpdir(), "academy-scale-"));
  const run = randomBytes(3).toString("hex");

  const query = async <T extends Record<string, unknown>>(text: string, values: unknown[] = []) => (await pool.query<T>(text, values)).rows;

  /** A request straight to one process, as nginx would pass it on: the site's origin, the client's address. */
  function direct(server: RunningServer, route: string, from: { address: string; cookie?: string }, json?: unknown): Promise<Response> {
    const headers: Record<string, string> = { Origin: site, "X-Forwarded-For": from.address };
    if (from.cookie) headers.Cookie = from.cookie;
    if (json !== undefined) headers["Content-Type"] = "application/json";
    return fetch(`${server.url}${route}`, { method: json === undefined ? "GET" : "POST", headers, body: json === undefined ? undefined : JSON.stringify(json), redirect: "manual" });
  }

  /** A wrong password for `email`, sent to the i-th process in turn. */
  const signIn = (i: number, body: { email: string }, address: string) =>
    direct(servers[i % servers.length] as RunningServer, "/api/auth/sign-in/email", { address }, { ...body, password: "not the password" });

  const signedInAs = async (server: RunningServer, cookie: string) =>
    ((await (await direct(server, "/api/auth/get-session", { address: "10.1.0.1", cookie })).json()) as { user: { email: string } } | null)?.user.email ?? null;

  beforeAll(async () => {
    // nginx presents a throwaway self-signed certificate; only this file trusts it, and only while it runs (the worker goes on to other files).
    vi.stubEnv("NODE_TLS_REJECT_UNAUTHORIZED", "0");
    database = await newPostgresDatabase(serverUrl as string);
    const ports = await Promise.all([freePort(), freePort(), freePort()]);
    const proxyPort = await freePort();
    site = `https://127.0.0.1:${proxyPort}`;
    const logs = await logDir;
    // All three at once on the empty database: they must agree on who migrates.
    servers = await Promise.all(
      ports.map((port, i) =>
        startServer(
          port,
          {
            DATABASE_URL: database.url,
            PUBLIC_URL: site,
            // The test plays the client's network, writing X-Forwarded-For; nginx appends its peer.
            TRUST_PROXY: "2",
            LOG_LEVEL: "warn",
          },
          { logFile: path.join(logs, `server-${i}.log`) },
        ),
      ),
    );
    proxy = spawn(process.execPath, ["tests/support/tls-proxy.ts"], {
      cwd: projectRoot,
      env: { ...process.env, TLS_PROXY_PORT: String(proxyPort), TLS_PROXY_UPSTREAM: servers.map((s) => s.url).join(","), TLS_PROXY_SERVER_NAME: "127.0.0.1" },
      stdio: "inherit",
    });
    await eventually("nginx", () => fetch(`${site}/readyz`).then((r) => (r.ok ? true : undefined), () => undefined), 20_000);
    pool = new Pool({ connectionString: database.url, max: 4, application_name: "academy-scale-test" });
  }, 180_000);

  afterAll(async () => {
    if (proxy && proxy.exitCode === null) {
      const gone = once(proxy, "exit");
      proxy.kill("SIGTERM");
      await gone;
    }
    await Promise.all(servers.map((s) => s.stop()));
    await pool?.end();
    await database?.drop();
    await rm(await logDir, { recursive: true, force: true });
    vi.unstubAllEnvs();
  });

  it("migrates the empty database once though all three started together, and each is ready", async () => {
    const journal = JSON.parse(await readFile(path.join(migrationsFolder, "meta/_journal.json"), "utf8")) as { entries: unknown[] };
    const [applied] = await query<{ n: number }>("select count(*)::int as n from drizzle.__drizzle_migrations");
    expect(applied?.n).toBe(journal.entries.length);
    for (const server of servers) expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  });

  it("takes a session made on one process on the others, and signing out on a third ends it everywhere", async () => {
    const [a, b, c] = servers as [RunningServer, RunningServer, RunningServer];
    const email = `scale-session-${run}@example.com`;
    const address = "10.1.0.1";
    const signUp = await direct(a, "/api/auth/sign-up/email", { address }, { name: "Asha Rao", email, password });
    expect(signUp.status).toBe(200);
    let cookie = sessionCookie(signUp) ?? "";
    expect(cookie).toMatch(/^__Secure-better-auth\.session_token=/);
    // No AUTH_SECRET is set: each process read the one generated into the database.
    expect(await signedInAs(b, cookie)).toBe(email);
    expect(await signedInAs(c, cookie)).toBe(email);

    const [mail] = await eventually(
      "the verification mail",
      async () => {
        const rows = await query<{ links: string[] }>(`select links from mail_outbox where "to" = $1 and subject like 'Confirm your e-mail%'`, [email]);
        return rows.length ? rows : undefined;
      },
      10_000,
    );
    const link = new URL(mail?.links[0] ?? "");
    const verified = await direct(b, `${link.pathname}${link.search}`, { address, cookie });
    expect(verified.status).toBe(302);
    cookie = sessionCookie(verified) ?? cookie;
    expect((await direct(c, "/account", { address, cookie })).status).toBe(200);

    expect((await direct(c, "/api/auth/sign-out", { address, cookie }, {})).status).toBe(200);
    expect(await signedInAs(a, cookie)).toBeNull();
    expect(await signedInAs(b, cookie)).toBeNull();
    const account = await direct(a, "/account", { address, cookie });
    expect(account.status).toBe(302);
    expect(account.headers.get("location")).toMatch(/^\/login/);
  });

  it("trips the sign-in limits at the same counts as one process, however the attempts are spread", async () => {
    // Ten failed sign-ins a quarter of an hour per account (server/auth/index.ts), each from its own address.
    const account = { email: `scale-limit-${run}@example.com` };
    const perAccount: number[] = [];
    for (let i = 0; i < 12; i++) perAccount.push((await signIn(i, account, `10.2.${i}.1`)).status);
    expect(perAccount).toEqual([...Array<number>(10).fill(401), 429, 429]);

    // The per-address rule for /sign-in/email (addressLimits), each attempt for another account. Its first three attempts
    // reach the three processes; the shared counter is then moved on to three short of the limit (150 failed sign-ins one
    // after another are 20 s of deliberate password checks), and the next three, again one per process, use it up.
    const { max } = addressLimits["/sign-in/email"];
    const address = "10.3.0.1";
    const attempt = (i: number) => signIn(i, { email: `scale-address-${run}-${i}@example.com` }, address);
    const perAddress: Response[] = [];
    for (let i = 0; i < 3; i++) perAddress.push(await attempt(i));
    const counters = await query("update throttles set count = $1 where key like $2 and key like $3 returning key", [max - 3, `%${address}%`, "%/sign-in/email"]);
    expect(counters).toHaveLength(1);
    for (let i = 3; i <= 6; i++) perAddress.push(await attempt(i));
    expect(perAddress.map((r) => r.status)).toEqual([...Array<number>(6).fill(401), 429]);
    expect(Number(perAddress.at(-1)?.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("fulfils 200 purchases made at once exactly once each, with one process killed mid-load and webhooks answered by whichever process gets them", async () => {
    const catalog = await loadCatalog(contentDir);
    const paid = catalog.courses.filter((course) => course.price.amount > 0).map((course) => course.id);
    expect(paid.length, "two different paid courses for each person").toBeGreaterThanOrEqual(2);
    // Each person buys two different courses at once, as from two tabs: half as many sign-ups for the same load.
    const people = await pooled(purchases / 2, 12, (i) => createBuyer(site, `scale-${run}`, i, paid[(2 * i) % paid.length] as string));
    const buyers: Buyer[] = Array.from({ length: purchases }, (_, i) => ({
      ...(people[i >> 1] as Buyer),
      courseId: paid[i % paid.length] as string,
      // The sandbox's checkout page answers this machine only; 127/8 is all this machine, one address per purchase.
      address: `127.1.${i >> 8}.${i & 255}`,
    }));

    const victim = servers[2] as RunningServer;
    let accepted = 0;
    let killedAt: number | null = null;
    const outcomes = await Promise.allSettled(
      buyers.map((buyer) =>
        buyCourse(site, buyer, {
          accepted() {
            accepted += 1;
            if (killedAt === null && accepted >= purchases / 3) {
              killedAt = accepted;
              victim.process.kill("SIGKILL");
            }
          },
        }),
      ),
    );
    expect(killedAt).not.toBeNull();
    expect(killedAt).toBeLessThan(purchases);
    await eventually("the killed process to be gone", async () => (victim.process.signalCode === "SIGKILL" ? true : undefined), 5_000);
    // Most buyers finished; the ones whose request was on the killed process saw it fail.
    expect(outcomes.filter((o) => o.status === "fulfilled").length).toBeGreaterThan(purchases / 2);

    // Razorpay's deliveries may land on any process, twice at once: replay every webhook through nginx.
    const [secret] = await query<{ key: string }>("select key from app_roots where id = 'SandboxWebhookSecret'");
    const hooks = await query<{ event_id: string; body: string }>("select event_id, body from sandbox_webhooks");
    const answers = await pooled(hooks.length * 2, 24, async (i) => {
      const hook = hooks[i % hooks.length] as { event_id: string; body: string };
      const response = await fetch(`${site}/api/payments/webhook`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Razorpay-Signature": webhookSignature(secret?.key ?? "", hook.body), "X-Razorpay-Event-Id": hook.event_id },
        body: hook.body,
      });
      return response.status;
    });
    expect(answers.filter((status) => status !== 200)).toEqual([]);

    // What the killed process had claimed (leased webhooks, a mail batch) is finished by the other two once
    // its leases run out (half a minute for a webhook, mailLeaseSeconds for mail): that time passes here.
    await query("update sandbox_webhooks set deliver_at = now() where delivered_at is null and deliver_at > now()");
    await query("update mail_outbox set next_attempt_at = now() where status = 'pending' and next_attempt_at > now()");
    await eventually(
      "every webhook delivered and every mail sent",
      async () => {
        const [left] = await query<{ hooks: number; mail: number }>(
          "select (select count(*)::int from sandbox_webhooks where delivered_at is null) as hooks, (select count(*)::int from mail_outbox where status = 'pending') as mail",
        );
        return left && left.hooks + left.mail === 0 ? true : undefined;
      },
      120_000,
    );
    const violations = await purchaseViolations(query);
    expect(Object.fromEntries(Object.entries(violations).filter(([, v]) => v.count > 0))).toEqual({});
    const [books] = await query<{ captured: number; paid: number }>(
      "select (select count(*)::int from sandbox_payments where status = 'captured') as captured, (select count(*)::int from orders where status = 'paid') as paid",
    );
    // A payment whose answer died with the process is captured without its buyer having seen it.
    expect(books?.captured).toBeGreaterThanOrEqual(accepted);
    expect(books?.paid).toBe(books?.captured);
  });
});
