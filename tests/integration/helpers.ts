import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { existsSync } from "node:fs";
import { cp, mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "pg";
import type { ServerBuild } from "react-router";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { clientIpHeader } from "../../server/auth/index.ts";
import { loadCatalog, type Catalog, type Course } from "../../server/catalog/index.ts";
import { fromPostgres, type Database, type Db } from "../../server/db/client.ts";
import { enrolments, sandboxWebhooks, user as users } from "../../server/db/schema.ts";
import { listMailbox } from "../../server/mail/outbox.ts";
import { completeCheckout, handleWebhook } from "../../server/commerce/index.ts";
import type { SandboxGateway } from "../../server/payments/sandbox.ts";
import { startIdentity, type Identity } from "../../server/identity.ts";
import { createDiskStorage } from "../../server/storage/disk.ts";
import type { FileStorage } from "../../server/storage/index.ts";
import { createHttpApp, type HttpDeps } from "../../server/http/app.ts";
import { loadStaticAssets } from "../../server/http/static-assets.ts";
import { createLogger, type Logger } from "../../server/logger.ts";
import { createPayments, type Payments } from "../../server/payments/index.ts";
import { createDomainChecker, type DnsLookup } from "../../server/websites/index.ts";
import { sourceHash, stampFile } from "../../scripts/source-hash.ts";
import { migratedPostgresTemplate, pgliteCopy } from "../support/database-templates.ts";
import { rememberedPasswordHashing } from "../support/remembered-passwords.ts";

export const projectRoot = path.resolve(import.meta.dirname, "../..");
export const contentDir = path.join(projectRoot, "content");

/** A copy of content/ that a test may break without touching the real one. */
export async function contentCopy(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "academy-content-"));
  await cp(contentDir, dir, { recursive: true });
  return dir;
}

/**
 * The databases the integration suite runs on: always embedded PGlite, and a real PostgreSQL
 * server when TEST_DATABASE_URL is set (CI starts one). `open` gives a new database of that kind
 * with every migration applied, a copy of one migrated once (tests/support/database-templates.ts);
 * `empty` one no migration has touched, for the tests of migrating.
 */
export const databaseKinds: { name: string; open: () => Promise<Database>; empty: () => Promise<Database> }[] = [
  { name: "PGlite", open: () => pgliteCopy("migrated"), empty: () => pgliteCopy("empty") },
  ...(process.env.TEST_DATABASE_URL
    ? [
        {
          name: "PostgreSQL",
          open: async () => freshPostgres(process.env.TEST_DATABASE_URL as string, await migratedPostgresTemplate(process.env.TEST_DATABASE_URL as string)),
          empty: () => freshPostgres(process.env.TEST_DATABASE_URL as string),
        },
      ]
    : []),
];

