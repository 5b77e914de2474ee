// `npm test`: every check, in order of cost — types, lint, build, unit + integration, end-to-end.
import { spawnSync } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const steps: [string, string[]][] = [
  ["typecheck", ["npm", "run", "typecheck"]],
  ["lint", ["npx", "oxlint", "--deny-warnings"]],
  ["build", ["npm", "run", "build"]],
  // The fuzz suite keeps a core busy for a minute or more; alone, it cannot starve the tests that time a server's start.
  ["unit and integration tests", ["npx", "vitest", "run", "--exclude", "tests/integration/fuzz.test.ts"]],
  ["fuzz tests", ["npx", "vitest", "run", "tests/integration/fuzz.test.ts"]],
  ["end-to-end tests", ["npx", "playwright", "test"]],
];

for (const [name, [command, ...args]] of steps) {
  console.log(`\n▶ ${name}`);
  const started = Date.now();
  const result = spawnSync(command as string, args, { cwd: root, stdio: "inherit" });
  if (result.status !== 0) {
    console.error(`\n✗ ${name} failed`);
    process.exit(result.status ?? 1);
  }
  console.log(`✓ ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
