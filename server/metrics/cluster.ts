import cluster, { type Worker } from "node:cluster";
import { AggregatorRegistry, type PrometheusContentType, Registry } from "prom-client";

/**
 * A scrape lands on whichever worker accepted the connection, but must describe the whole machine:
 * that worker asks the primary, which collects every worker's registry and answers with the aggregate.
 */
const requestType = "academy:metrics-request";
const answerType = "academy:metrics-answer";
/** The primary asks each worker for its own registry, which the worker reports. */
const collectType = "academy:metrics-collect";
const reportType = "academy:metrics-report";

/** How long the primary waits for every worker to report before it gives up on a collection (the asking worker gives up sooner). */
const collectionTimeoutMs = 5_000;

interface MetricsRequest {
  type: typeof requestType;
  id: number;
}

type MetricsAnswer = { type: typeof answerType; id: number } & ({ text: string } | { error: string });

interface CollectRequest {
  type: typeof collectType;
  id: number;
}

/** One metric as `Registry.getMetricsAsJSON` gives it, which `AggregatorRegistry.aggregate` takes. */
interface MetricJson {
  name: string;
  type: string;
  aggregator?: string;
  values: { value: number; labels: Record<string, string | number>; metricName?: string }[];
}

type Snapshot = MetricJson[];

type MetricsReport = { type: typeof reportType; id: number } & ({ metrics: Snapshot } | { error: string });

const isMessage = <T extends { type: string }>(message: unknown, type: T["type"]): message is T =>
  typeof message === "object" && message !== null && (message as { type?: unknown }).type === type;

const valueKey = (value: MetricJson["values"][number]) => `${value.metricName ?? ""} ${JSON.stringify(Object.entries(value.labels).toSorted(([a], [b]) => a.localeCompare(b)))}`;

/** The counters and histograms of `last` added to `retired`; a dead process's gauges describe nothing any more. */
function retire(retired: Snapshot, last: Snapshot): Snapshot {
  const byName = new Map(retired.map((metric) => [metric.name, metric]));
  for (const metric of last) {
    if (metric.type !== "counter" && metric.type !== "histogram") continue;
    const sums = new Map((byName.get(metric.name)?.values ?? []).map((value) => [valueKey(value), { ...value }]));
    for (const value of metric.values) {
      const sum = sums.get(valueKey(value));
      if (sum) sum.value += value.value;
      else sums.set(valueKey(value), { ...value });
    }
    byName.set(metric.name, { ...metric, values: [...sums.values()] });
  }
  return [...byName.values()];
}

/**
 * In the primary: answers each worker's request with every worker's metrics aggregated. A worker
 * that dies leaves its counters and histograms as it last reported them, so totals never fall when
 * a process is replaced (only what it counted after its last report is lost).
 */
export function answerMetricsRequests(): void {
  /** Each live worker's metrics as it last reported them, by worker id. */
  const latest = new Map<number, Snapshot>();
  let retired: Snapshot = [];
  /** Collections under way, by id: each settles a worker's part with its report, or with nothing when it died. */
  const collections = new Map<number, (worker: Worker, report?: MetricsReport) => void>();
  let lastId = 0;

  const collect = () =>
    new Promise<string>((resolve, reject) => {
      const id = ++lastId;
      const workers = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker?.isConnected() === true);
      const waiting = new Set(workers.map((worker) => worker.id));
      const finish = (error?: Error) => {
        clearTimeout(timer);
        collections.delete(id);
        if (error) reject(error);
        else AggregatorRegistry.aggregate([retired, ...latest.values()]).metrics().then(resolve, reject);
      };
      const timer = setTimeout(() => finish(new Error(`server processes ${[...waiting].join(", ")} did not report within ${collectionTimeoutMs} ms`)), collectionTimeoutMs);
      collections.set(id, (worker, report) => {
        if (!waiting.delete(worker.id)) return;
        if (report && "error" in report) return finish(new Error(report.error));
        if (report) latest.set(worker.id, report.metrics);
        if (waiting.size === 0) finish();
      });
      if (waiting.size === 0) finish();
      // A worker that went away meanwhile is settled by its exit; the callback takes the send error instead of an 'error' event.
      for (const worker of workers) worker.send({ type: collectType, id } satisfies CollectRequest, () => {});
    });

  cluster.on("exit", (worker: Worker) => {
    const last = latest.get(worker.id);
    latest.delete(worker.id);
    if (last) retired = retire(retired, last);
    for (const settle of collections.values()) settle(worker);
  });
  cluster.on("message", (worker: Worker, message: unknown) => {
    if (isMessage<MetricsReport>(message, reportType)) return collections.get(message.id)?.(worker, message);
    if (!isMessage<MetricsRequest>(message, requestType)) return;
    const answer = (body: { text: string } | { error: string }) => worker.send({ type: answerType, id: message.id, ...body } satisfies MetricsAnswer, () => {});
    collect().then(
      (text) => answer({ text }),
      (error: Error) => answer({ error: error.message }),
    );
  });
}

/** From a worker; a primary that went away needs no report: the callback takes the send error instead of an 'error' event. */
const report = (message: MetricsReport) => process.send?.(message, undefined, {}, () => {});

/**
 * In a worker: the registry the primary collects from this process, and the function that asks the
 * primary for the machine's metrics, failing after `timeoutMs` without an answer.
 */
export function workerMetrics(timeoutMs: number): { registry: Registry<PrometheusContentType>; machine: () => Promise<string> } {
  const registry = new Registry<PrometheusContentType>();
  const waiting = new Map<number, (answer: MetricsAnswer) => void>();
  let lastId = 0;
  process.on("message", (message: unknown) => {
    if (isMessage<MetricsAnswer>(message, answerType)) waiting.get(message.id)?.(message);
    if (isMessage<CollectRequest>(message, collectType)) {
      const { id } = message;
      registry.getMetricsAsJSON().then(
        (metrics) => report({ type: reportType, id, metrics: metrics as unknown as Snapshot }),
        (error: Error) => report({ type: reportType, id, error: error.message }),
      );
    }
  });
  const machine = () =>
    new Promise<string>((resolve, reject) => {
      const id = ++lastId;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error(`The server processes did not send their metrics within ${timeoutMs} ms.`));
      }, timeoutMs);
      waiting.set(id, (answer) => {
        clearTimeout(timer);
        waiting.delete(id);
        if ("text" in answer) resolve(answer.text);
        else reject(new Error(`The server processes' metrics could not be collected: ${answer.error}`));
      });
      process.send?.({ type: requestType, id } satisfies MetricsRequest);
    });
  return { registry, machine };
}
