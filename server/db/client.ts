import { existsSync, readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { Pool } from "pg";
import { pgliteChanges, postgresChanges, type ChangeFeed } from "./changes.ts";
import { lockPgliteData } from "./pglite-lock.ts";
import * as schema from "./schema.ts";
import { SharedReads } from "./shared-reads.ts";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** The handle a transaction's callback gets: every query function takes a Db or a Tx. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  /**
   * Applies every pending migration; safe to call on every start, from any number of processes
   * at once. Throws SchemaTooNew when the database has a migration this code does not know.
   */
  migrate(): Promise<void>;
  /** True when the database answers and every migration in the folder is applied. */
  ready(): Promise<boolean>;
  close(): Promise<void>;
  /** What is the same for every visitor, kept in this process until the database announces a change to it (server/db/shared-reads.ts). */
  sharedReads: SharedReads;
  /** The connection pool's state now, for /metrics; PGlite has no pool. */
  poolStats?(): PoolStats;
}

export interface PoolStats {
  /** Open connections, idle or in use. */
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
  /** The most connections the pool opens (DATABASE_POOL_SIZE). */
  max: number;
}

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

/** Refused start: a newer version of Academy has migrated this database, and this one would misread it. */
export class SchemaTooNew extends Error {
  override name = "SchemaTooNew";
}

interface Journal {
  entries: { tag: string; when: number }[];
}

let journal: Promise<Journal> | undefined;
const readJournal = () => (journal ??= readFile(path.join(migrationsFolder, "meta", "_journal.json"), "utf8").then((text) => JSON.parse(text) as Journal));

async function migrationCount(): Promise<number> {
  return (await readJournal()).entries.length;
}

/** Drizzle records each applied migration's folder time; one later than our last is a migration we do not have. */
async function refuseNewerSchema(db: Db): Promise<void> {
  const rows = await db.execute<{ latest: string | null }>(sql`select max(created_at)::text as latest from drizzle.__drizzle_migrations`);
  const latest = Number((rows as unknown as { rows: { latest: string | null }[] }).rows[0]?.latest ?? 0);
  const known = (await readJournal()).entries.at(-1);
  if (known && latest > known.when) {
    throw new SchemaTooNew(
      `The database has a migration newer than this version of Academy knows (its last is ${known.tag}). Deploy the newer version, or restore a backup taken before it migrated.`,
    );
  }
}

/**
 * The shared reads of a database, over a feed of its changes started by the first read (so the
 * operator's commands, which read nothing shared, never listen). Until it listens, reads go to the database.
 */
function sharedReadsOver(startFeed: () => Promise<ChangeFeed>) {
  let feed: ChangeFeed | null = null;
  let starting: Promise<void> | null = null;
  let closed = false;
  const reads: SharedReads = new SharedReads(() => {
    if (!feed && !starting && !closed) {
      starting = startFeed().then(
        (started) => {
          if (closed) return void started.close();
          feed = started;
          started.subscribe((table) => reads.changed(table));
        },
        () => {
          // PGlite could not listen (closing): the next read tries again.
          starting = null;
        },
      );
    }
    return feed;
  });
  const close = async () => {
    closed = true;
    await starting;
    await feed?.close();
  };
  return { reads, close };
}