/** A new database on the test server, empty or a copy of `template`: its URL, and how to drop it when done. */
export async function newPostgresDatabase(serverUrl: string, template?: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `academy_test_${randomBytes(6).toString("hex")}`;
  const admin = async (statement: string) => {
    const client = new Client({ connectionString: serverUrl });
    await client.connect();
    await client.query(statement);
    await client.end();
  };
  await admin(template ? `create database ${name} template ${template}` : `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

/** A new migrated database for each test of the describe block that calls this: the handle of the test running. */
export function migratedDatabaseEach(open: () => Promise<Database>): () => Database {
  let database: Database | undefined;
  beforeEach(async () => {
    database = await open();
    await database.migrate();
  });
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });
  return () => {
    if (!database) throw new Error("The database is open only while a test runs.");
    return database;
  };
}

/** A new database on the test server for one caller, empty or a copy of `template`, dropped again when it is closed. */
async function freshPostgres(serverUrl: string, template?: string): Promise<Database> {
  const created = await newPostgresDatabase(serverUrl, template);
  const database = fromPostgres(created.url);
  return {
    ...database,
    async close() {
      await database.close();
      await created.drop();
    },
  };
}

/** The auth secret of the tests' identity: what signs its cookies and proof-of-work challenges. */
export const testAuthSecret = "test-secret-that-is-long-enough-to-use-0123456789";

/** Identity (key, mail outbox, Better Auth) over a test database, mail kept in the outbox, uploads in a temporary folder. */
async function startTestIdentity(db: Db, catalog: Catalog, publicUrl = "http://academy.test", storage?: FileStorage, logger = createLogger("silent")): Promise<Identity> {
  return startIdentity({
    db,
    logger,
    catalog: () => catalog,
    production: false,
    publicUrl,
    authSecret: testAuthSecret,
    encryptionKey: undefined,
    smtpUrl: undefined,
    mailFrom: "Academy <no-reply@academy.test>",
    mailIntervalMs: 60_000,
    storage: storage ?? createDiskStorage(await mkdtemp(path.join(tmpdir(), "academy-uploads-"))),
    passwordHashing: rememberedPasswordHashing,
  });
}

/** A migrated database of one kind with identity over it, for one describe block, and people to sign up. */
export interface IdentitySuite {
  readonly database: Database;
  readonly db: Db;
  readonly identity: Identity;
  /** A new account through Better Auth, from an address of its own so per-address limits never couple tests. */
  signUp(name?: string): Promise<{ id: string; email: string }>;
  enrol(userId: string, courseId: string, status?: "active" | "revoked"): Promise<void>;
}

function ready<T>(value: T | undefined): T {
  if (value === undefined) throw new Error("The identity suite is used before its beforeAll ran.");
  return value;
}

/** Registers the describe block's beforeAll/afterAll; the catalogue may be given late, as a function. */
export function identitySuite(open: () => Promise<Database>, catalog: Catalog | (() => Catalog)): IdentitySuite {
  let database: Database | undefined;
  let identity: Identity | undefined;
  beforeAll(async () => {
    database = await open();
    await database.migrate();
    identity = await startTestIdentity(database.db, typeof catalog === "function" ? catalog() : catalog);
  });
  afterAll(async () => {
    await identity?.mailWorker.stop();
    await database?.close();
  });
  return {
    get database() {
      return ready(database);
    },
    get db() {
      return ready(database).db;
    },
    get identity() {
      return ready(identity);
    },
    async signUp(name = "Asha Verma") {
      const email = `person-${randomBytes(5).toString("hex")}@example.com`;
      const { user } = await ready(identity).auth.api.signUpEmail({
        body: { name, email, password: "a good long password" },
        headers: new Headers({ [clientIpHeader]: `10.${randomBytes(3).join(".")}` }),
      });
      return { id: user.id, email };
    },
    async enrol(userId, courseId, status = "active") {
      await ready(database).db.insert(enrolments).values({ userId, courseId, status });
    },
  };
}

/** Better Auth's HTTP endpoint as a browser on the test site calls it, from an address of its own: the status, the JSON answer and the cookies it set. */
export async function postToAuthEndpoint(identity: Identity, endpoint: string, body: unknown, cookie?: string) {
  const origin = "http://academy.test";
  const headers = new Headers({ "content-type": "application/json", origin, [clientIpHeader]: `10.${randomBytes(3).join(".")}` });
  if (cookie) headers.set("cookie", cookie);
  const response = await identity.auth.handler(new Request(`${origin}/api/auth${endpoint}`, { method: "POST", headers, body: JSON.stringify(body) }));
  return { status: response.status, body: (await response.json()) as Record<string, unknown>, cookie: response.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ") };
}

/** Verifies the address, asks for a password reset and returns the token from the mailed link. */
export async function mailedResetToken(suite: IdentitySuite, email: string): Promise<string> {
  await suite.db.update(users).set({ emailVerified: true }).where(eq(users.email, email));
  const asked = await postToAuthEndpoint(suite.identity, "/request-password-reset", { email, redirectTo: "/reset-password" });
  if (asked.status !== 200) throw new Error(`Asking for a password reset answered ${asked.status}.`);
  const mail = (await listMailbox(suite.db, email)).find((m) => m.subject.includes("Reset"));
  return new URL(mail?.links[0] ?? "").pathname.split("/").pop() ?? "";
}

export interface TestLesson {
  id: string;
  title?: string;
  preview?: boolean;
}

/** A course as the catalogue gives it, for domain tests: each inner list is one module's lessons, 10 minutes each. */
export function testCourse(id: string, title: string, modules: (string | TestLesson)[][]): Course {
  const built = modules.map((lessons, index) => ({
    title: `Module ${index + 1}`,
    summary: `What module ${index + 1} covers.`,
    objectives: [`Finish module ${index + 1}`],
    lessons: lessons.map((given) => {
      const lesson = typeof given === "string" ? { id: given } : given;
      return { id: lesson.id, title: lesson.title ?? `Lesson ${lesson.id}`, minutes: 10, preview: lesson.preview ?? false, videoEmbedUrl: null };
    }),
  }));
  const lessonCount = built.reduce((sum, m) => sum + m.lessons.length, 0);
  return { id, title, modules: built, lessonCount, totalMinutes: lessonCount * 10 } as unknown as Course;
}

/** A catalogue of these courses with the site details sign-up mail needs; lesson bodies keyed "<course>/<lesson>". */
/** The real content with one free course added, so the free path runs against the same content as everything else. */
export async function catalogWithFreeCourse(): Promise<Catalog> {
  const loaded = await loadCatalog(contentDir);
  const free = { ...(loaded.courses[0] as Course), id: "free-intro", title: "A free introduction", price: { amount: 0, currency: "INR" as const } };
  return { ...loaded, courses: [...loaded.courses, free] };
}

export function testCatalog(courses: Course[], bodies: Record<string, string> = {}): Catalog {
  return {
    site: {
      name: "Academy",
      legalName: "Academy Learning",
      email: "support@academy.test",
      address: { city: "Bengaluru", state: "Karnataka" },
      refund: { windowDays: 7, maxProgressPercent: 25 },
    },
    courses,
    lessonBody: (courseId: string, lessonId: string) => {
      const html = bodies[`${courseId}/${lessonId}`];
      return html === undefined ? undefined : { html, headings: [] };
    },
  } as unknown as Catalog;
}

export const testPaymentSecrets = { keySecret: "sandbox-key-secret-for-tests", webhookSecret: "sandbox-webhook-secret-for-tests" };

/** Commerce over the sandbox gateway, with a clock the test can move. */
export function startTestPayments(
  db: Db,
  catalog: Catalog,
  identity: Identity,
  options: { now?: () => Date; publicUrl?: string } = {},
): Payments {
  return createPayments({
    settings: { provider: "sandbox", ...testPaymentSecrets },
    db,
    logger: createLogger("silent"),
    catalog: () => catalog,
    publicUrl: options.publicUrl ?? "http://academy.test",
    mailQueued: identity.mailWorker.nudge,
    now: options.now,
  });
}

/** The buyer pays an order in the sandbox and the browser's signed callback arrives. */
export async function payInTestSandbox(payments: Payments, order: { providerOrderId: string | null }) {
  const providerOrderId = order.providerOrderId ?? "";
  const callback = await (payments.sandbox as SandboxGateway).pay(providerOrderId, { outcome: "pay", method: "upi" });
  return completeCheckout(payments.shop, {
    kind: "success",
    orderId: providerOrderId,
    paymentId: callback.razorpay_payment_id as string,
    signature: callback.razorpay_signature as string,
  });
}

/** Delivers every webhook the sandbox owes, now, however late it planned them. */
export async function deliverTestWebhooks(db: Db, payments: Payments): Promise<number> {
  await db.update(sandboxWebhooks).set({ deliverAt: sql`now() - interval '1 second'` }).where(sql`${sandboxWebhooks.deliveredAt} is null`);
  let total = 0;
  for (let round = 0; round < 5; round++) {
    total += await (payments.sandbox as SandboxGateway).deliverDueWebhooks(
      async (request) => {
        const answer = await handleWebhook(payments.shop, {
          rawBody: await request.text(),
          signature: request.headers.get("x-razorpay-signature") ?? undefined,
          eventId: request.headers.get("x-razorpay-event-id") ?? undefined,
        });
        return new Response(answer.message, { status: answer.status });
      },
      "http://academy.test/api/payments/webhook",
    );
  }
  return total;
}

/**
 * What is wrong with the build under `root` for tests that run it, or null: missing, or made from
 * other sources than these (its stamp, scripts/stamp-build.ts, differs from their hash), when the
 * tests would pass or fail on old code.
 */
export async function buildProblem(root: string, who: string): Promise<string | null> {
  const stamp = stampFile(root);
  if (!existsSync(path.join(root, "build/server/index.js")) || !existsSync(stamp)) return `No build: run \`npm run build\` before ${who} (npm test does).`;
  if ((await readFile(stamp, "utf8")).trim() === (await sourceHash(root))) return null;
  return `The build is older than the sources: run \`npm run build\` again before ${who} (npm test does).`;
}

let buildChecked: Promise<string | null> | undefined;

/** Throws buildProblem's sentence for the project's build; the sources are hashed once per test file. */
export async function requireCurrentBuild(who: string): Promise<void> {
  buildChecked ??= buildProblem(projectRoot, who);
  const problem = await buildChecked;
  if (problem) throw new Error(problem);
}

/** A resolver to which no domain exists, as to one asked about names nobody registered. */
export const noDomains: DnsLookup = {
  resolve4: (name) => Promise.reject(Object.assign(new Error(`queryA ENOTFOUND ${name}`), { code: "ENOTFOUND" })),
  resolve6: (name) => Promise.reject(Object.assign(new Error(`queryAaaa ENOTFOUND ${name}`), { code: "ENOTFOUND" })),
  resolveCname: (name) => Promise.reject(Object.assign(new Error(`queryCname ENOTFOUND ${name}`), { code: "ENOTFOUND" })),
};

export interface TestApp {
  deps: Omit<HttpDeps, "production">;
  database: Database;
  identity: Identity;
  payments: Payments;
  catalog: Catalog;
  /** A production-mode (false) app over these deps; make a production one with createHttpApp. */
  app: ReturnType<typeof createHttpApp>;
  close(): Promise<void>;
}

/** The whole HTTP app over the production build and an in-memory database, as the server runs it; uploads on disk unless a storage is given; silent unless a logger is given. */
export async function startTestApp({
  publicUrl = "http://academy.test",
  storage: given,
  logger = createLogger("silent"),
  database: open = () => pgliteCopy("migrated"),
}: { publicUrl?: string; storage?: FileStorage; logger?: Logger; database?: () => Promise<Database> } = {}): Promise<TestApp> {
  await requireCurrentBuild("the HTTP integration tests");
  const database = await open();
  await database.migrate();
  const catalog = await loadCatalog(contentDir);
  const storage = given ?? createDiskStorage(await mkdtemp(path.join(tmpdir(), "academy-uploads-")));
  const identity = await startTestIdentity(database.db, catalog, publicUrl, storage, logger);
  const payments = startTestPayments(database.db, catalog, identity);
  const deps = {
    dev: false,
    publicUrl,
    pageCacheSeconds: 60,
    apiRateLimit: 120,
    siteOrigins: [publicUrl],
    proxyHops: 0,
    identity,
    payments,
    storage,
    hosting: createDomainChecker({ target: { ipv4: ["192.0.2.10"], ipv6: [], wwwTarget: null }, lookup: noDomains }),
    googleEnabled: false,
    analyticsId: null,
    logger,
    catalog: () => catalog,
    database,
    build: (await import(path.join(projectRoot, "build/server/index.js"))) as ServerBuild,
    assets: await loadStaticAssets(path.join(projectRoot, "build/client")),
  };
  return {
    deps,
    database,
    identity,
    payments,
    catalog,
    app: createHttpApp({ ...deps, production: false }),
    async close() {
      await identity.mailWorker.stop();
      await database.close();
    },
  };
}

/** Rows for `count` paid orders of one course at ₹6,999, for tests of a long history: insert them in one statement. */
export function paidCourseOrderRows(userId: string, courseId: string, count: number, options: { keyPrefix: string; createdAt: (i: number) => Date }) {
  return Array.from({ length: count }, (_, i) => ({
    userId,
    courseId,
    title: `Order ${i}`,
    currency: "INR",
    amount: 699_900,
    taxableAmount: 593_136,
    taxAmount: 106_764,
    taxRatePercent: 18,
    taxMode: "inclusive" as const,
    provider: "sandbox" as const,
    status: "paid" as const,
    idempotencyKey: `${options.keyPrefix}${String(i).padStart(6, "0")}`,
    createdAt: options.createdAt(i),
  }));
}
