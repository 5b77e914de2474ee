// The render floor (issue 30): what the course page, a lesson and /account cost when only React
// Router and React run, beside what our whole request costs, in CPU milliseconds a request on one
// core (bench/render-floor-worker.ts measures; this prepares a learner and prints). Targets: the
// full uncached request ≤ 1.5× the floor; a signed-in one ≤ 2× (it must also find the session and
// the person's data).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FloorResult } from "./render-floor-run.ts";
import { root, serverNodeFlags, serverStartEnv, startServer } from "./server.ts";
import { learnerHeaders, prepareLearner } from "./signed-in.ts";
import { browserAcceptEncoding } from "./wrk.ts";

export interface FloorRun {
  database: string;
  pages: (FloorResult & { signedIn: boolean })[];
}

const port = 4407;

export async function renderFloorBench(postgres: { newDatabase(): string } | null, seconds: number): Promise<FloorRun> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "academy-bench-floor-"));
  const env: Record<string, string> = { DATA_DIR: dataDir, ...(postgres && { DATABASE_URL: postgres.newDatabase() }) };
  try {
    const preparing = await startServer(port, env);
    const learner = await prepareLearner(preparing.url).finally(() => preparing.stop());
    const signedIn = learnerHeaders(learner);
    const pages = [
      { path: "/course/webdevfrontendcourse", headers: { "Accept-Encoding": browserAcceptEncoding }, signedIn: false },
      { path: "/courses/webdevfrontendcourse/submodule/1-2", headers: signedIn, signedIn: true },
      { path: "/account", headers: signedIn, signedIn: true },
    ];
    const { NODE_ENV: _mode, ...inherited } = process.env;
    const run = spawnSync(process.execPath, [...serverNodeFlags, "bench/render-floor-worker.ts", JSON.stringify({ pages, seconds })], {
      cwd: root,
      env: { ...serverStartEnv, ...inherited, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn", ...env },
      encoding: "utf8",
      maxBuffer: 16 * 1024 * 1024,
    });
    if (run.status !== 0) throw new Error(`the render floor failed: ${run.stderr}`);
    const results = JSON.parse(run.stdout.trim().split("\n").at(-1) ?? "[]") as FloorResult[];
    return { database: postgres ? "PostgreSQL" : "PGlite", pages: results.map((r, i) => ({ ...r, signedIn: pages[i]?.signedIn ?? false })) };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const perCore = (ms: number) => `${ms.toFixed(2)} ms (${Math.round(1000 / ms)}/s a core)`;

export function printRenderFloor(run: FloorRun, seconds: number): void {
  console.log(`\nThe render floor on ${run.database}: CPU a request, one request at a time in one process for ${seconds} s each`);
  console.log("  full: the whole app in-process (session, database, compression as a browser asks) · in memory: the app with loader data and viewer kept");
  console.log("  floor: React Router's handler alone with that data · React: entry.server's render inside the floor");
  for (const p of run.pages) {
    const ratio = p.full.cpuMs / p.floor.cpuMs;
    const target = p.signedIn ? 2 : 1.5;
    console.log(`  ${p.path}${p.signedIn ? " (signed in)" : ""}: ${(p.htmlBytes / 1024).toFixed(1)} KB of HTML`);
    console.log(`    full ${perCore(p.full.cpuMs)} · in memory ${perCore(p.inMemory.cpuMs)} · floor ${perCore(p.floor.cpuMs)} · React ${p.reactMs.toFixed(2)} ms`);
    console.log(`    full ÷ floor ${ratio.toFixed(2)} (target ≤ ${target})`);
  }
}
