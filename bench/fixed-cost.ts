// The fixed cost of a request: /healthz, a hashed script and a cached page, each beside a bare
// Hono app answering the same bytes from memory in the same run (wrk, 50 connections; target
// ≥ 0.70 of bare Hono). A second reference is bare Hono sending our headers too (the security
// headers, the request id): what the headers cost, apart from our code. The machine is noisy: each
// is measured in five rounds, the three alternating, and the median round's ratio is reported.
import { mkdtempSync, writeFileSync } from "node:fs";
import { get } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import type { RunningServer } from "./server.ts";
import { rawBody } from "./throughput.ts";
import { startBareHono, wrk, type WrkResult } from "./wrk.ts";

export interface FixedCostRun {
  what: string;
  /** The round with the median ratio. */
  reference: WrkResult;
  /** Bare Hono sending our headers, in that round. */
  headed: WrkResult;
  academy: WrkResult;
  /** Ours ÷ bare Hono in each round, in the order measured. */
  ratios: number[];
  /** Bare Hono with our headers ÷ bare Hono in each round. */
  headedRatios: number[];
}

/** Headers Node writes itself on every response. */
const nodeHeaders = new Set(["date", "connection", "keep-alive", "content-length", "transfer-encoding"]);

/** Our answer to `url` as sent (still encoded): its body and the headers we send, for bare Hono to send as they are. */
function ourAnswer(url: string, encoding: string | null): Promise<{ body: Buffer; headers: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: encoding ? { "Accept-Encoding": encoding } : {}, agent: false }, (response) => {
      const headers = Object.fromEntries(Object.entries(response.headers).filter(([name]) => !nodeHeaders.has(name)).map(([name, value]) => [name, String(value)]));
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ body: Buffer.concat(chunks), headers }));
    }).on("error", reject);
  });
}

const rounds = 5;
const rounded = (ratio: number) => Math.round(ratio * 100) / 100;
const median = (ratios: number[]) => ratios.toSorted((a, b) => a - b)[Math.floor(ratios.length / 2)]!;

export async function fixedCostBench(server: RunningServer, seconds: number, barePort: number): Promise<FixedCostRun[]> {
  const html = (await rawBody(`${server.url}/`, "identity")).toString();
  const script = /\/assets\/framework-[\w-]+\.js/.exec(html)?.[0];
  if (!script) throw new Error("no framework script in the home page");
  const targets = [
    { what: "/healthz", path: "/healthz", encoding: null, type: "application/json" },
    { what: "cached / (brotli)", path: "/", encoding: "br", type: "text/html; charset=utf-8" },
    { what: "hashed script (brotli)", path: script, encoding: "br", type: "text/javascript; charset=utf-8" },
  ];
  const dir = mkdtempSync(path.join(tmpdir(), "academy-bare-"));
  const bodies = await Promise.all(
    targets.map(async (t, i) => {
      const answer = await ourAnswer(server.url + t.path, t.encoding);
      const file = path.join(dir, `body-${i}`);
      writeFileSync(file, answer.body);
      // Bare Hono's own /healthz stands for ours; the files are served with only their type and encoding.
      const plain = t.path === "/healthz" ? [] : [{ path: t.path, file, type: t.type, encoding: t.encoding }];
      return [...plain, { path: `/headed${t.path}`, file, headers: answer.headers }];
    }),
  );
  const manifest = path.join(dir, "bodies.json");
  writeFileSync(manifest, JSON.stringify(bodies.flat()));
  const bare = await startBareHono(barePort, manifest);
  try {
    return targets.map((t) => {
      const headers = t.encoding ? [`Accept-Encoding: ${t.encoding}`] : [];
      const measured = Array.from({ length: rounds }, () => {
        const reference = wrk("bare Hono", bare.url + t.path, { seconds, connections: 50, headers });
        const headed = wrk("bare Hono, our headers", `${bare.url}/headed${t.path}`, { seconds, connections: 50, headers });
        const academy = wrk("academy", server.url + t.path, { seconds, connections: 50, headers });
        return { reference, headed, academy, ratio: academy.requestsPerSecond / reference.requestsPerSecond, headedRatio: headed.requestsPerSecond / reference.requestsPerSecond };
      });
      const middle = measured.toSorted((a, b) => a.ratio - b.ratio)[Math.floor(rounds / 2)]!;
      return {
        what: t.what,
        reference: middle.reference,
        headed: middle.headed,
        academy: middle.academy,
        ratios: measured.map((m) => rounded(m.ratio)),
        headedRatios: measured.map((m) => rounded(m.headedRatio)),
      };
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
    console.log(`  ${"".padEnd(24)} bare Hono sending our headers: ${r.headed.requestsPerSecond} req/s in that round, median ratio ${median(r.headedRatios).toFixed(2)} of ${r.headedRatios.join(", ")}`);
  }
}
