// The child process of the GST register measurement (back-office.ts), so its peak memory is the
// export's alone: `node bench/back-office-export.ts <database url> export|open`. Both modes make the
// same imports, load the catalogue and open the database; then, the garbage collected, the peak
// resident memory is reset to the memory in use (Linux: /proc/self/clear_refs), as loading the
// server's modules peaks higher than anything after it. "export" then streams October 2026's
// register to nowhere, counting bytes and lines. Prints one JSON line: the peak resident memory
// before the reset and at the end (maxRSS, KB), and for "export" the time, bytes and rows (lines
// after the header).
import { writeFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { loadCatalog } from "../server/catalog/index.ts";
import { fromPostgres } from "../server/db/client.ts";
import { gstRegisterCsv } from "../server/staff/index.ts";

export interface ExportChildResult {
  /** The peak while loading and opening the database, before the reset. */
  loadingMaxRssKb: number;
  /** The peak since the reset. */
  maxRssKb: number;
  ms: number | null;
  bytes: number | null;
  rows: number | null;
}

const [url, mode] = process.argv.slice(2);
if (!url || (mode !== "export" && mode !== "open")) throw new Error("usage: back-office-export.ts <database url> export|open");

const database = fromPostgres(url);
let measured: Omit<ExportChildResult, "loadingMaxRssKb" | "maxRssKb"> = { ms: null, bytes: null, rows: null };
let loadingMaxRssKb = 0;
try {
  const { site } = await loadCatalog(path.join(import.meta.dirname, "..", "content"));
  await database.db.execute(sql`select 1`);
  loadingMaxRssKb = process.resourceUsage().maxRSS;
  globalThis.gc?.();
  writeFileSync("/proc/self/clear_refs", "5");
  if (mode === "export") {
    const actor = { id: null, name: "bench", roles: ["finance"] as const, address: null };
    const started = performance.now();
    const { body } = await gstRegisterCsv({ db: database.db, site }, actor, "2026-10", new Date("2026-11-15T06:00:00Z"));
    let bytes = 0;
    let lines = 0;
    for await (const chunk of body) {
      bytes += chunk.byteLength;
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
    }
    measured = { ms: Math.round(performance.now() - started), bytes, rows: lines - 1 };
  }
} finally {
  await database.close();
}
const result: ExportChildResult = { loadingMaxRssKb, maxRssKb: process.resourceUsage().maxRSS, ...measured };
process.stdout.write(`${JSON.stringify(result)}\n`);
