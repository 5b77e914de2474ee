import cluster, { type Worker } from "node:cluster";
import { ConfigError, loadConfig } from "./config.ts";
import { createLogger } from "./logger.ts";

/** WEB_CONCURRENCY from the validated configuration; a bad configuration exits here with its message, before any worker starts. */
export function workerCount(environment: Record<string, string | undefined>): number {
  try {
    return loadConfig(environment).webConcurrency;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

/**
 * WEB_CONCURRENCY=N: N server processes share the port (Node's cluster hands each connection to
 * one of them) and PostgreSQL holds everything they share. This process only supervises: a worker
 * that dies after it started listening is replaced; one that fails before it ever listened stops
 * them all, since a restart does not cure a bad database URL or a schema from a newer version.
 * SIGTERM or SIGINT is passed on, and each worker drains as a single process does.
 */
export async function superviseWorkers(options: { environment: Record<string, string | undefined>; workers: number; exec: string }): Promise<void> {
  const config = loadConfig(options.environment);
  const logger = createLogger(config.logLevel);
  // A scrape lands on one worker, which asks here for every worker's metrics; prom-client is loaded only for that.
  if (config.metricsToken) (await import("./metrics/cluster.ts")).answerMetricsRequests();
  const listening = new WeakSet<Worker>();
  let stopping = false;
  let failed = false;
  cluster.setupPrimary({ exec: options.exec });
  const fork = () => cluster.fork(options.environment);

  cluster.on("listening", (worker) => listening.add(worker));
  cluster.on("exit", (worker, code, signal) => {
    const alive = Object.keys(cluster.workers ?? {}).length;
    if (stopping) {
      if (alive === 0) process.exit(failed ? 1 : 0);
      return;
    }
    if (!listening.has(worker)) {
      logger.error({ pid: worker.process.pid, code, signal }, "a server process failed to start; stopping the others");
      failed = true;
      stop("start-up failure");
      if (alive === 0) process.exit(1);
      return;
    }
    logger.warn({ pid: worker.process.pid, code, signal }, "a server process died; starting another");
    fork();
  });

  const stop = (reason: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ reason }, "stopping the server processes");
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));

  logger.info({ workers: options.workers }, "starting server processes");
  for (let i = 0; i < options.workers; i++) fork();
}
