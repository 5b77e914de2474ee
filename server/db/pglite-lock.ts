import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";

// PGlite takes no lock on its folder, so the lock is SQLite's: an exclusive transaction on DATA_DIR/db.lock
// holds a POSIX record lock (fcntl) that the kernel drops when the process ends, kill -9 included, so no
// stale lock is ever left to clear and no two processes can both take it (a socket or pid file has either).

/** Refused: another process has the embedded database open. The message says which and what to do. */
export class DatabaseInUse extends Error {
  override name = "DatabaseInUse";
}

export interface PgliteLock {
  /** Lets another process open the database; the lock also ends with this process. */
  release(): void;
  [Symbol.dispose](): void;
}

/** SQLite's "database is locked": another connection holds the lock. */
const sqliteBusy = 5;

/** Locks kept reachable for as long as they are held: a collected connection would close and drop its lock. */
const held = new Set<DatabaseSync>();

interface Holder {
  pid: number;
  host: string;
}

function readHolder(file: string): Holder | null {
  try {
    const holder = JSON.parse(readFileSync(file, "utf8")) as Partial<Holder>;
    return typeof holder.pid === "number" && typeof holder.host === "string" ? { pid: holder.pid, host: holder.host } : null;
  } catch {
    return null;
  }
}

/**
 * Takes the embedded database in DATA_DIR/db for this process, before it is opened: the server, a
 * backup and a restore each take it, so none opens the folder while another process has it open.
 * Throws DatabaseInUse when another process holds it.
 */
export function lockPgliteData(dataDir: string): PgliteLock {
  mkdirSync(dataDir, { recursive: true });
  const holderFile = path.join(dataDir, "db.lock.holder");
  const connection = new DatabaseSync(path.join(dataDir, "db.lock"), { timeout: 0 });
  try {
    // Nothing is ever written, so the journal stays in memory: a file would be left beside the data when a holder is killed.
    connection.exec("pragma journal_mode = memory; begin exclusive");
  } catch (error) {
    connection.close();
    if ((error as { errcode?: unknown }).errcode !== sqliteBusy) throw error;
    const holder = readHolder(holderFile);
    const which = holder ? ` (pid ${holder.pid}${holder.host === hostname() ? "" : ` on ${holder.host}`})` : "";
    throw new DatabaseInUse(
      `The embedded database in ${path.join(dataDir, "db")} is in use by another Academy process${which}. Stop it first, or set DATABASE_URL to share a PostgreSQL database between processes.`,
    );
  }
  held.add(connection);
  // Only to name the holder in a refusal: the lock itself is the transaction above.
  writeFileSync(holderFile, JSON.stringify({ pid: process.pid, host: hostname() } satisfies Holder));
  const release = () => {
    if (!held.delete(connection)) return;
    connection.close();
  };
  return { release, [Symbol.dispose]: release };
}
