// `npm run bench`: Lighthouse (public pages and a signed-in lesson), first-load bytes, cached
// anonymous pages beside nginx, the fixed cost per request beside bare Hono, uncached rendering,
// the render floor (render-floor.ts: React Router and React alone beside the whole request), the cost of
// each compression level on pages rendered per request (compression.ts), the HTML each page sends
// against the 60 KB budget (document-sizes.ts),
// signed-in pages (throughput, and latency at 200 req/s), the public API with a key beside /healthz, the renewal-reminder job over 100,000 websites, the back office (customer search over 100,000 accounts, the GST register of 100,000 orders), a 60 s mixed load at 200 connections
// with resident memory, on PGlite and on a throwaway PostgreSQL, and the same mixed load against 1, 2 and 3
// server processes on PostgreSQL beside bare Hono at 1 and 2, and one account at the cap with its 20 API keys
// attacking while /healthz and another learner's page are measured (see each file). Every figure is
// reported beside its target or its reference from the same run; nothing is asserted.
// Optional, only when BENCH_ONLY names it: payments-fault (kill -9 during 200 sandbox purchases, see payments-fault.ts),
// notes (listing and searching 1,000 encrypted notes, see notes.ts) and profile (where the CPU of the uncached
// course page and of a signed-in lesson goes, see profile.ts).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { apiBench, printApi } from "./api.ts";
import { backOfficeBench, printBackOffice } from "./back-office.ts";
import { compressionBench, printCompression } from "./compression.ts";
import { documentSizes, printDocumentSizes } from "./document-sizes.ts";
import { measureFirstLoad } from "./first-load.ts";
import { fixedCostBench, printFixedCost } from "./fixed-cost.ts";
import { lighthouse } from "./lighthouse.ts";
import { notesBench, printNotes } from "./notes.ts";
import { notesAbuseBench, printNotesAbuse } from "./notes-abuse.ts";
import { paymentsFault } from "./payments-fault.ts";
import { printProfile, profilePage } from "./profile.ts";
import { printRenderFloor, renderFloorBench } from "./render-floor.ts";
import { root, startServer } from "./server.ts";
import { mixedLoad, printMixed, type MixedResult } from "./mixed.ts";
import { startBenchPostgres } from "./postgres.ts";
import { printReminders, remindersBench } from "./reminders.ts";
import { printScale, scaleBench } from "./scale.ts";
import { learnerHeaders, prepareLearner, printSignedIn, signedInBench } from "./signed-in.ts";
import { printUncached, uncachedBench } from "./uncached.ts";
import { compareWithNginx, rawBody, startNginx, type AnonymousRun } from "./throughput.ts";
import { browserAcceptEncoding } from "./wrk.ts";

const seconds = Number(process.env.BENCH_SECONDS ?? 20);
const only = new Set((process.env.BENCH_ONLY ?? "lighthouse,first-load,sizes,throughput,compression,fixed-cost,uncached,floor,signed-in,api,reminders,back-office,mixed,scale,notes-abuse").split(","));
const mixedSeconds = Number(process.env.BENCH_MIXED_SECONDS ?? 60);

