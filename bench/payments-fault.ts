// `npx node bench/payments-fault.ts`, or `BENCH_ONLY=payments-fault npm run bench`: kill -9 the server while
// BENCH_PURCHASES (200) buyers pay in the sandbox at once, restart it on the same data, let the sandbox redeliver
// its webhooks, then check in the database that every payment the provider captured is paid, enrolled and
// receipted exactly once and that nothing is half-written. Reported, never asserted in tests; exits 1 when an
// invariant fails. Runs on a throwaway PostgreSQL cluster when /usr/lib/postgresql/*/bin exists, else (or with
// BENCH_PGLITE=1) on embedded PGlite.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { PGlite } from "@electric-sql/pglite";
import { Client, Pool } from "pg";
import { loadCatalog } from "../server/catalog/index.ts";
import { purchaseViolations } from "../tests/support/purchase-invariants.ts";
import { buyCourse, createBuyer, pooled, type Buyer, type PurchaseStage } from "./buyers.ts";
import { root, startServer, type RunningServer } from "./server.ts";
import { freePort } from "../tests/support/free-port.ts";

const purchases = Number(process.env.BENCH_PURCHASES ?? 200);
/** Our own connections to PostgreSQL carry this name, so we can tell them from the server's. */
const ourApplicationName = "payments-fault-bench";

type Row = Record<string, unknown>;
type Query = <T extends Row>(text: string) => Promise<T[]>;

