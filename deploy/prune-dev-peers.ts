// Run by the Dockerfile after `npm ci --omit=dev`, in the folder holding package-lock.json and node_modules.
// npm still installs a devDependency that a production package names as an optional peer: vitest and
// drizzle-kit for better-auth, typescript for @react-router/node, and all they bring (vite, rolldown,
// esbuild and their platform binaries). Nothing the server loads needs them: this removes every installed
// package that the production dependencies do not reach through dependencies, optional dependencies or
// required peers.
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";

interface LockedPackage {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const lock = JSON.parse(readFileSync("package-lock.json", "utf8")) as { packages: Record<string, LockedPackage> };
const packages = lock.packages;

/** Where Node finds `name` from the package at `from`: the nearest node_modules folder up the tree. */
function resolve(from: string, name: string): string | undefined {
  for (let base = from; ; ) {
    const location = `${base ? `${base}/` : ""}node_modules/${name}`;
    if (packages[location]) return location;
    if (!base) return undefined;
    const parent = base.lastIndexOf("/node_modules/");
    base = parent < 0 ? "" : base.slice(0, parent);
  }
}

function requiredNames(location: string): string[] {
  const entry = packages[location] ?? {};
  const peers = Object.keys(entry.peerDependencies ?? {}).filter((name) => !entry.peerDependenciesMeta?.[name]?.optional);
  // The project's own devDependencies are what --omit=dev leaves out.
  if (location === "") return Object.keys(entry.dependencies ?? {});
  return [...Object.keys(entry.dependencies ?? {}), ...Object.keys(entry.optionalDependencies ?? {}), ...peers];
}

const reached = new Set<string>([""]);
const pending = [""];
for (let location = pending.pop(); location !== undefined; location = pending.pop()) {
  for (const name of requiredNames(location)) {
    const target = resolve(location, name);
    if (target && !reached.has(target)) {
      reached.add(target);
      pending.push(target);
    }
  }
}

const removed = Object.keys(packages).filter((location) => !reached.has(location) && existsSync(location));
for (const location of removed) rmSync(location, { recursive: true, force: true });

// Their commands in node_modules/.bin now point at nothing, and a scope may be left empty.
const bin = path.join("node_modules", ".bin");
for (const name of existsSync(bin) ? readdirSync(bin) : []) {
  if (!existsSync(path.join(bin, name))) rmSync(path.join(bin, name));
}
for (const scope of readdirSync("node_modules").filter((name) => name.startsWith("@"))) {
  if (readdirSync(path.join("node_modules", scope)).length === 0) rmSync(path.join("node_modules", scope), { recursive: true });
}
process.stdout.write(`Removed ${removed.length} packages that only development tools need.\n`);
