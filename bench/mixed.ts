// A mixed load at 200 connections for 60 s (wrk with a Lua script): anonymous pages, the pages a
// signed-in learner hits and JSON API calls, with resident memory before, right after and after a
// short rest. Run on PGlite and on PostgreSQL, each on a fresh server; scale.ts runs the same load
// against 1, 2 and 3 processes.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { idleCollectionQuietMs } from "../server/idle-collection.ts";
import type { Buyer } from "./buyers.ts";
import type { RunningServer } from "./server.ts";
import { browserAcceptEncoding, residentMb, wrk, type WrkResult } from "./wrk.ts";

export interface MixedResult {
  database: string;
  load: WrkResult;
  rssMb: { started: number | null; afterLoad: number | null; afterRest: number | null };
}

const courseId = "webdevfrontendcourse";
/** What the mixed load asks for, as the benches that run it print it. */
export const mixSummary = "50 % anonymous pages, 35 % signed-in pages, 15 % API";

/** Weighted: a visitor's pages, a learner's pages, the API a client polls. */
export const mix = {
  anonymous: ["/", "/courses", `/course/${courseId}`, "/services", "/team", "/help"],
  signedIn: ["/account", "/account/courses", "/notes", `/courses/${courseId}/MainPage`, `/courses/${courseId}/submodule/1-2`, `/course/${courseId}`],
  api: ["/api/auth/get-session"],
};

/** A Lua string literal (JSON's escapes are Lua's for these values). */
const lua = (s: string) => JSON.stringify(s);

/**
 * A wrk script drawing each request from the mix: 50 % anonymous, 35 % signed in, 15 % API. Each
 * API call comes from an address of its own, as from many people's apps: one address alone meets
 * Better Auth's limit of 120 calls a minute, which is that limit doing its job.
 */
function script(buyer: Buyer): string {
  const signedIn = `{ ["Cookie"] = ${lua(buyer.cookie)}, ["X-Forwarded-For"] = ${lua(buyer.address)}, ["Accept-Encoding"] = ${lua(browserAcceptEncoding)} }`;
  const anonymous = `{ ["Accept-Encoding"] = ${lua(browserAcceptEncoding)} }`;
  const entries = [
    ...mix.anonymous.map((p) => ({ path: p, headers: anonymous, weight: 50 / mix.anonymous.length })),
    ...mix.signedIn.map((p) => ({ path: p, headers: signedIn, weight: 35 / mix.signedIn.length })),
  ];
  const api = mix.api.map((p) => ({ path: p, weight: 15 / mix.api.length }));
  return `local requests = {}
local weights = {}
local total = 0
init = function(args)
${entries.map((e) => `  table.insert(requests, wrk.format("GET", ${lua(e.path)}, ${e.headers}))\n  total = total + ${e.weight.toFixed(3)}\n  table.insert(weights, total)`).join("\n")}
end
request = function()
  local r = math.random() * 100
  for i, w in ipairs(weights) do
    if r <= w then return requests[i] end
  end
${api.map((e, i) => `  if r <= total + ${((i + 1) * e.weight).toFixed(3)} then
    local address = "10." .. math.random(0, 255) .. "." .. math.random(0, 255) .. "." .. math.random(1, 254)
    return wrk.format("GET", ${lua(e.path)}, { ["Cookie"] = ${lua(buyer.cookie)}, ["X-Forwarded-For"] = address })
  end`).join("\n")}
  return requests[#requests]
end
`;
}

/** The mixed load against the server at `url` for `seconds`, at 200 connections, as `buyer` for the signed-in share. */
export function runMix(target: string, url: string, buyer: Buyer, seconds: number): WrkResult {
  const dir = mkdtempSync(path.join(tmpdir(), "academy-mixed-"));
  const file = path.join(dir, "mix.lua");
  writeFileSync(file, script(buyer));
  try {
    // A browser waits longer than wrk's default 2 s before giving up; slow answers show in p99.
    return wrk(target, `${url}/`, { seconds, connections: 200, script: file, timeoutSeconds: 10 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// The server hands memory back after 30–60 s of at most one request a second (decisions 012, 033 and 036); each reading waits that long.
const settleMs = 2 * idleCollectionQuietMs + 2_000;

export async function mixedLoad(server: RunningServer, buyer: Buyer, database: string, seconds: number): Promise<MixedResult> {
  await sleep(settleMs);
  const started = residentMb(server.process.pid);
  const load = runMix(`academy on ${database}`, server.url, buyer, seconds);
  const afterLoad = residentMb(server.process.pid);
  await sleep(settleMs);
  return { database, load, rssMb: { started, afterLoad, afterRest: residentMb(server.process.pid) } };
}

export function printMixed(runs: MixedResult[], seconds: number) {
  console.log(`\nMixed load: ${mixSummary} (wrk, 1 thread, 200 connections, ${seconds} s)`);
  for (const r of runs) {
    console.log(
      `  ${r.database.padEnd(10)} ${r.load.requestsPerSecond} req/s  p50 ${r.load.p50Ms} ms  p99 ${r.load.p99Ms} ms  errors ${r.load.errors} (target 0) · RSS ${r.rssMb.started} MB ${settleMs / 1000} s after start-up → ${r.rssMb.afterLoad} MB right after the load → ${r.rssMb.afterRest} MB after ${settleMs / 1000} s rest`,
    );
  }
}