interface Store {
  /** Which database, for the report. */
  version: string;
  /** What the server needs besides DATA_DIR to use this database. */
  env: Record<string, string>;
  /** Queries while the server runs; only PostgreSQL has them (a PGlite directory has one owner at a time). */
  live: Query | undefined;
  /** Runs `read` against the database; with PGlite only while the server is stopped. */
  read<T>(read: (query: Query) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The server under test; restarted on the same data, so cleanup stops whichever one runs last. */
interface App {
  current: RunningServer | undefined;
  start(): Promise<RunningServer>;
}

function restartable(port: number, env: Record<string, string>, logFile: string): App {
  const app: App = {
    current: undefined,
    start: async () => (app.current = await startServer(port, env, { logFile })),
  };
  return app;
}

/** What the buyers' clients saw. */
interface ClientTally {
  ordered: number;
  accepted: number;
  acceptedBeforeKill: number;
  calledBack: number;
  failed: Record<PurchaseStage, number>;
  errors: Record<string, number>;
}

export interface FaultResult {
  date: string;
  database: string;
  purchases: number;
  buyersSeconds: number;
  killTarget: number;
  killedMidway: boolean;
  killedAfterSeconds: number;
  clients: ClientTally;
  /** Payments the provider captured, as its books said right after the kill, and how many of their orders were not yet paid. */
  atKill: { captured: number; unpaid: number };
  restartReadySeconds: number;
  /** From the restart to every captured payment's order being paid; null when that did not happen in time. */
  recoverySeconds: number | null;
  webhooks: { queued: number; redelivered: number; owed: number };
  orders: Record<string, number>;
  captured: number;
  paid: number;
  violations: Record<string, { count: number; examples: string[] }>;
  serverLog: Record<string, number>;
  ok: boolean;
  totalSeconds: number;
}

const seconds = (ms: number) => Math.round(ms / 100) / 10;

/** The newest installed PostgreSQL's bin directory, if any. */
function postgresBin(): string | undefined {
  const base = "/usr/lib/postgresql";
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base).filter((v) => existsSync(path.join(base, v, "bin", "postgres")));
  const newest = versions.toSorted((a, b) => Number.parseFloat(a) - Number.parseFloat(b)).at(-1);
  return newest && path.join(base, newest, "bin");
}

/** A throwaway cluster as .ci/run starts one: own directory and port, trust auth, run as `postgres` when we are root. */
async function startPostgres(bin: string): Promise<Store> {
  const dir = mkdtempSync(path.join(tmpdir(), "academy-fault-pg-"));
  const asRoot = process.getuid?.() === 0;
  const run = (command: string) => {
    const result = asRoot
      ? spawnSync("su", ["postgres", "-c", command], { cwd: "/", encoding: "utf8" })
      : spawnSync("sh", ["-c", command], { encoding: "utf8" });
    if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr || result.stdout}`);
  };
  const port = await freePort();
  let started = false;
  try {
    if (asRoot) spawnSync("chown", ["postgres", dir]);
    run(`${bin}/initdb -D ${dir}/data -U postgres --auth=trust -E UTF8`);
    run(`${bin}/pg_ctl -D ${dir}/data -o '-p ${port} -k ${dir} -c listen_addresses=127.0.0.1' -l ${dir}/log -w start`);
    started = true;
    const admin = new Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
    await admin.connect();
    await admin.query("create database academy");
    await admin.end();
  } catch (error) {
    if (started) run(`${bin}/pg_ctl -D ${dir}/data -m fast stop`);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const url = `postgres://postgres@127.0.0.1:${port}/academy`;
  const pool = new Pool({ connectionString: url, max: 1, application_name: ourApplicationName });
  const query: Query = async <T extends Row>(text: string) => (await pool.query<T>(text)).rows;
  const [{ version } = { version: "?" }] = await query<{ version: string }>("select current_setting('server_version') as version");
  return {
    version: `PostgreSQL ${version}`,
    env: { DATABASE_URL: url },
    live: query,
    read: (read) => read(query),
    async close() {
      await pool.end();
      run(`${bin}/pg_ctl -D ${dir}/data -m fast stop`);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The server's own embedded database in DATA_DIR/db, opened only while the server is down. */
function pgliteStore(dataDir: string): Store {
  return {
    version: "PGlite (embedded)",
    env: {},
    live: undefined,
    async read(read) {
      const db = await PGlite.create(path.join(dataDir, "db"));
      try {
        return await read(async <T extends Row>(text: string) => (await db.query<T>(text)).rows);
      } finally {
        await db.close();
      }
    },
    close: async () => {},
  };
}

/** A short reason for the tally: the socket error code when the kill cut the connection. */
function reason(error: unknown): string {
  const cause = (error as { cause?: { code?: string } }).cause;
  return cause?.code ?? (error as Error).message.slice(0, 80);
}

/** One purchase, tallied by how far it got. */
async function purchase(url: string, buyer: Buyer, tally: ClientTally, onAccepted: () => void): Promise<void> {
  let stage: PurchaseStage = "confirm";
  try {
    await buyCourse(url, buyer, {
      reached: (next) => {
        if (next === "checkout") tally.ordered += 1;
        stage = next;
      },
      accepted: () => {
        tally.accepted += 1;
        onAccepted();
      },
    });
    tally.calledBack += 1;
  } catch (error) {
    tally.failed[stage] += 1;
    const key = `${stage}: ${reason(error)}`;
    tally.errors[key] = (tally.errors[key] ?? 0) + 1;
  }
}

/** Fires every purchase at once and kill -9s the server once `killAfter` payments were accepted. */
async function purchasesUntilKilled(server: RunningServer, buyers: Buyer[], killAfter: number) {
  const tally: ClientTally = { ordered: 0, accepted: 0, acceptedBeforeKill: 0, calledBack: 0, failed: { confirm: 0, checkout: 0, callback: 0 }, errors: {} };
  const started = performance.now();
  const exited = once(server.process, "exit");
  let killedAt: number | undefined;
  const kill = () => {
    if (killedAt !== undefined) return;
    killedAt = performance.now();
    tally.acceptedBeforeKill = tally.accepted;
    server.process.kill("SIGKILL");
  };
  const onAccepted = () => {
    if (tally.accepted >= killAfter) kill();
  };
  await Promise.all(buyers.map((buyer) => purchase(server.url, buyer, tally, onAccepted)));
  const killedMidway = killedAt !== undefined;
  kill(); // Too few payments went through to reach the target: crash now, after the last one.
  await exited;
  return { tally, killedMidway, killedAfterSeconds: seconds((killedAt ?? started) - started) };
}

/** Waits until PostgreSQL has dropped the killed server's connections, so nothing it sent is still committing. */
async function waitForOrphanedSessions(query: Query): Promise<void> {
  for (let tries = 0; tries < 100; tries++) {
    const [row] = await query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity where datname = current_database() and backend_type = 'client backend' and application_name <> '${ourApplicationName}'`,
    );
    if (row?.n === 0) return;
    await sleep(100);
  }
}

/** How many payments the provider captured, and how many of their orders are paid. */
const capturedAndPaidSql = `select count(*)::int as captured, count(*) filter (where o.status = 'paid')::int as paid
  from sandbox_payments sp left join orders o on o.provider_order_id = sp.order_id where sp.status = 'captured'`;

async function capturedAndPaid(query: Query): Promise<{ captured: number; paid: number }> {
  const [row] = await query<{ captured: number; paid: number }>(capturedAndPaidSql);
  return row ?? { captured: 0, paid: 0 };
}

/** Orders paid so far: from the database, or with PGlite from the receipts in the development mailbox (one per fulfilment). */
async function paidSoFar(store: Store, url: string): Promise<number> {
  if (store.live) return (await capturedAndPaid(store.live)).paid;
  try {
    const mails = (await (await fetch(`${url}/dev/mailbox.json`, { signal: AbortSignal.timeout(10_000) })).json()) as { subject: string }[];
    return mails.filter((m) => m.subject.startsWith("Your receipt for ")).length;
  } catch {
    return 0;
  }
}

/** The restarted server must stay up until we stop it: an exit of its own would pass for lost orders. */
function assertRunning(server: RunningServer | undefined): void {
  const { exitCode, signalCode } = server?.process ?? {};
  if (exitCode !== null || signalCode !== null) throw new Error(`the restarted server exited on its own (${signalCode ?? `code ${exitCode}`})`);
}

/** Milliseconds from `since` until `captured` orders are paid, or null at the deadline. */
async function waitUntilPaid(store: Store, server: RunningServer, captured: number, since: number, deadline: number): Promise<number | null> {
  while (performance.now() < deadline) {
    assertRunning(server);
    if ((await paidSoFar(store, server.url)) >= captured) return performance.now() - since;
    await sleep(250);
  }
  return null;
}

async function webhooksOwed(query: Query): Promise<number> {
  const [row] = await query<{ n: number }>("select count(*)::int as n from sandbox_webhooks where delivered_at is null");
  return row?.n ?? 0;
}

/**
 * Lets the sandbox deliver every webhook it still owes (leases taken before the kill run out after
 * 30 s), then stops the server; returns how many it still owes at the deadline. With PGlite the
 * queue can be read only with the server down, so it stops, looks, and restarts until done.
 */
async function drainWebhooks(app: App, store: Store, deadline: number): Promise<number> {
  if (store.live) {
    while ((await webhooksOwed(store.live)) > 0 && performance.now() < deadline) {
      assertRunning(app.current);
      await sleep(250);
    }
    await app.current?.stop();
    return webhooksOwed(store.live);
  }
  for (;;) {
    await sleep(5000);
    assertRunning(app.current);
    await app.current?.stop();
    const left = await store.read(webhooksOwed);
    if (left === 0 || performance.now() >= deadline) return left;
    await app.start();
  }
}

async function checkInvariants(query: Query) {
  const violations = await purchaseViolations(query);
  const orders = Object.fromEntries(
    (await query<{ status: string; n: number }>("select status, count(*)::int as n from orders group by status order by status")).map((r) => [r.status, r.n]),
  );
  const [hooks] = await query<{ queued: number; redelivered: number }>(
    "select count(*)::int as queued, count(*) filter (where attempts > 1)::int as redelivered from sandbox_webhooks",
  );
  return { violations, orders, hooks: hooks ?? { queued: 0, redelivered: 0 }, ...(await capturedAndPaid(query)) };
}

/** Warnings and errors the server logged (pino JSON lines), counted by message. */
function serverLogSummary(file: string): Record<string, number> {
  const counts: Record<string, number> = {};
  const text = existsSync(file) ? readFileSync(file, "utf8") : "";
  for (const json of text.split("\n")) {
    if (!json.startsWith("{")) continue;
    const entry = JSON.parse(json) as { level: number; msg?: string; err?: { message?: string } };
    if (entry.level < 40) continue;
    const key = `${entry.level >= 50 ? "error" : "warn"}: ${entry.msg ?? ""}${entry.err?.message ? ` (${entry.err.message.slice(0, 120)})` : ""}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

function line(label: string, text: string): void {
  console.log(`  ${label.padEnd(34)}${text}`);
}

function printReport(r: FaultResult): void {
  const c = r.clients;
  console.log(`\nPayments under kill -9 (${r.database}, ${r.purchases} concurrent sandbox purchases)`);
  line("buyers signed up and verified", `${r.purchases} in ${r.buyersSeconds} s`);
  line("killed", `${r.killedMidway ? "" : "only after the last purchase, "}${r.killedAfterSeconds} s in, ${c.acceptedBeforeKill} payments accepted (target ${r.killTarget})`);
  line("clients saw", `${c.ordered} orders made · ${c.accepted} payments accepted · ${c.calledBack} callbacks answered`);
  line("client failures", `confirm ${c.failed.confirm} · checkout ${c.failed.checkout} · callback ${c.failed.callback}`);
  for (const [error, n] of Object.entries(c.errors).toSorted((a, b) => b[1] - a[1]).slice(0, 5)) line("", `${n} × ${error}`);
  line("captured by the provider", `${r.atKill.captured} at the kill, ${r.atKill.unpaid} of them not yet paid; ${r.atKill.captured - c.accepted} the buyer never saw`);
  line("restart", `ready in ${r.restartReadySeconds} s; all captured orders paid ${r.recoverySeconds === null ? "NOT within the deadline" : `${r.recoverySeconds} s after the restart began`}`);
  line("webhooks", `${r.webhooks.queued} queued, ${r.webhooks.redelivered} sent more than once (lease ran out or not answered 2xx), ${r.webhooks.owed} still owed`);
  line("orders", Object.entries(r.orders).map(([status, n]) => `${status} ${n}`).join(" · "));
  line("captured payments / paid orders", `${r.captured} / ${r.paid}`);
  console.log("  invariants (violations)");
  for (const [name, v] of Object.entries(r.violations)) {
    console.log(`    ${v.count === 0 ? "  0 ✓" : `${String(v.count).padStart(3)} ✗`}  ${name}${v.count ? `, e.g. ${v.examples.join(", ")}` : ""}`);
  }
  for (const [entry, n] of Object.entries(r.serverLog)) line("server log", `${n} × ${entry}`);
  line("result", `${r.ok ? "all invariants hold" : "INVARIANTS BROKEN"} · ${r.totalSeconds} s in all`);
}

/** The whole scenario; cleans up its server, database and files whatever happens. */
export async function paymentsFault(): Promise<FaultResult> {
  const began = performance.now();
  const work = mkdtempSync(path.join(tmpdir(), "academy-fault-"));
  const dataDir = path.join(work, "data");
  const logFile = path.join(work, "server.log");
  const bin = process.env.BENCH_PGLITE === "1" ? undefined : postgresBin();
  let store: Store | undefined;
  let app: App | undefined;
  try {
    store = bin ? await startPostgres(bin) : pgliteStore(dataDir);
    const port = await freePort();
    const env = { DATA_DIR: dataDir, PUBLIC_URL: `http://127.0.0.1:${port}`, TRUST_PROXY: "true", LOG_LEVEL: "warn", ...store.env };
    app = restartable(port, env, logFile);
    let server = await app.start();
    console.log(`payments-fault: ${store.version}, server at ${server.url}, data in ${dataDir}`);

    const catalog = await loadCatalog(path.join(root, "content"));
    const paidCourses = catalog.courses.filter((course) => course.price.amount > 0).map((course) => course.id);
    const run = randomBytes(3).toString("hex");
    const buyersStarted = performance.now();
    const buyers = await pooled(purchases, 16, (i) => createBuyer(server.url, run, i, paidCourses[i % paidCourses.length] as string));
    const buyersSeconds = seconds(performance.now() - buyersStarted);
    console.log(`payments-fault: ${buyers.length} verified buyers in ${buyersSeconds} s; buying…`);

    const killTarget = Math.round(purchases * (0.3 + Math.random() * 0.2));
    const { tally, killedMidway, killedAfterSeconds } = await purchasesUntilKilled(server, buyers, killTarget);
    if (store.live) await waitForOrphanedSessions(store.live);
    const atKill = await store.read(capturedAndPaid);
    console.log(`payments-fault: killed; ${atKill.captured} captured, ${atKill.captured - atKill.paid} not yet paid; restarting…`);

    const restartedAt = performance.now();
    server = await app.start();
    const restartReadySeconds = seconds(performance.now() - restartedAt);
    const deadline = restartedAt + 90_000;
    const recoveryMs = await waitUntilPaid(store, server, atKill.captured, restartedAt, deadline);
    const owed = await drainWebhooks(app, store, deadline);
    const state = await store.read(checkInvariants);
    const result: FaultResult = {
      date: new Date().toISOString(),
      database: store.version,
      purchases,
      buyersSeconds,
      killTarget,
      killedMidway,
      killedAfterSeconds,
      clients: tally,
      atKill: { captured: atKill.captured, unpaid: atKill.captured - atKill.paid },
      restartReadySeconds,
      recoverySeconds: recoveryMs === null ? null : seconds(recoveryMs),
      webhooks: { ...state.hooks, owed },
      orders: state.orders,
      captured: state.captured,
      paid: state.paid,
      violations: state.violations,
      serverLog: serverLogSummary(logFile),
      ok: recoveryMs !== null && Object.values(state.violations).every((v) => v.count === 0),
      totalSeconds: 0,
    };
    result.totalSeconds = seconds(performance.now() - began);
    printReport(result);
    return result;
  } finally {
    await app?.current?.stop();
    await store?.close();
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  if (!existsSync(path.join(root, "build")) && spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" }).status !== 0) process.exit(1);
  const result = await paymentsFault();
  const outDir = path.join(root, "bench/results");
  mkdirSync(outDir, { recursive: true });
  writeFileSync(path.join(outDir, "payments-fault.json"), JSON.stringify(result, null, 2) + "\n");
  console.log("\nwritten to bench/results/payments-fault.json");
  process.exitCode = result.ok ? 0 : 1;
}
