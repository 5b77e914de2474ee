import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { cp, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { Client } from "pg";
import type { ServerBuild } from "react-router";
import { loadCatalog, type Catalog } from "../../server/catalog/index.ts";
import { fromPglite, fromPostgres, type Database, type Db } from "../../server/db/client.ts";
import { startIdentity, type Identity } from "../../server/identity.ts";
import { createDiskStorage } from "../../server/storage/index.ts";
import { createHttpApp, type HttpDeps } from "../../server/http/app.ts";
import { loadStaticAssets } from "../../server/http/static-assets.ts";
import { createLogger } from "../../server/logger.ts";
import { createPayments, type Payments } from "../../server/payments/index.ts";

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
 * server when TEST_DATABASE_URL is set (CI starts one).
 */
export const databaseKinds: { name: string; open: () => Promise<Database> }[] = [
  { name: "PGlite", open: async () => fromPglite(await PGlite.create()) },
  ...(process.env.TEST_DATABASE_URL ? [{ name: "PostgreSQL", open: () => freshPostgres(process.env.TEST_DATABASE_URL as string) }] : []),
];

/** A new, empty database on the test server for one caller, dropped again when it is closed. */
async function freshPostgres(serverUrl: string): Promise<Database> {
  const name = `academy_test_${randomBytes(6).toString("hex")}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = fromPostgres(url.toString());
  return {
    ...database,
    async close() {
      await database.close();
      const cleanup = new Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

/** Identity (key, mail outbox, Better Auth) over a test database, mail kept in the outbox. */
export async function startTestIdentity(db: Db, catalog: Catalog, publicUrl = "http://academy.test"): Promise<Identity> {
  return startIdentity({
    db,
    logger: createLogger("silent"),
    catalog: () => catalog,
    production: false,
    publicUrl,
    authSecret: "test-secret-that-is-long-enough-to-use-0123456789",
    encryptionKey: undefined,
    smtpUrl: undefined,
    mailFrom: "Academy <no-reply@academy.test>",
    mailIntervalMs: 60_000,
  });
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

/** The whole HTTP app over the production build and an in-memory database, as the server runs it. */
export async function startTestApp(): Promise<TestApp> {
  const buildDir = path.join(projectRoot, "build");
  if (!existsSync(path.join(buildDir, "server/index.js"))) {
    throw new Error("No build: run `npm run build` before the HTTP integration tests (npm test does).");
  }
  const database = fromPglite(await PGlite.create());
  await database.migrate();
  const catalog = await loadCatalog(contentDir);
  const identity = await startTestIdentity(database.db, catalog);
  const payments = startTestPayments(database.db, catalog, identity);
  const deps = {
    dev: false,
    publicUrl: "http://academy.test",
    pageCacheSeconds: 60,
    trustProxy: false,
    identity,
    payments,
    storage: createDiskStorage(await mkdtemp(path.join(tmpdir(), "academy-uploads-"))),
    googleEnabled: false,
    logger: createLogger("silent"),
    catalog: () => catalog,
    database,
    build: (await import(path.join(buildDir, "server/index.js"))) as ServerBuild,
    assets: await loadStaticAssets(path.join(buildDir, "client")),
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
