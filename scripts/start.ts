// `npm start`: builds when the build is missing or older than its sources, then serves it.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const stampFile = path.join(root, "build", ".source-hash");
const inputs = ["app", "public", "package-lock.json", "vite.config.ts", "react-router.config.ts", "tsconfig.json"];

/** A hash of every file the client and server bundles are built from. */
async function sourceHash(): Promise<string> {
  const hash = createHash("sha256");
  for (const input of inputs) {
    const full = path.join(root, input);
    if (!existsSync(full)) continue;
    const entries = statSync(full).isFile()
      ? [full]
      : (await readdir(full, { recursive: true, withFileTypes: true }))
          .filter((e) => e.isFile())
          .map((e) => path.join(e.parentPath, e.name))
          .toSorted();
    for (const file of entries) {
      hash.update(path.relative(root, file));
      hash.update(await readFile(file));
    }
  }
  return hash.digest("hex");
}

const current = await sourceHash();
const built = existsSync(stampFile) ? readFileSync(stampFile, "utf8") : "";
if (built !== current || !existsSync(path.join(root, "build/server/index.js"))) {
  console.log(built ? "Sources changed since the last build; rebuilding…" : "No build yet; building…");
  const result = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
  writeFileSync(stampFile, current);
}

await import("../server/main.ts");
