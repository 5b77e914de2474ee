import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { Database } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import { readBacklog, type Backlog } from "./backlog.ts";
import { workerMetrics } from "./cluster.ts";

export interface Metrics {
  /** Counts one answered request under its method, route pattern and status. */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  /**
   * The Prometheus text for one scrape: this machine's processes together (every worker's, when
   * there are several) and the backlogs in the database now. Rejects when the workers do not answer.
   */
  scrape(): Promise<string>;
  contentType: string;
}

const prefix = "academy_";
/** How long a scrape waits for the other workers, and for the backlog counts. */
const collectionTimeoutMs = 2_000;
const backlogTimeoutMs = 1_000;

/**
 * The metrics of one server process. Everything counted per process lives in one registry, which
 * the primary sums across workers (prom-client's default metrics carry their own aggregators); the
 * backlogs, the same whichever process reads them, sit in a second one read only by the process
 * that answers the scrape, so a scrape asks the database once however many workers there are.
 */
export function createMetrics(deps: { database: Database; sandboxWebhooks: boolean; logger: Logger; worker: boolean }): Metrics {
  const cluster = deps.worker ? workerMetrics(collectionTimeoutMs) : undefined;
  const own = cluster?.registry ?? new Registry();
  collectDefaultMetrics({ register: own, prefix });
  const requests = new Counter({
    name: `${prefix}http_requests_total`,
    help: "HTTP requests answered, by method, route pattern and status; /metrics itself is not counted.",
    labelNames: ["method", "route", "status"] as const,
    registers: [own],
  });
  const durations = new Histogram({
    name: `${prefix}http_request_duration_seconds`,
    help: "Time from a request's arrival to its response, by method and route pattern.",
    labelNames: ["method", "route"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [own],
  });
  const { poolStats } = deps.database;
  if (poolStats) {
    const connections = new Gauge({
      name: `${prefix}db_pool_connections`,
      help: "PostgreSQL pool connections: open (total), open and unused (idle), and queries waiting for one (waiting).",
      labelNames: ["state"] as const,
      registers: [],
      collect() {
        const stats = poolStats();
        this.set({ state: "total" }, stats.total);
        this.set({ state: "idle" }, stats.idle);
        this.set({ state: "waiting" }, stats.waiting);
      },
    });
    const capacity = new Gauge({
      name: `${prefix}db_pool_max_connections`,
      help: "The most PostgreSQL connections the pools may open (DATABASE_POOL_SIZE per process).",
      registers: [],
      collect() {
        this.set(poolStats().max);
      },
    });
    own.registerMetric(connections);
    own.registerMetric(capacity);
  }

  const shared = new Registry();
  let reading: Promise<Backlog> | undefined;
  // The gauges below are collected together: they share one read per scrape.
  const backlog = () => (reading ??= readBacklog(deps.database.db, { webhooks: deps.sandboxWebhooks, timeoutMs: backlogTimeoutMs }).finally(() => (reading = undefined)));
  const backlogGauge = (name: string, help: string, value: (backlog: Backlog) => number) =>
    new Gauge({
      name: `${prefix}${name}`,
      help,
      registers: [shared],
      async collect() {
        this.set(value(await backlog()));
      },
    });
  backlogGauge("mail_outbox_pending", "Mails waiting to be sent, retries included.", (b) => b.mailPending);
  backlogGauge("mail_outbox_failed", "Mails given up on after every attempt failed.", (b) => b.mailFailed);
  backlogGauge("mail_outbox_oldest_pending_seconds", "Age of the oldest mail still to be sent; 0 when none is.", (b) => b.mailOldestPendingSeconds);
  if (deps.sandboxWebhooks) backlogGauge("sandbox_webhooks_pending", "Sandbox payment webhooks not yet delivered.", (b) => b.webhooksPending ?? 0);
  const jobGauge = (name: string, help: string, value: (job: Backlog["jobs"][number]) => number) =>
    new Gauge({
      name: `${prefix}${name}`,
      help,
      labelNames: ["job"],
      registers: [shared],
      async collect() {
        const { jobs } = await backlog();
        this.reset();
        for (const job of jobs) this.set({ job: job.name }, value(job));
      },
    });
  jobGauge("scheduled_job_overdue_seconds", "How long a scheduled job (reminders, clean-up) has been due without a run finishing; 0 when not due.", (j) => j.overdueSeconds);
  jobGauge("scheduled_job_last_run_failed", "1 when the scheduled job's last run failed.", (j) => (j.lastRunFailed ? 1 : 0));

  const machine = cluster?.machine ?? (() => own.metrics());
  return {
    contentType: own.contentType,
    observeRequest(method, route, status, seconds) {
      requests.inc({ method, route, status });
      durations.observe({ method, route }, seconds);
    },
    async scrape() {
      const [processes, backlogs] = await Promise.all([
        machine(),
        // Without the database the process metrics still help: the backlog gauges are left out, not reported as 0.
        shared.metrics().catch((error: unknown) => {
          deps.logger.warn({ err: error }, "the backlog metrics could not be read");
          return "";
        }),
      ]);
      return backlogs ? `${processes}\n${backlogs}` : processes;
    },
  };
}
