import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { FileStorage } from "./index.ts";
import { keyOfUrl, newKey, parseKey, uploadsPath } from "./keys.ts";

/** Files under `root` (DATA_DIR/uploads), one per key: the embedded default. */
export function createDiskStorage(root: string): FileStorage {
  return {
    kind: "disk",
    async put(prefix, body, extension) {
      const key = newKey(prefix, extension);
      const file = path.join(root, key);
      await mkdir(path.dirname(file), { recursive: true });
      // "wx": a key is written once and never overwritten.
      await writeFile(file, body, { flag: "wx" });
      return uploadsPath + key;
    },
    async get(key) {
      if (!parseKey(key)) return null;
      try {
        return await readFile(path.join(root, key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    async remove(url) {
      const key = keyOfUrl(url);
      if (key) await rm(path.join(root, key), { force: true });
    },
  };
}
