// The hash of every file the client and server bundles are built from: `npm run build` writes it, `npm start` compares.
import { createHash } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

export const projectRoot = path.resolve(import.meta.dirname, "..");

/** Not server/: both bundles import it at run time or not at all (tests/integration/one-copy.test.ts). */
export const sourceInputs = ["app", "common", "public", "package-lock.json", "vite.config.ts", "react-router.config.ts", "tsconfig.json"];

export const stampFile = (root = projectRoot) => path.join(root, "build", ".source-hash");

export async function sourceHash(root = projectRoot): Promise<string> {
  const hash = createHash("sha256");
  for (const input of sourceInputs) {
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
