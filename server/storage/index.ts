import { randomBytes } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";

/** Where uploaded files live; the disk adapter is the default (DESIGN.md, file storage). */
export interface FileStorage {
  /** Stores `body` under a new unguessable key and returns the URL path it is served at. */
  put(prefix: string, body: Buffer, extension: string): Promise<string>;
  get(key: string): Promise<Buffer | null>;
  /** Removes the file a `put` returned; unknown URLs are ignored. */
  remove(url: string): Promise<void>;
}

export const uploadsPath = "/uploads/";
const keyPattern = /^[a-z]+\/[a-f0-9]{32}\.(webp|jpg|png)$/;

export function createDiskStorage(root: string): FileStorage {
  const fileFor = (key: string) => (keyPattern.test(key) ? path.join(root, key) : null);
  return {
    async put(prefix, body, extension) {
      const key = `${prefix}/${randomBytes(16).toString("hex")}.${extension}`;
      await mkdir(path.join(root, prefix), { recursive: true });
      await writeFile(path.join(root, key), body);
      return uploadsPath + key;
    },
    async get(key) {
      const file = fileFor(key);
      if (!file) return null;
      return readFile(file).catch(() => null);
    },
    async remove(url) {
      const file = url.startsWith(uploadsPath) ? fileFor(url.slice(uploadsPath.length)) : null;
      if (file) await rm(file, { force: true });
    },
  };
}
