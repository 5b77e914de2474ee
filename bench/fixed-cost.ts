// The fixed cost of a request: /healthz, a hashed script and a cached page, each beside a bare
// Hono app answering the same bytes from memory in the same run (wrk, 50 connections; target
// ≥ 0.70 of bare Hono). The machine is noisy: each is measured in five rounds, bare Hono and ours
// alternating, and the median round's ratio is reported.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { RunningServer } from "./server.ts";
import { rawBody } from "./throughput.ts";
import { startBareHono, wrk, type WrkResult } from "./wrk.ts";

export interface FixedCostRun {
  what: string;
  /** The round with the median ratio. */
  reference: WrkResult;
  academy: WrkResult;
  /** Ours ÷ bare Hono in each round, in the order measured. */
  ratios: number[];
}

const rounds = 5;

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
  try {
    return targets.map((t) => {
      const measured = Array.from({ length: rounds }, () => {
        const reference = wrk("bare Hono", bare.url + t.path, { seconds, connections: 50, headers: t.headers });
        const academy = wrk("academy", server.url + t.path, { seconds, connections: 50, headers: t.headers });
        return { reference, academy, ratio: academy.requestsPerSecond / reference.requestsPerSecond };
      });
      const median = measured.toSorted((a, b) => a.ratio - b.ratio)[Math.floor(rounds / 2)]!;
      return { what: t.what, reference: median.reference, academy: median.academy, ratios: measured.map((m) => Math.round(m.ratio * 100) / 100) };
    });
  } finally {
    await bare.stop();
  }
}

export function printFixedCost(runs: FixedCostRun[], seconds: number) {
  console.log(`\nFixed cost per request beside bare Hono serving the same bytes (wrk, 1 thread, 50 connections, ${seconds} s each, ${rounds} alternating rounds; the median round)`);
  for (const r of runs) {
    console.log(
      `  ${r.what.padEnd(24)} bare Hono ${r.reference.requestsPerSecond} req/s · academy ${r.academy.requestsPerSecond} req/s (p99 ${r.academy.p99Ms} ms, ${r.academy.errors} errors) · median ratio ${(r.academy.requestsPerSecond / r.reference.requestsPerSecond).toFixed(2)} of ${r.ratios.join(", ")} (target ≥ 0.70)`,
    );
  }
}
