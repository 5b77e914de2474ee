import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export { chromiumFlags, chromiumPath } from "../tests/chromium.ts";

export const root = path.resolve(import.meta.dirname, "..");

/** The URL of the built app stylesheet, the one documents inline (the build must exist). */
export function builtStylesheetHref(): string {
  const file = readdirSync(path.join(root, "build/client/assets")).find((name) => /^app-[\w-]+\.css$/.test(name));
  if (!file) throw new Error("no built stylesheet in build/client/assets: run npm run build");
  return `/assets/${file}`;
}

/** The environment and Node flags `npm start` runs the server with (package.json), so the benchmarks measure that process. */
const startWords = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: { start: string } }).scripts.start.split(/\s+/);
export const serverNodeFlags = startWords.filter((word) => word.startsWith("--"));
export const serverStartEnv: Record<string, string> = Object.fromEntries(startWords.filter((word) => /^[A-Z_]+=/.test(word)).map((word) => word.split("=", 2)));

export interface RunningServer {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts the production server (the build must exist) on `port`, with a throwaway data directory
 * (removed by stop()) unless `env.DATA_DIR` names one; `logFile` keeps its stdout (the JSON log),
 * which is dropped otherwise.
 */
export async function startServer(
  port: number,
  env: Record<string, string> = {},
  options: { logFile?: string } = {},
): Promise<RunningServer> {
  const ownDataDir = env.DATA_DIR === undefined ? mkdtempSync(path.join(tmpdir(), "academy-bench-")) : undefined;
  const log = options.logFile ? openSync(options.logFile, "a") : "ignore";
  // NODE_ENV is the server's configuration (production needs real secrets): only what `env` says, never the caller's.
  const { NODE_ENV: _mode, ...inherited } = process.env;
  const child = spawn(process.execPath, [...serverNodeFlags, "server/main.ts"], {
    cwd: root,
    env: {
      ...serverStartEnv,
      ...inherited,
      PORT: String(port),
      HOST: "127.0.0.1",
      ...(ownDataDir && { DATA_DIR: ownDataDir }),
      ...env,
    },
    stdio: ["ignore", log, "inherit"],
  });
  if (typeof log === "number") closeSync(log);
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited()) throw new Error(`server exited with ${child.exitCode ?? child.signalCode}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error("server did not become ready within 60 s");
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    process: child,
    // Also safe after the process died on its own or was killed (the fault benchmark kills it with -9).
    async stop() {
      if (!exited()) {
        const gone = once(child, "exit");
        child.kill("SIGTERM");
        await gone;
      }
      if (ownDataDir) rmSync(ownDataDir, { recursive: true, force: true });
    },
  };
}
