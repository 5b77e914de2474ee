import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Client } from "pg";
import { afterAll } from "vitest";
import { withAdmin } from "./database-templates.ts";

/**
 * Folders and PostgreSQL databases a test file keeps by name until it ends (backup and restore
 * commands are given a database's URL, so helpers.ts's self-dropping handles do not fit), all removed
 * after the file's tests. `serverUrl` is the test server (TEST_DATABASE_URL) databases are made on.
 */
export function scratchSpace(serverUrl: string | undefined) {
  const folders: string[] = [];
  const databases: string[] = [];

  const admin = <T>(work: (client: Client) => Promise<T>): Promise<T> => withAdmin(serverUrl as string, work);

  afterAll(async () => {
    // Each embedded database is some 40 MB on disk.
    await Promise.all(folders.map((dir) => rm(dir, { recursive: true, force: true })));
    if (databases.length === 0) return;
    await admin(async (client) => {
      for (const name of databases) await client.query(`drop database if exists ${name} with (force)`);
    });
  });

  return {
    admin,
    async folder(prefix: string): Promise<string> {
      const dir = await mkdtemp(path.join(tmpdir(), prefix));
      folders.push(dir);
      return dir;
    },
    /** A new empty database named `<prefix><random>`: its name and URL. */
    async database(prefix: string): Promise<{ name: string; url: string }> {
      const name = `${prefix}${randomBytes(6).toString("hex")}`;
      await admin((client) => client.query(`create database ${name}`));
      databases.push(name);
      const url = new URL(serverUrl as string);
      url.pathname = `/${name}`;
      return { name, url: url.toString() };
    },
    /** A database something else made (a command under test), dropped with the rest. */
    dropLater(name: string): void {
      databases.push(name);
    },
  };
}
