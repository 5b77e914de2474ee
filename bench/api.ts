// The public API as the CLI and scripts use it: GET /api/v1/courses and GET /api/v1/notes with an
// API key, for a learner with a purchased course and 200 notes, beside /healthz on the same server
// in the same run: throughput and latency at 50 connections (wrk, which saturates the server, so its
// p99 is mostly queueing), then latency at a steady 200 requests a second. The target: p99 ≤ 10 ms.
// The server allows the load
// through its per-credential rate limit (API_RATE_LIMIT), which is still counted in the database
// on every request, as in production.
import { send, type Buyer } from "./buyers.ts";
import type { BenchPostgres } from "./postgres.ts";
import { startServer } from "./server.ts";
import { prepareLearner } from "./signed-in.ts";
import { constantRate, type RateResult } from "./rate.ts";
import { wrk, type WrkResult } from "./wrk.ts";

export interface ApiRun {
  database: string;
  healthz: WrkResult;
  courses: WrkResult;
  notes: WrkResult;
  /** The same two at a steady 200 req/s. */
  coursesAtRate: RateResult;
  notesAtRate: RateResult;
}

/** An API key for the learner, made through the /api-tools form as a person would. */
async function apiKey(url: string, learner: Buyer): Promise<string> {
  const answer = await send(`${url}/api-tools`, learner, { form: { intent: "create-key", name: "bench", scopes: "read", lifetime: "30" } });
  const secret = /value="(acd_[\w-]+)"/.exec(await answer.text())?.[1];
  if (!secret) throw new Error(`making an API key answered ${answer.status}`);
  return secret;
}

async function onDatabase(database: string, port: number, env: Record<string, string>, seconds: number): Promise<ApiRun> {
  const server = await startServer(port, { API_RATE_LIMIT: "1000000", ...env });
  try {
    const learner = await prepareLearner(server.url);
    const key = { authorization: `Bearer ${await apiKey(server.url, learner)}` };
    const headers = [`Authorization: ${key.authorization}`];
    for (const path of ["/api/v1/courses", "/api/v1/notes"]) {
      const check = await fetch(`${server.url}${path}`, { headers: key });
      if (check.status !== 200) throw new Error(`${path} answered ${check.status} to the key`);
    }
    const options = { seconds, connections: 50 };
    return {
      database,
      healthz: wrk("healthz", `${server.url}/healthz`, options),
      courses: wrk("api courses", `${server.url}/api/v1/courses`, { ...options, headers }),
      notes: wrk("api notes", `${server.url}/api/v1/notes?limit=50`, { ...options, headers }),
      coursesAtRate: await constantRate(`${server.url}/api/v1/courses`, { rate: 200, seconds, headers: key }),
      notesAtRate: await constantRate(`${server.url}/api/v1/notes?limit=50`, { rate: 200, seconds, headers: key }),
    };
  } finally {
    await server.stop();
  }
}

export async function apiBench(postgres: BenchPostgres | null, seconds: number): Promise<ApiRun[]> {
  const runs = [await onDatabase("PGlite", 4406, {}, seconds)];
  if (postgres) runs.push(await onDatabase("PostgreSQL", 4407, { DATABASE_URL: postgres.newDatabase() }, seconds));
  return runs;
}

export function printApi(runs: ApiRun[], seconds: number) {
  console.log(`\nThe public API with an API key (wrk, 50 connections, ${seconds} s each); target p99 ≤ 10 ms`);
  for (const run of runs) {
    for (const [label, r] of [
      ["/healthz (reference)", run.healthz],
      ["GET /api/v1/courses", run.courses],
      ["GET /api/v1/notes?limit=50", run.notes],
    ] as const) {
      console.log(`  ${run.database.padEnd(11)} ${label.padEnd(28)} ${String(r.requestsPerSecond).padStart(6)} req/s · p50 ${r.p50Ms} ms · p99 ${r.p99Ms} ms`);
    }
    for (const [label, r] of [
      ["GET /api/v1/courses", run.coursesAtRate],
      ["GET /api/v1/notes?limit=50", run.notesAtRate],
    ] as const) {
      console.log(`  ${run.database.padEnd(11)} ${label.padEnd(28)} at 200 req/s: p50 ${r.p50Ms} ms · p99 ${r.p99Ms} ms · ${r.errors} errors`);
    }
  }
}
