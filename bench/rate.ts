// An open-loop load at a fixed rate: requests start on schedule whether or not earlier ones have
// answered, and each latency counts from its scheduled start, so a stalled server cannot hide its
// queue (wrk's closed loop measures throughput; this measures latency at a given load). The load
// comes as wrk2 sends it, in turn over a set of kept-alive connections (20: many people at a few
// requests a second each, not one client at 200), so a server of several processes gets its share
// of them in each, as it does from browsers; a request whose connection is still busy waits for it,
// and that wait counts.
import { Agent, request } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";

export interface RateResult {
  path: string;
  offeredPerSecond: number;
  completed: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Failed requests and answers other than 2xx. */
  errors: number;
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : Number.NaN);
const round = (ms: number) => Math.round(ms * 100) / 100;

/** One GET on a kept-alive connection; resolves with the status once the whole body has arrived. */
function get(url: string, agent: Agent, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, { agent, headers }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
      response.on("error", reject);
    })
      .on("error", reject)
      .end();
  });
}

export async function constantRate(url: string, options: { rate: number; seconds: number; headers?: Record<string, string>; connections?: number }): Promise<RateResult> {
  // One agent of one socket per connection: the connection a request is given is the one it uses.
  const connections = Array.from({ length: options.connections ?? 20 }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
  const latencies: number[] = [];
  let errors = 0;
  const total = options.rate * options.seconds;
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const scheduled = started + (i * 1000) / options.rate;
    const wait = scheduled - performance.now();
    if (wait > 1) await sleep(wait);
    // Counted from its schedule when sent late, from its sending when sent up to a millisecond early.
    const from = Math.min(scheduled, performance.now());
    inFlight.push(
      get(url, connections[i % connections.length]!, options.headers ?? {})
        .then((status) => {
          if (status >= 300) errors++;
          latencies.push(performance.now() - from);
        })
        .catch(() => {
          errors++;
        }),
    );
  }
  await Promise.all(inFlight);
  for (const agent of connections) agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    path: new URL(url).pathname,
    offeredPerSecond: options.rate,
    completed: latencies.length,
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
    maxMs: round(latencies.at(-1) ?? Number.NaN),
    errors,
  };
}
