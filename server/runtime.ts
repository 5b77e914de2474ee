import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { mkdirSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { type Catalog, ContentError, loadCatalog } from "./catalog/index.ts";
import { type Config, ConfigError, loadConfig } from "./config.ts";
import { type Database, InterruptedRestore, openDatabase, SchemaTooNew } from "./db/client.ts";
import { connectionFailure } from "./db/connection-failure.ts";
import { loadGeneratedSecrets } from "./db/generated-secrets.ts";
import { DatabaseInUse } from "./db/pglite-lock.ts";
import { checkSchema, SchemaMismatch } from "./db/schema-check.ts";
import type { HttpDeps } from "./http/app.ts";
import { isProbePath } from "./http/health.ts";
import { collectWhenQuiet, idleCollectionQuietMs, lastResortCollection } from "./idle-collection.ts";
import { startJobs } from "./jobs/index.ts";
import { startIdentity, type Identity } from "./identity.ts";
import { version } from "./version.ts";
import { createLogger, type Logger } from "./logger.ts";
import { createPayments, type Payments } from "./payments/index.ts";
import { createStorage, type FileStorage } from "./storage/index.ts";
import { createDomainChecker, systemLookup, type DomainChecker } from "./websites/index.ts";

export interface Services {
  config: Config;
  logger: Logger;
  /** Replaced by the dev server when content changes. */
  catalog: { current: Catalog };
  database: Database;
  identity: Identity;
  payments: Payments;
  storage: FileStorage;
  /** Where customers' domains point, for their website pages. */
  hosting: DomainChecker;
  /** Set on SIGTERM: /readyz answers 503 from then on, so a load balancer stops sending before the server stops accepting. */
  health: { draining: boolean };
}

/**
 * Config → logger → content → database with migrations → identity (key, mail, auth). A bad config
 * or content file, or a missing encryption key, exits with its message.
 */
export async function startServices(environment: Record<string, string | undefined> = process.env): Promise<Services> {
  let config: Config;
  let catalog: Catalog;
  try {
    config = loadConfig(environment);
    catalog = await loadCatalog(config.contentDir);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof ContentError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  // A production first start may point DATA_DIR at a folder nobody made yet.
  mkdirSync(config.dataDir, { recursive: true });
  // Checked before the database opens: a bucket we cannot use stops the start with its reason.
  const storage = await createStorage({ s3: config.s3, diskRoot: path.join(config.dataDir, "uploads") }).catch((error: unknown) => {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  });
  logger.info({ storage: storage.kind }, "storage ready");
  const database = await openDatabase(config).catch((error: unknown) => {
    if (!(error instanceof DatabaseInUse || error instanceof InterruptedRestore)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  });
  try {
    await database.migrate();
    await checkSchema(database.db);
  } catch (error) {
    const failure = error instanceof SchemaTooNew || error instanceof SchemaMismatch ? error.message : connectionFailure(error, config.databaseUrl);
    if (!failure) throw error;
    process.stderr.write(`${failure}\n`);
    await database.close();
    process.exit(1);
  }
  logger.info({ database: database.kind }, "database ready");
  const generated = await loadGeneratedSecrets(database.db, path.join(config.dataDir, "secrets.json"));
  const catalogRef = { current: catalog };
  let identity: Identity;
  try {
    identity = await startIdentity({
      db: database.db,
      logger,
      catalog: () => catalogRef.current,
      production: config.isProduction,
      publicUrl: config.publicUrl,
      trustedOrigins: config.siteOrigins,
      authSecret: config.authSecret ?? generated.authSecret,
      encryptionKey: config.encryptionKey,
      previousEncryptionKey: config.encryptionKeyPrevious,
      smtpUrl: config.smtpUrl,
      mailFrom: config.mailFrom,
      storage,
      google: config.google,
    });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    await database.close();
    process.exit(1);
  }
  logger.info({ mail: identity.mailTransport.kind }, "identity ready");
  const payments = createPayments({
    settings:
      config.payments.provider === "sandbox"
        ? { provider: "sandbox", keySecret: generated.sandboxKeySecret, webhookSecret: generated.sandboxWebhookSecret }
        : config.payments,
    db: database.db,
    logger,
    catalog: () => catalogRef.current,
    publicUrl: config.publicUrl,
    mailQueued: identity.mailWorker.nudge,
  });
  logger.info({ provider: payments.shop.provider.kind }, "payments ready");
  const hosting = createDomainChecker({ target: config.hosting.target, lookup: systemLookup(config.hosting.dnsServers) });
  return { config, logger, catalog: catalogRef, database, identity, payments, storage, hosting, health: { draining: false } };
}

/** What the HTTP app takes from the running services, the same for `npm start` and `npm run dev`. */
export function httpDepsOf(services: Services) {
  const { config } = services;
  return {
    publicUrl: config.publicUrl,
    apiRateLimit: config.apiRateLimit,
    siteOrigins: config.siteOrigins,
    proxyHops: config.proxyHops,
    logger: services.logger,
    catalog: () => services.catalog.current,
    database: services.database,
    identity: services.identity,
    payments: services.payments,
    storage: services.storage,
    hosting: services.hosting,
    googleEnabled: config.google !== undefined,
    analyticsId: config.analyticsId,
    draining: () => services.health.draining,
  } satisfies Partial<HttpDeps>;
}

/**
 * Listens on HOST:PORT and shuts down gracefully on SIGTERM/SIGINT: not ready at once, idle
 * connections closed and every later response sent with `Connection: close`; then after
 * SHUTDOWN_DELAY_MS stop accepting, let in-flight requests finish (up to SHUTDOWN_TIMEOUT_MS) and
 * close the database.
 */
export function listen(
  services: Services,
  handler: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>,
): Promise<Server> {
  const { config, logger, database } = services;
  // `npm start` runs Node with --expose-gc for this (and without V8's own memory reducer, decision 036);
  // without the flag memory is left to V8. The last-resort flavour also returns the freed pages to the
  // operating system; a regular one keeps them.
  const { gc } = globalThis;
  const collector = gc
    ? collectWhenQuiet(handler, { collect: lastResortCollection(gc), quietMs: idleCollectionQuietMs, isProbe: (req) => isProbePath(req.url) })
    : null;
  const serve = collector?.handler ?? handler;
  // Handlers still running, also for a client that has gone: the database stays open until they end.
  const handling = new Set<Promise<void>>();
  // Responses not yet sent in full: after SIGTERM each tells its client to close the connection, and any still here when time is up were cut.
  const unfinished = new Set<ServerResponse>();
  let stopping = false;
  const server = createServer((req, res) => {
    unfinished.add(res);
    res.once("close", () => unfinished.delete(res));
    if (stopping) lastOnConnection(res);
    const handled = serve(req, res);
    if (!handled) return;
    handling.add(handled);
    // Settled either way; a failed handler is the HTTP layer's to report, not a reason to crash here.
    const done = () => void handling.delete(handled);
    handled.then(done, done);
  });
  const jobs = startJobs({
    db: database.db,
    site: () => services.catalog.current.site,
    publicUrl: config.publicUrl,
    logger,
    now: services.payments.shop.now,
    mailQueued: services.identity.mailWorker.nudge,
  });
  server.keepAliveTimeout = 65_000;
  /** The connection closes once this response is sent, so a keep-alive client sends its next request elsewhere. */
  const lastOnConnection = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader("Connection", "close");
    else res.once("finish", () => server.closeIdleConnections());
  };
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    services.health.draining = true;
    collector?.stop();
    logger.info({ signal, delayMs: config.shutdownDelayMs }, "shutting down");
    for (const res of unfinished) lastOnConnection(res);
    server.closeIdleConnections();
    setTimeout(drain, config.shutdownDelayMs);
  };
  /** Stop accepting, let in-flight requests finish (up to SHUTDOWN_TIMEOUT_MS) and their handlers end, stop the workers, close the database. */
  const drain = () => {
    const force = setTimeout(() => {
      // Connections still open with no request in flight (a client that never finished sending one) close without a warning.
      if (unfinished.size > 0) logger.warn({ requests: unfinished.size }, "in-flight requests did not finish in time; closing them");
      server.closeAllConnections();
    }, config.shutdownTimeoutMs);
    force.unref();
    server.close(() => {
      void Promise.race([Promise.allSettled(handling), sleep(config.shutdownTimeoutMs, undefined, { ref: false })])
        .then(() => services.payments.stop())
        .then(() => jobs.stop())
        .then(() => services.identity.mailWorker.stop())
        .then(() => database.close())
        .then(
        () => {
          logger.info("stopped");
          process.exit(0);
        },
        (error: unknown) => {
          logger.error({ err: error }, "closing the database failed");
          process.exit(1);
        },
      );
    });
    server.closeIdleConnections();
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
  return new Promise((resolve) => {
    server.listen(config.port, config.host, () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : config.port;
      logger.info({ port, host: config.host, version }, "listening");
      // For the person who started it; stdout carries only JSON log lines, as start-up failures' sentences go to stderr too.
      // PUBLIC_URL's default names the configured port, which for PORT=0 the system chose only now.
      const site = config.publicUrl === `http://localhost:${config.port}` ? `http://localhost:${port}` : config.publicUrl;
      process.stderr.write(`\nAcademy is running at ${site} (listening on ${config.host}:${port})\n\n`);
      resolve(server);
    });
  });
}
