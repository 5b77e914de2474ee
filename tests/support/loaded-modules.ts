// Preloaded into a server under test (`--import`): on exit it writes the CommonJS files the process
// ran to LOADED_MODULES_FILE, so a test can tell which React build it rendered with. (The cache also
// holds files the ESM loader only scanned for export names, such as both branches of React's
// index.js; those were never run.)
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const cache = createRequire(import.meta.url).cache;
const file = process.env.LOADED_MODULES_FILE;
if (file) {
  process.on("exit", () => writeFileSync(file, JSON.stringify(Object.values(cache).flatMap((module) => (module?.loaded ? [module.filename] : [])))));
}
