// `npm test`: every check, in order of cost — types, lint, build, unit + integration, end-to-end.
// `node scripts/test.ts <step>…` runs some of them (npm run check, test:unit, test:e2e).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { sourceHash, stampFile } from "./source-hash.ts";

const root = path.resolve(import.meta.dirname, "..");
const steps: Record<string, string[]> = {
  typecheck: ["npm", "run", "typecheck"],
  lint: ["npx", "oxlint", "--deny-warnings"],
  // Only when a source changed since the last build: the HTTP and end-to-end tests run the build.
  build: ["npm", "run", "build"],
  // The tests beside the code, without a database or a build: seconds.
  unit: ["npx", "vitest", "run", "--project", "unit"],
  // Every Vitest suite: unit, integration (PGlite, and PostgreSQL when TEST_DATABASE_URL is set), then the two halves of fuzz side by side.
  vitest: ["npx", "vitest", "run"],
  e2e: ["npx", "playwright", "test"],
};
const all = ["typecheck", "lint", "build", "vitest", "e2e"];

const chosen = process.argv.slice(2);
const unknown = chosen.filter((name) => !(name in steps));
if (unknown.length > 0) {
  console.error(`No step called ${unknown.join(", ")}: the steps are ${Object.keys(steps).join(", ")}.`);
  process.exit(2);
}

async function buildIsCurrent(): Promise<boolean> {
  const stamp = stampFile(root);
  return existsSync(path.join(root, "build/server/index.js")) && existsSync(stamp) && (await readFile(stamp, "utf8")).trim() === (await sourceHash(root));
}

const started = Date.now();
for (const name of chosen.length > 0 ? chosen : all) {
  if (name === "build" && (await buildIsCurrent())) {
    console.log("\n▶ build: current, built from these sources already");
    continue;
  }
  const [command, ...args] = steps[name] as string[];
  console.log(`\n▶ ${name}`);
  const stepStarted = Date.now();
  const result = spawnSync(command as string, args, { cwd: root, stdio: "inherit" });
  if (result.status !== 0) {
    console.error(`\n✗ ${name} failed`);
    process.exit(result.status ?? 1);
  }
  console.log(`✓ ${name} (${((Date.now() - stepStarted) / 1000).toFixed(1)} s)`);
}
console.log(`\nAll passed in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
