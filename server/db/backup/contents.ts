import { readFile } from "node:fs/promises";
import path from "node:path";
import { sql, type SQL } from "drizzle-orm";
import { migrationsFolder, type Db } from "../client.ts";

/** A backup or restore refused or failed, with a sentence an operator can act on. */
export class BackupError extends Error {
  override name = "BackupError";
}

interface Journal {
  entries: { tag: string; when: number }[];
}

const journal = async () => JSON.parse(await readFile(path.join(migrationsFolder, "meta", "_journal.json"), "utf8")) as Journal;

export async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** What a restore did, for its report. */
export interface RestoreOutcome {
  /** "the embedded database in …" or "the PostgreSQL database … on …". */
  target: string;
  /** What the restore replaced, when the target held Academy data (only with --force). */
  replaced: string | null;
  /** Where the replaced embedded database was moved, kept until the operator deletes it. */
  kept: string | null;
  /** What the restored database holds and how it stands against this version's migrations. */
  summary: string;
  /** The restored database has its own encryption key document (app_roots/Encryption). */
  keyStored: boolean;
}

/** How far a database is migrated, in the words of this version's migration folder. */
export interface MigrationLevel {
  applied: number;
  known: number;
  latestTag: string;
}

/**
 * Drizzle records each applied migration's folder time (created_at): Academy's database starts with
 * our first migration, and one later than our last was made by a newer version of Academy.
 */
export async function migrationLevel(createdAt: number[], what: string): Promise<MigrationLevel> {
  const { entries } = await journal();
  const first = entries[0];
  const last = entries.at(-1);
  if (!first || !last) throw new Error(`The migration journal in ${migrationsFolder} lists no migrations.`);
  if (createdAt.length === 0 || Math.min(...createdAt) !== first.when) {
    throw new BackupError(`${what} is not an Academy database: it has no record of Academy's migrations.`);
  }
  const latest = Math.max(...createdAt);
  if (latest > last.when) {
    throw new BackupError(
      `${what} was migrated by a newer version of Academy than this one (which knows up to ${last.tag}). Use that version or a later one.`,
    );
  }
  const latestTag = entries.findLast((entry) => entry.when <= latest)?.tag ?? first.tag;
  return { applied: createdAt.length, known: entries.length, latestTag };
}

/** What a database holds of Academy's: its tables in `public` and `drizzle`, people, and migrations. */
export interface Contents {
  tables: number;
  users: number;
  /** created_at of each applied migration; empty when the migrations table is missing. */
  migrations: number[];
  /** The encryption key document (app_roots/Encryption) is there: no ENCRYPTION_KEY was set when it was made. */
  keyStored: boolean;
}

export async function contentsOf(db: Db): Promise<Contents> {
  const [found] = await rows<{ tables: number; users: string | null; migrations: string | null; roots: string | null }>(
    db,
    sql`select count(*)::int as tables,
          to_regclass('public.user')::text as users,
          to_regclass('drizzle.__drizzle_migrations')::text as migrations,
          to_regclass('public.app_roots')::text as roots
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname in ('public', 'drizzle') and c.relkind in ('r', 'p')`,
  );
  const users = found?.users ? ((await rows<{ n: number }>(db, sql`select count(*)::int as n from public."user"`))[0]?.n ?? 0) : 0;
  const migrations = found?.migrations
    ? (await rows<{ created_at: string }>(db, sql`select created_at::text from drizzle.__drizzle_migrations`)).map((row) => Number(row.created_at))
    : [];
  const keyStored = found?.roots ? (await rows(db, sql`select 1 from public.app_roots where id = 'Encryption' and key is not null`)).length > 0 : false;
  return { tables: found?.tables ?? 0, users, migrations, keyStored };
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

/** "29 tables, 3 user accounts, migrated up to 0014_credit_notes", for refusals and reports. */
export async function describeContents(contents: Contents): Promise<string> {
  const parts = [plural(contents.tables, "table", "tables"), plural(contents.users, "user account", "user accounts")];
  if (contents.migrations.length > 0) {
    const { entries } = await journal();
    const latest = Math.max(...contents.migrations);
    parts.push(`migrated up to ${entries.findLast((entry) => entry.when <= latest)?.tag ?? "an unknown migration"}`);
  }
  return parts.join(", ");
}

/** After a restore: what the server will do about migrations this version has and the backup had not. */
export function levelSentence(level: MigrationLevel): string {
  const behind = level.known - level.applied;
  return behind > 0 ? ` The server applies this version's ${plural(behind, "newer migration", "newer migrations")} on its next start.` : "";
}

/** 20261124T101500Z: UTC, so names made with it sort by time wherever they are made. */
export const utcStamp = (date = new Date()) => date.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");

/** "The embedded database …" at the start of a sentence. */
export const capitalised = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
