// Server rendering with no page cache (PAGE_CACHE_SECONDS=0): what an anonymous page costs when it
// is not cached, the course page above all (target ≥ 500 req/s on PostgreSQL), compressed as browsers ask,
// on PGlite and on PostgreSQL.
import type { RunningServer } from "./server.ts";
import { browserAcceptEncoding, wrk, type WrkResult } from "./wrk.ts";

export const uncachedPaths = ["/", "/courses", "/course/webdevfrontendcourse"];

export function uncachedBench(server: RunningServer, seconds: number): WrkResult[] {
  return uncachedPaths.map((path) => wrk("academy uncached", `${server.url}${path}`, { seconds, connections: 20, headers: [`Accept-Encoding: ${browserAcceptEncoding}`] }));
}

export function printUncached(runs: WrkResult[], database: string, seconds: number) {
  console.log(`\nAnonymous pages rendered on every request on ${database}, PAGE_CACHE_SECONDS=0, compressed as a browser asks (wrk, 1 thread, 20 connections, ${seconds} s each; target for the course page ≥ 500 req/s on PostgreSQL)`);
  for (const r of runs) console.log(`  ${r.path.padEnd(30)} ${String(r.requestsPerSecond).padStart(5)} req/s  p50 ${r.p50Ms} ms  p99 ${r.p99Ms} ms  errors ${r.errors}`);
}