function database(db: Db, kind: Database["kind"], migrate: () => Promise<void>, close: () => Promise<void>, startFeed: () => Promise<ChangeFeed>): Database {
  const shared = sharedReadsOver(startFeed);
  return {
    db,
    kind,
    async migrate() {
      await migrate();
      await refuseNewerSchema(db);
    },
    sharedReads: shared.reads,
    close: () => shared.close().finally(close),
    async ready() {
      try {
        const rows = await db.execute<{ n: number }>(
          sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
        );
        const applied = (rows as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0;
        return applied >= (await migrationCount());
      } catch {
        return false;
      }
    },
  };
}

/** How long PGlite's queries may run one after another before the event loop gets a turn. */
const pgliteRunMs = 5;

/**
 * The PGlite the application's queries go through: one query (or one whole transaction) at a time,
 * and a turn of the event loop once they have run for `pgliteRunMs` on end. PGlite answers in this
 * thread through promises alone: left to itself, every query waiting for it runs back to back, and a
 * busy server reads no new request and accepts no connection until all of them are done (libuv accepts
 * one connection a turn; a mixed load at 200 connections saw the first requests of some wait 30 s).
 * A turn before every query cost 10–20 % of the signed-in pages' throughput on PGlite. Queries inside a
 * transaction run straight on, within its turn.
 */
function takingTurns(client: PGlite): PGlite {
  let last: Promise<unknown> = Promise.resolve();
  let runSince = performance.now();
  const inTurn = <T>(run: () => Promise<T>): Promise<T> => {
    const result = last.then(async () => {
      if (performance.now() - runSince > pgliteRunMs) {
        await nextTurn();
        runSince = performance.now();
      }
      return run();
    });
    last = result.catch(() => undefined);
    return result;
  };
  const query = (...args: Parameters<PGlite["query"]>) => inTurn(() => client.query(...args));
  const transaction = (...args: Parameters<PGlite["transaction"]>) => inTurn(() => client.transaction(...args));
  return new Proxy(client, {
    get(target, property) {
      if (property === "query") return query;
      if (property === "transaction") return transaction;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** Embedded PostgreSQL: a PGlite on disk (DATA_DIR/db) or in memory (tests). */
export function fromPglite(client: PGlite): Database {
  let migrating: Promise<void> = Promise.resolve();
  const db = drizzlePglite({ client: takingTurns(client), schema }) as unknown as Db;
  return database(
    db,
    "pglite",
    // One connection, so no server-side lock: calls wait for each other here instead.
    () => (migrating = migrating.catch(() => {}).then(() => migratePglite(drizzlePglite({ client, schema }), { migrationsFolder }))),
    () => client.close(),
    () => pgliteChanges(client),
  );
}

/** Any number of 64-bit integers would do: this one is ours, shared by every Academy process on the server. */
const migrationLock = 7_316_252_117_040_891_015n;

export function fromPostgres(url: string, options: { poolSize?: number } = {}): Database {
  const max = options.poolSize ?? 10;
  const pool = new Pool({ connectionString: url, max });
  // The server may close a connection we are not using (restart, failover, a forced drop): the pool
  // discards that client and opens a new one for the next query, so this is no reason to crash.
  pool.on("error", () => {});
  pool.on("connect", (client) => client.on("error", () => {}));
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  const poolStats = (): PoolStats => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max });
  const postgres = database(
    db,
    "postgres",
    // Processes starting together take turns: the first migrates, the rest find nothing left to do.
    // The lock is held by the connection that migrates, so it ends with that connection if the process dies.
    async () => {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query("select pg_advisory_lock($1)", [migrationLock.toString()]);
        await migratePg(drizzlePg({ client, schema }), { migrationsFolder });
      } finally {
        await client.query("select pg_advisory_unlock($1)", [migrationLock.toString()]).catch((error: Error) => (broken = error));
        client.release(broken);
      }
    },
    () => pool.end(),
    () => postgresChanges(url),
  );
  return { ...postgres, poolStats };
}

/** Refused start: a restore stopped between moving the embedded database aside and putting the restored one in its place. */
export class InterruptedRestore extends Error {
  override name = "InterruptedRestore";
}

/**
 * A missing DATA_DIR/db beside a database a restore moved aside (db.replaced-<time>, server/db/backup/pglite.ts)
 * is a restore killed between its two renames: opening would make a new, empty database. What to say, or null.
 */
function interruptedRestore(dataDir: string): string | null {
  if (existsSync(path.join(dataDir, "db", "PG_VERSION"))) return null;
  const [newest] = readdirSync(dataDir).filter((name) => name.startsWith("db.replaced-")).toSorted().toReversed();
  if (!newest) return null;
  return `There is no embedded database in ${path.join(dataDir, "db")}, but ${path.join(dataDir, newest)} is beside it: a restore stopped after moving the database aside. Run the restore again, or move ${newest} back to db, before starting Academy.`;
}

/** node-postgres when DATABASE_URL is set, otherwise PGlite with its files in DATA_DIR/db, locked to this process (throws DatabaseInUse). */
export async function openDatabase(options: { databaseUrl: string | undefined; dataDir: string; databasePoolSize: number }): Promise<Database> {
  if (options.databaseUrl) return fromPostgres(options.databaseUrl, { poolSize: options.databasePoolSize });
  // PostgreSQL's default 128 MB buffer pool lives in PGlite's WebAssembly memory, which never shrinks;
  // the files sit in the operating system's page cache anyway, so a small pool costs no speed and
  // keeps some 130 MB off the process (measured: resident 466 → 335 MB idle, 562 → 417 MB under load).
  const lock = lockPgliteData(options.dataDir);
  const interrupted = interruptedRestore(options.dataDir);
  if (interrupted) {
    lock.release();
    throw new InterruptedRestore(interrupted);
  }
  const client = await PGlite.create(path.join(options.dataDir, "db"), { postgresqlconf: ["shared_buffers=16MB"] }).catch((error: unknown) => {
    lock.release();
    throw error;
  });
  const embedded = fromPglite(client);
  return { ...embedded, close: () => embedded.close().finally(lock.release) };
}