if (spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" }).status !== 0) process.exit(1);

const server = await startServer(4400);
const results: Record<string, unknown> = { date: new Date().toISOString(), seconds };
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

try {
  const learner = ["lighthouse", "signed-in", "compression", "sizes"].some((name) => only.has(name)) ? await prepareLearner(server.url) : null;

  if (only.has("first-load")) {
    const gzip = await measureFirstLoad(`${server.url}/`, "gzip");
    const br = await measureFirstLoad(`${server.url}/`, "br");
    results.firstLoad = { gzip, br };
    console.log("\nFirst load of / (bytes on the wire)");
    for (const r of [gzip, br]) {
      console.log(
        `  ${r.encoding.padEnd(5)} HTML ${kb(r.htmlBytes)} · JS ${kb(r.jsBytes)} in ${r.jsFiles} files, ${kb(r.appJsBytes)} of them the app's own over the framework${r.encoding === "gzip" ? " (target ≤ 15.0 KB)" : ""} · CSS ${kb(r.inlineCssBytes)}${r.encoding === "gzip" ? " gzip" : " raw"} inlined, ${r.cssRequests} stylesheet requests`,
      );
    }
  }

  if (only.has("lighthouse")) {
    const pages = ["/", "/courses", "/course/webdevfrontendcourse"].map((p) => lighthouse(server.url + p));
    if (learner) pages.push(lighthouse(`${server.url}/courses/webdevfrontendcourse/submodule/1-2`, { Cookie: learner.cookie, "X-Forwarded-For": learner.address }));
    results.lighthouse = pages;
    console.log("\nLighthouse (mobile, simulated throttling)");
    console.log("  page (the lesson signed in)                 perf  a11y  best  seo   FCP     LCP     TBT   CLS");
    for (const p of pages) {
      console.log(
        `  ${p.path.padEnd(44)}${String(p.performance).padEnd(6)}${String(p.accessibility).padEnd(6)}${String(p.bestPractices).padEnd(6)}${String(p.seo).padEnd(6)}${`${p.fcpMs} ms`.padEnd(8)}${`${p.lcpMs} ms`.padEnd(8)}${`${p.tbtMs} ms`.padEnd(6)}${p.cls.toFixed(3)}`,
      );
    }
  }

  if (only.has("throughput")) {
    const paths = ["/", "/courses"];
    const pages: Record<string, { html: Buffer; gzip: Buffer }> = {};
    for (const p of paths) {
      pages[p] = { html: await rawBody(`${server.url}${p}`, "identity"), gzip: await rawBody(`${server.url}${p}`, "gzip") };
    }
    const nginx = await startNginx(4401, pages);
    const runs: AnonymousRun[] = [];
    try {
      for (const p of paths) for (const encoding of ["identity", "gzip"] as const) runs.push(compareWithNginx(server.url, nginx.url, p, encoding, seconds));
    } finally {
      nginx.stop();
    }
    results.throughput = runs;
    console.log(`\nCached anonymous pages beside nginx serving the same bytes (wrk, 1 thread, 50 connections, ${seconds} s each)`);
    for (const r of runs) {
      console.log(
        `  ${r.path.padEnd(10)} ${r.encoding.padEnd(9)} nginx ${r.nginx.requestsPerSecond} req/s (p99 ${r.nginx.p99Ms} ms) · academy ${r.academy.requestsPerSecond} req/s (p99 ${r.academy.p99Ms} ms, ${r.academy.errors} errors) · ratio ${(r.academy.requestsPerSecond / r.nginx.requestsPerSecond).toFixed(2)} (target ≥ 0.50)`,
      );
    }
  }

  if (only.has("sizes") && learner) {
    const sizes = await documentSizes(server.url, learner);
    results.documentSizes = sizes;
    printDocumentSizes(sizes);
  }

  if (only.has("compression") && learner) {
    const compression = await compressionBench(server.url, learner);
    results.compression = compression;
    printCompression(compression);
  }

  if (only.has("fixed-cost")) {
    const fixedCost = await fixedCostBench(server, seconds, 4402);
    results.fixedCost = fixedCost;
    printFixedCost(fixedCost, seconds);
  }

  const wantsPostgres = ["uncached", "floor", "signed-in", "api", "mixed", "reminders", "back-office", "scale", "profile"].some((name) => only.has(name));
  const postgres = wantsPostgres ? startBenchPostgres(55490) : null;
  if (wantsPostgres && !postgres) console.log("\nPostgreSQL runs skipped: no PostgreSQL server binary and no BENCH_DATABASE_URL");
  /** PostgreSQL with one process, and with one for each core as docs/operations.md advises on two: each on a database of its own. */
  const postgresConfigurations = (): { database: string; env: Record<string, string> }[] =>
    postgres
      ? [
          { database: "PostgreSQL", env: { DATABASE_URL: postgres.newDatabase() } },
          { database: "PostgreSQL, 2 processes", env: { DATABASE_URL: postgres.newDatabase(), WEB_CONCURRENCY: "2" } },
        ]
      : [];
  try {
    if (only.has("uncached")) {
      const runs = [];
      for (const { database, env } of [{ database: "PGlite", env: {} }, ...postgresConfigurations()]) {
        const uncachedServer = await startServer(4403, { PAGE_CACHE_SECONDS: "0", ...env });
        try {
          runs.push({ database, paths: uncachedBench(uncachedServer, seconds) });
        } finally {
          await uncachedServer.stop();
        }
      }
      results.uncached = runs;
      for (const run of runs) printUncached(run.paths, run.database, seconds);
    }

    if (only.has("signed-in") && learner) {
      const runs = [{ database: "PGlite", ...(await signedInBench(server, learner, seconds)) }];
      for (const { database, env } of postgresConfigurations()) {
        const onPostgres = await startServer(4405, env);
        try {
          runs.push({ database, ...(await signedInBench(onPostgres, await prepareLearner(onPostgres.url), seconds)) });
        } finally {
          await onPostgres.stop();
        }
      }
      results.signedIn = runs;
      for (const run of runs) printSignedIn(run, run.database, seconds);
    }

    if (only.has("api")) {
      const api = await apiBench(postgres, seconds);
      results.api = api;
      printApi(api, seconds);
    }

    if (only.has("reminders") && postgres) {
      const reminders = await remindersBench(postgres.newDatabase());
      results.reminders = reminders;
      printReminders(reminders);
    }

    if (only.has("back-office") && postgres) {
      const backOffice = await backOfficeBench(postgres.newDatabase());
      results.backOffice = backOffice;
      printBackOffice(backOffice);
    }

    if (only.has("mixed")) {
      const runs: MixedResult[] = [];
      for (const database of ["PGlite", ...(postgres ? ["PostgreSQL"] : [])]) {
        const dataDir = mkdtempSync(path.join(tmpdir(), "academy-bench-mixed-"));
        const env: Record<string, string> = { DATA_DIR: dataDir, ...(database === "PostgreSQL" && postgres && { DATABASE_URL: postgres.newDatabase() }) };
        try {
          // The learner buys through the sandbox, which answers this machine only; then a fresh server on
          // the same data, as behind the proxy production runs behind, so each API client's own address counts (mixed.ts).
          const preparing = await startServer(4404, env);
          const learnerThere = await prepareLearner(preparing.url).finally(() => preparing.stop());
          const fresh = await startServer(4404, { ...env, TRUST_PROXY: "1" });
          try {
            runs.push(await mixedLoad(fresh, learnerThere, database, mixedSeconds));
          } finally {
            await fresh.stop();
          }
        } finally {
          rmSync(dataDir, { recursive: true, force: true });
        }
      }
      results.mixed = runs;
      printMixed(runs, mixedSeconds);
    }

    if (only.has("floor")) {
      const floor = await renderFloorBench(postgres, seconds);
      results.floor = floor;
      printRenderFloor(floor, seconds);
    }

    if (only.has("profile")) {
      const env: Record<string, string> = postgres ? { DATABASE_URL: postgres.newDatabase() } : {};
      const database = postgres ? "PostgreSQL" : "PGlite";
      const course = await profilePage(4406, "/course/webdevfrontendcourse", { env: { ...env, PAGE_CACHE_SECONDS: "0" }, headers: { "Accept-Encoding": browserAcceptEncoding }, seconds });
      const lesson = await profilePage(4406, "/courses/webdevfrontendcourse/submodule/1-2", { env, seconds, prepare: async (url) => learnerHeaders(await prepareLearner(url)) });
      results.profile = { database, course, lesson };
      printProfile(course, `uncached, anonymous, ${database}:`);
      printProfile(lesson, `signed in, ${database}:`);
    }

    if (only.has("scale") && postgres) {
      const scale = await scaleBench(postgres, seconds);
      results.scale = scale;
      printScale(scale, seconds);
    }
  } finally {
    postgres?.stop();
  }

  if (only.has("notes-abuse")) {
    const abuse = await notesAbuseBench(4410, seconds);
    results.notesAbuse = abuse;
    printNotesAbuse(abuse, seconds);
  }

  if (only.has("notes")) {
    const notes = await notesBench();
    results.notes = notes;
    printNotes(notes);
  }

  if (only.has("payments-fault")) {
    const fault = await paymentsFault();
    results.paymentsFault = fault;
    if (!fault.ok) process.exitCode = 1;
  }
} finally {
  await server.stop();
}

const outDir = path.join(root, "bench/results");
mkdirSync(outDir, { recursive: true });
writeFileSync(path.join(outDir, "latest.json"), JSON.stringify(results, null, 2) + "\n");
console.log(`\nwritten to bench/results/latest.json`);
