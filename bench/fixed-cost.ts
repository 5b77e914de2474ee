// The fixed cost of a request: /healthz, a hashed script and a cached page, each beside a bare
// Hono app answering the same bytes from memory in the same run (wrk, 50 connections; target
// ≥ 0.70 of bare Hono).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { RunningServer } from "./server.ts";
import { rawBody } from "./throughput.ts";
import { startBareHono, wrk, type WrkResult } from "./wrk.ts";

export interface FixedCostRun {
  what: string;
  reference: WrkResult;
  academy: WrkResult;
}

export async function fixedCostBench(server: RunningServer, seconds: number, barePort: number): Promise<FixedCostRun[]> {
  const html = (await rawBody(`${server.url}/`, "identity")).toString();
  const script = /\/assets\/framework-[\w-]+\.js/.exec(html)?.[0];
  if (!script) throw new Error("no framework script in the home page");
  const dir = mkdtempSync(path.join(tmpdir(), "academy-bare-"));
  const bodies = [
    { path: "/", type: "text/html; charset=utf-8", encoding: "br", file: path.join(dir, "page.br"), bytes: await rawBody(`${server.url}/`, "br") },
    { path: script, type: "text/javascript; charset=utf-8", encoding: "br", file: path.join(dir, "script.br"), bytes: await rawBody(server.url + script, "br") },
  ];
  for (const body of bodies) writeFileSync(body.file, body.bytes);
  const manifest = path.join(dir, "bodies.json");
  writeFileSync(manifest, JSON.stringify(bodies.map(({ bytes: _bytes, ...body }) => body)));
  const targets = [
    { what: "/healthz", path: "/healthz", headers: [] },
    { what: "cached / (brotli)", path: "/", headers: ["Accept-Encoding: br"] },
    { what: "hashed script (brotli)", path: script, headers: ["Accept-Encoding: br"] },
  ];
  const bare = await startBareHono(barePort, manifest);
  let references: WrkResult[];
  try {
    references = targets.map((t) => wrk("bare Hono", bare.url + t.path, { seconds, connections: 50, headers: t.headers }));
  } finally {
    await bare.stop();
  }
  return targets.map((t, i) => ({
    what: t.what,
    reference: references[i]!,
    academy: wrk("academy", server.url + t.path, { seconds, connections: 50, headers: t.headers }),
  }));
}

export function printFixedCost(runs: FixedCostRun[], seconds: number) {
  console.log(`\nFixed cost per request beside bare Hono serving the same bytes (wrk, 1 thread, 50 connections, ${seconds} s each)`);
  for (const r of runs) {
    console.log(
      `  ${r.what.padEnd(24)} bare Hono ${r.reference.requestsPerSecond} req/s · academy ${r.academy.requestsPerSecond} req/s (p99 ${r.academy.p99Ms} ms, ${r.academy.errors} errors) · ratio ${(r.academy.requestsPerSecond / r.reference.requestsPerSecond).toFixed(2)} (target ≥ 0.70)`,
    );
  }
}
