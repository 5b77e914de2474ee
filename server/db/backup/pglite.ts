import { createReadStream, createWriteStream, existsSync, openAsBlob } from "node:fs";
import { mkdir, readdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { createGunzip } from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import { fromPglite } from "../client.ts";
import { DatabaseInUse, lockPgliteData, type PgliteLock } from "../pglite-lock.ts";
import { BackupError, capitalised, contentsOf, describeContents, levelSentence, migrationLevel, utcStamp, type RestoreOutcome } from "./contents.ts";

/** Where the server keeps the embedded database: server/db/client.ts openDatabase. */
export const pgliteDir = (dataDir: string) => path.join(dataDir, "db");

const holdsDatabase = (dir: string) => existsSync(path.join(dir, "PG_VERSION"));

/** Work on the folder under the lock the server takes too (server/db/pglite-lock.ts): nothing opens it while another process has it. */
async function holdingFolder<T>(dataDir: string, work: () => Promise<T>): Promise<T> {
  let lock: PgliteLock;
  try {
    lock = lockPgliteData(dataDir);
  } catch (error) {
    if (error instanceof DatabaseInUse) throw new BackupError(error.message, { cause: error });
    throw error;
  }
  try {
    return await work();
  } finally {
    lock.release();
  }
}

/** A tarball of the whole data folder (PGlite's dumpDataDir), taken after a checkpoint so it opens without recovery. */
export const backupPglite = (dataDir: string, partialFile: string) => holdingFolder(dataDir, () => backupHeld(dataDir, partialFile));

async function backupHeld(dataDir: string, partialFile: string): Promise<string> {
  const dir = pgliteDir(dataDir);
  if (!holdsDatabase(dir)) {
    throw new BackupError(`There is no embedded database in ${dir} to back up. DATABASE_URL is unset, so that is where Academy keeps its data: check DATA_DIR.`);
  }
  const client = await PGlite.create(dir);
  try {
    const contents = await contentsOf(fromPglite(client).db);
    if (contents.migrations.length === 0) {
      throw new BackupError(`The embedded database in ${dir} has no Academy tables (drizzle.__drizzle_migrations is missing), so there is nothing to back up.`);
    }
    await client.exec("checkpoint");
    const tarball = await client.dumpDataDir("gzip");
    await pipeline(Readable.fromWeb(tarball.stream() as WebReadableStream<Uint8Array>), createWriteStream(partialFile, { flags: "wx" }));
    return `the embedded database in ${dir} (${await describeContents(contents)})`;
  } finally {
    await client.close();
  }
}

/**
 * Reads the whole tarball before anything is touched: gzip's checksum and length at its end catch a cut or
 * corrupted file here. (PGlite's own unpacking would crash the process on one, with a bare TypeError.)
 */
async function checkTarball(file: string): Promise<void> {
  try {
    await pipeline(createReadStream(file), createGunzip(), new Writable({ write: (_chunk, _encoding, done) => done() }));
  } catch (error) {
    throw new BackupError(
      `${file} is damaged or incomplete (an interrupted copy, or a disk error?): its compressed data ${(error as NodeJS.ErrnoException).code === "Z_BUF_ERROR" ? "ends early" : "does not check out"} (${(error as Error).message}). Nothing was changed. Copy the backup again, or restore another one.`,
      { cause: error },
    );
  }
}

const running = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
};

/** Folders that restores killed while unpacking left beside DATA_DIR/db: their process is gone, so nothing else will remove them. */
async function removeAbandoned(dataDir: string): Promise<void> {
  for (const name of await readdir(dataDir).catch(() => [])) {
    const pid = /^db\.restoring-(\d+)$/.exec(name)?.[1];
    if (pid && !running(Number(pid))) await rm(path.join(dataDir, name), { recursive: true, force: true });
  }
}

/**
 * Unpacks the tarball beside DATA_DIR/db, checks it is Academy's, then swaps the folders: the
 * database in place is untouched until the new one has opened, and a replaced one is kept aside.
 */
export const restorePglite = (dataDir: string, file: string, force: boolean) => holdingFolder(dataDir, () => restoreHeld(dataDir, file, force));

async function restoreHeld(dataDir: string, file: string, force: boolean): Promise<RestoreOutcome> {
  const dir = pgliteDir(dataDir);
  const target = `the embedded database in ${dir}`;
  await checkTarball(file);
  await removeAbandoned(dataDir);
  let replaced: string | null = null;
  if (holdsDatabase(dir)) {
    const existing = await PGlite.create(dir);
    const contents = await contentsOf(fromPglite(existing).db).finally(() => existing.close());
    if (contents.tables > 0) {
      replaced = await describeContents(contents);
      if (!force) {
        throw new BackupError(`${capitalised(target)} is not empty (${replaced}). Restoring replaces it (the current one is moved aside): run restore again with --force to do that.`);
      }
    }
  }
  const staging = `${dir}.restoring-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(dataDir, { recursive: true });
  let summary: string;
  let keyStored: boolean;
  try {
    let restored: PGlite;
    try {
      restored = await PGlite.create(staging, { loadDataDir: await openAsBlob(file) });
    } catch {
      throw new BackupError(`${file} is not a backup of Academy's embedded database: PGlite cannot open it as a data folder.`);
    }
    try {
      const contents = await contentsOf(fromPglite(restored).db);
      const level = await migrationLevel(contents.migrations, `The database in ${file}`);
      summary = `${await describeContents(contents)}.${levelSentence(level)}`;
      keyStored = contents.keyStored;
    } finally {
      await restored.close();
    }
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  const kept = existsSync(dir) ? `${dir}.replaced-${utcStamp()}` : null;
  if (kept) await rename(dir, kept);
  await rename(staging, dir);
  return { target, replaced, kept, summary, keyStored };
}
