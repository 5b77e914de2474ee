import { existsSync } from "node:fs";
import { mkdir, open, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { Config } from "../../config.ts";
import { BackupError, utcStamp, type RestoreOutcome } from "./contents.ts";
import { backupPglite, pgliteDir, restorePglite } from "./pglite.ts";
import { backupPostgres, restorePostgres } from "./postgres.ts";

export { BackupError, type RestoreOutcome };

/** The settings a backup reads, as the server reads them (server/config.ts). */
export type BackupSettings = Pick<Config, "databaseUrl" | "dataDir" | "encryptionKey" | "s3">;

type Kind = "pglite" | "postgres";

/** Each database has its own format, and the file's name says which. */
export const backupExtensions: Record<Kind, string> = { pglite: ".pglite.tar.gz", postgres: ".postgres.dump" };

const kindOfSettings = (settings: BackupSettings): Kind => (settings.databaseUrl ? "postgres" : "pglite");

const kindNames: Record<Kind, string> = { pglite: "the embedded database", postgres: "a PostgreSQL database" };

/** A file named for the other database's format would be refused, or misread, by whoever restores it. */
function refuseOtherKindsName(settings: BackupSettings, file: string): void {
  const kind = kindOfSettings(settings);
  const other: Kind = kind === "postgres" ? "pglite" : "postgres";
  if (!file.endsWith(backupExtensions[other])) return;
  throw new BackupError(
    `${file} ends ${backupExtensions[other]}, the name of a backup of ${kindNames[other]}, but DATABASE_URL is ${kind === "postgres" ? "set" : "unset"}, so this is a backup of ${kindNames[kind]}: give it a name ending ${backupExtensions[kind]}. Nothing was written.`,
  );
}

/** ./backups/academy-20261124T101500Z.postgres.dump */
export function defaultBackupFile(settings: BackupSettings, now = new Date()): string {
  return path.resolve("backups", `academy-${utcStamp(now)}${backupExtensions[kindOfSettings(settings)]}`);
}

/** Writes the configured database to FILE, through FILE.partial so a failed backup never leaves a file that looks whole. */
export async function backupDatabase(settings: BackupSettings, file: string): Promise<{ source: string; bytes: number }> {
  refuseOtherKindsName(settings, file);
  if (existsSync(file)) throw new BackupError(`${file} already exists: give another file name, or move that file away first.`);
  const partial = `${file}.partial`;
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await rm(partial, { force: true });
  } catch (error) {
    throw new BackupError(`Cannot write a backup to ${file}: ${(error as Error).message}`, { cause: error });
  }
  try {
    const source = settings.databaseUrl ? await backupPostgres(settings.databaseUrl, partial) : await backupPglite(settings.dataDir, partial);
    await rename(partial, file);
    return { source, bytes: (await stat(file)).size };
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

/** What a file holds, from its first bytes: pg_dump's custom archives start "PGDMP", PGlite's tarballs are gzip. */
async function kindOfFile(file: string): Promise<Kind> {
  const start = Buffer.alloc(5);
  try {
    const handle = await open(file);
    await handle.read(start, 0, 5, 0).finally(() => handle.close());
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    throw new BackupError(code === "ENOENT" ? `${file} does not exist.` : `${file} cannot be read: ${message}`, { cause: error });
  }
  if (start.toString("latin1") === "PGDMP") return "postgres";
  if (start[0] === 0x1f && start[1] === 0x8b) return "pglite";
  throw new BackupError(
    `${file} is not an Academy backup: it is neither a pg_dump archive (${backupExtensions.postgres}) nor a tarball of the embedded database (${backupExtensions.pglite}).`,
  );
}

/** Restores FILE into the configured database; one that is not empty is replaced only with force. */
export async function restoreDatabase(settings: BackupSettings, file: string, options: { force: boolean }): Promise<RestoreOutcome> {
  const kind = await kindOfFile(file);
  if (kind === "postgres" && !settings.databaseUrl) {
    throw new BackupError(
      `${file} is a backup of a PostgreSQL database, and DATABASE_URL is unset, so the configured database is the embedded one in ${pgliteDir(settings.dataDir)}. Set DATABASE_URL to the PostgreSQL database to restore it into.`,
    );
  }
  if (kind === "pglite" && settings.databaseUrl) {
    throw new BackupError(
      `${file} is a backup of the embedded database (PGlite), which restores only into an embedded database, and DATABASE_URL is set. Unset DATABASE_URL to restore it into ${pgliteDir(settings.dataDir)}.`,
    );
  }
  return settings.databaseUrl ? restorePostgres(settings.databaseUrl, file, options.force) : restorePglite(settings.dataDir, file, options.force);
}

const uploadsPlace = (settings: BackupSettings) => (settings.s3 ? `the S3 bucket ${settings.s3.bucket}` : path.join(settings.dataDir, "uploads"));

/** What a backup leaves out and how to keep it, for the operator reading the backup's output. */
export function backupNotes(settings: BackupSettings): string[] {
  return [
    settings.encryptionKey
      ? "ENCRYPTION_KEY is set in the environment, so the key is NOT in this backup: keep it safe apart from the backup (a password manager or secret store). Without it the profiles and notes in the backup cannot be read."
      : "The encryption key is kept in the database (app_roots), so it is in this backup: whoever has the file can read profiles and notes. Guard it accordingly.",
    `Uploaded files (${uploadsPlace(settings)}) are not in a backup: back them up separately.`,
  ];
}

/** What to do about the key and the uploads after a restore, for the operator reading its output. */
export function restoreNotes(settings: BackupSettings, outcome: RestoreOutcome): string[] {
  const key = settings.encryptionKey
    ? "The server decrypts with ENCRYPTION_KEY from the environment: it must be the key the restored data was encrypted with."
    : outcome.keyStored
      ? "The encryption key came back with the data (app_roots)."
      : "WARNING: the restored database holds no encryption key, so it was encrypted with an ENCRYPTION_KEY from the environment. Set ENCRYPTION_KEY to that key before starting the server: without it the profiles and notes cannot be read.";
  return [key, `Uploaded files (${uploadsPlace(settings)}) are not in a backup: restore them from their own backup if they were lost.`];
}
