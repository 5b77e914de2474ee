import cluster, { type Worker } from "node:cluster";
import { AggregatorRegistry, type PrometheusContentType, type Registry } from "prom-client";

/**
 * A scrape lands on whichever worker accepted the connection, but must describe the whole machine:
 * that worker asks the primary, which collects every worker's registry (prom-client's own IPC
 * protocol) and answers with the aggregate.
 */
const requestType = "academy:metrics-request";
const answerType = "academy:metrics-answer";

interface MetricsRequest {
  type: typeof requestType;
  id: number;
}

type MetricsAnswer = { type: typeof answerType; id: number } & ({ text: string } | { error: string });

const isMessage = <T extends { type: string }>(message: unknown, type: T["type"]): message is T =>
  typeof message === "object" && message !== null && (message as { type?: unknown }).type === type;

/** In the primary: answers each worker's request with every worker's metrics aggregated. */
export function answerMetricsRequests(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on("message", (worker: Worker, message: unknown) => {
    if (!isMessage<MetricsRequest>(message, requestType)) return;
    // A worker that went away meanwhile needs no answer: the callback takes the send error instead of an 'error' event.
    const answer = (body: { text: string } | { error: string }) => worker.send({ type: answerType, id: message.id, ...body } satisfies MetricsAnswer, () => {});
    aggregator.clusterMetrics().then(
      (text) => answer({ text }),
      (error: Error) => answer({ error: error.message }),
    );
  });
}

/**
 * In a worker: the registry the primary collects from this process, and the function that asks the
 * primary for the machine's metrics, failing after `timeoutMs` without an answer.
 */
export function workerMetrics(timeoutMs: number): { registry: Registry; machine: () => Promise<string> } {
  // Constructing an AggregatorRegistry is what makes prom-client answer the primary's collections in a worker.
  const registry = new AggregatorRegistry<PrometheusContentType>();
  AggregatorRegistry.setRegistries(registry);
  const waiting = new Map<number, (answer: MetricsAnswer) => void>();
  let lastId = 0;
  process.on("message", (message: unknown) => {
    if (isMessage<MetricsAnswer>(message, answerType)) waiting.get(message.id)?.(message);
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
