// Where a page's CPU goes: the server runs with --cpu-prof while wrk asks for one page, and the
// profile's self time is summed by where the code comes from (a package, our app/ or server/,
// Node itself, the garbage collector) and by function. Run by `npm run bench` when BENCH_ONLY
// names `profile`: the uncached course page (anonymous) and a lesson (signed in), on PostgreSQL when
// there is one.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startServer } from "./server.ts";
import { wrk } from "./wrk.ts";

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  /** Microseconds on the monotonic clock, which `process.hrtime` reads too (Linux). */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Now on the clock a CPU profile's timestamps are on, in microseconds. */
const profileClock = () => Number(process.hrtime.bigint() / 1000n);

export interface ProfileShare {
  name: string;
  /** Share of the sampled time, in per cent. */
  percent: number;
}

export interface PageProfile {
  path: string;
  requestsPerSecond: number;
  /** CPU time (µs) per request, of the sampled time less idle. */
  cpuMicrosPerRequest: number;
  byOrigin: ProfileShare[];
  byFunction: ProfileShare[];
}

/** Where a frame's code comes from: a package by its name, our folders by theirs, Node, V8's own work. */
function originOf(url: string, functionName: string): string {
  if (url === "") return functionName.startsWith("(") ? functionName : "(native)";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg?.[1]) return pkg[1];
  if (url.startsWith("node:")) return "node";
  const own = /\/(app|server|common|build\/server)\//.exec(url);
  return own?.[1] ? `ours: ${own[1]}` : url;
}

function shares(totals: Map<string, number>, all: number, top: number): ProfileShare[] {
  return [...totals.entries()]
    .toSorted((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, micros]) => ({ name, percent: Math.round((micros / all) * 1000) / 10 }));
}

/**
 * Self time by origin and by function, idle left out, from one .cpuprofile: only the samples taken
 * between `from` and `to` (profile clock), so the server's start-up (rendering every lesson, say) and
 * shutdown are not counted against the requests.
 */
export function summarise(profile: CpuProfile, requests: number, from = -Infinity, to = Infinity): Omit<PageProfile, "path" | "requestsPerSecond"> {
  const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const byOrigin = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let busy = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const frame = frames.get(id);
    const micros = profile.timeDeltas[i] ?? 0;
    at += micros;
    if (at < from || at > to || !frame || frame.functionName === "(idle)") return;
    busy += micros;
    const origin = originOf(frame.url, frame.functionName);
    byOrigin.set(origin, (byOrigin.get(origin) ?? 0) + micros);
    const where = frame.url ? `${path.basename(frame.url)}:${frame.lineNumber + 1}` : "";
    const name = `${frame.functionName || "(anonymous)"} ${where} [${origin}]`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
  });
  return { cpuMicrosPerRequest: requests > 0 ? Math.round(busy / requests) : 0, byOrigin: shares(byOrigin, busy, 14), byFunction: shares(byFunction, busy, 20) };
}

/** Profiles the server answering `page` for `seconds` under wrk (20 connections), with the headers given. */
export async function profilePage(port: number, page: string, options: { env?: Record<string, string>; headers?: Record<string, string>; seconds: number; prepare?: (url: string) => Promise<Record<string, string>> }): Promise<PageProfile> {
  const dir = mkdtempSync(path.join(tmpdir(), "academy-profile-"));
  // Both servers below share the data (its database and secrets), so the prepared session holds.
  const env = { DATA_DIR: path.join(dir, "data"), ...options.env };
  try {
    // Prepared on a server of its own (buying a course, say), so the profile holds only the page's requests.
    let headers = options.headers ?? {};
    if (options.prepare) {
      const preparing = await startServer(port, env);
      headers = { ...headers, ...(await options.prepare(preparing.url).finally(() => preparing.stop())) };
    }
    const server = await startServer(port, { ...env, NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir}` });
    let result;
    const from = profileClock();
    let to = Infinity;
    try {
      result = wrk("academy profiled", `${server.url}${page}`, { seconds: options.seconds, connections: 20, headers: Object.entries(headers).map(([k, v]) => `${k}: ${v}`) });
      to = profileClock();
    } finally {
      await server.stop();
    }
    // CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile: the main thread's is thread 0 (workers write their own).
    const file = readdirSync(dir).find((name) => /\.\d+\.0\.\d+\.cpuprofile$/.test(name));
    if (!file) throw new Error("the server wrote no CPU profile");
    const profile = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as CpuProfile;
    return { path: page, requestsPerSecond: result.requestsPerSecond, ...summarise(profile, result.requestsPerSecond * options.seconds, from, to) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function printProfile(p: PageProfile, label: string): void {
  console.log(`\nCPU profile: ${label} ${p.path}: ${p.requestsPerSecond} req/s under the profiler, about ${(p.cpuMicrosPerRequest / 1000).toFixed(2)} ms of CPU a request`);
  console.log(`  by origin: ${p.byOrigin.map((s) => `${s.name} ${s.percent}%`).join(" · ")}`);
  console.log("  by function (self time):");
  for (const s of p.byFunction) console.log(`    ${`${s.percent}%`.padStart(6)}  ${s.name}`);
}
