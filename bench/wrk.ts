import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import { root } from "./server.ts";

/** The Accept-Encoding a browser sends (Chrome's and Firefox's): which encoding a page goes in is the server's choice among these. */
export const browserAcceptEncoding = "gzip, deflate, br, zstd";

export interface WrkResult {
  target: string;
  path: string;
  connections: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Socket errors, timeouts and responses other than 2xx/3xx. */
  errors: number;
}

const toMs = (value: string, unit: string) => Number(value) * ({ us: 0.001, ms: 1, s: 1000 } as Record<string, number>)[unit]!;

type WrkOptions = { seconds: number; connections: number; headers?: string[]; script?: string; timeoutSeconds?: number };

function wrkArgs(url: string, options: WrkOptions): string[] {
  return [
    "-t1",
    `-c${options.connections}`,
    `-d${options.seconds}s`,
    "--latency",
    ...(options.timeoutSeconds ? ["--timeout", `${options.timeoutSeconds}s`] : []),
    ...(options.script ? ["-s", options.script] : []),
    ...(options.headers ?? []).flatMap((h) => ["-H", h]),
    url,
  ];
}

function parseWrk(target: string, url: string, connections: number, text: string): WrkResult {
  const latency = (pct: string) => {
    const m = new RegExp(`^\\s+${pct}%\\s+([\\d.]+)(us|ms|s)`, "m").exec(text);
    return m ? Math.round(toMs(m[1]!, m[2]!) * 100) / 100 : Number.NaN;
  };
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(text)?.[1] ?? 0);
  return {
    target,
    path: new URL(url).pathname + new URL(url).search,
    connections,
    requestsPerSecond: Math.round(Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1] ?? 0)),
    p50Ms: latency("50"),
    p99Ms: latency("99"),
    errors: non2xx + (socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0),
  };
}

/** wrk (one thread: the server has the other core) against `url`; headers as `name: value`, or a Lua `script` choosing each request. */
export function wrk(target: string, url: string, options: WrkOptions): WrkResult {
  const out = spawnSync("wrk", wrkArgs(url, options), { encoding: "utf8", timeout: (options.seconds + 60) * 1000 });
  if (out.status !== 0) throw new Error(`wrk failed: ${out.stderr}`);
  return parseWrk(target, url, options.connections, out.stdout);
}

/** The same, without blocking this process: for measuring while this process does something else (several wrk at once, or a load of its own). */
export async function wrkAsync(target: string, url: string, options: WrkOptions): Promise<WrkResult> {
  const child = spawn("wrk", wrkArgs(url, options), { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const [code] = (await once(child, "close")) as [number | null];
  if (code !== 0) throw new Error(`wrk failed: ${stderr}`);
  return parseWrk(target, url, options.connections, stdout);
}

/** The bare Hono reference, started for one measurement; `bodiesFile` lists what else it serves (see bare-hono.ts). */
export async function startBareHono(port: number, bodiesFile?: string): Promise<{ url: string; stop(): Promise<void> }> {
  const env = { ...process.env, BARE_HONO_PORT: String(port), ...(bodiesFile && { BARE_HONO_BODIES: bodiesFile }) };
  const child = spawn(process.execPath, ["bench/bare-hono.ts"], { cwd: root, env, stdio: "inherit" });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      await sleep(100);
    }
  }
  return {
    url,
    async stop() {
      const gone = once(child, "exit");
      child.kill("SIGTERM");
      await gone;
    },
  };
}

/** The process started and, under WEB_CONCURRENCY, the workers it forked. */
export function processTree(pid: number): number[] {
  const children = spawnSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" }).stdout;
  return [pid, ...children.split(/\s+/).filter(Boolean).map(Number)];
}

/** Resident memory of a server, its workers included, in MB. */
export function serverResidentMb(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  const mb = processTree(pid).map((p) => residentMb(p) ?? 0);
  return mb.reduce((total, one) => total + one, 0) || null;
}

/** Resident memory of a process, in MB. */
export function residentMb(pid: number | undefined): number | null {
  const out = spawnSync("ps", ["-o", "rss=", "-p", String(pid)], { encoding: "utf8" });
  const kb = Number(out.stdout.trim());
  return kb > 0 ? Math.round(kb / 1024) : null;
}
