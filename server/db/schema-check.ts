import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { sql } from "drizzle-orm";
import { migrationsFolder, type Db } from "./client.ts";

/** Refused start: the database lacks tables, columns, indexes or constraints its migrations made (a damaged restore, a hand edit). */
export class SchemaMismatch extends Error {
  override name = "SchemaMismatch";
}

/** The parts of drizzle-kit's snapshot (meta/NNNN_snapshot.json) that name objects in the database. */
interface Snapshot {
  tables: Record<
    string,
    {
      name: string;
      schema: string;
      columns: Record<string, { name: string; primaryKey: boolean }>;
      indexes: Record<string, { name: string }>;
      foreignKeys: Record<string, { name: string }>;
      compositePrimaryKeys: Record<string, { name: string }>;
      uniqueConstraints: Record<string, { name: string }>;
      checkConstraints: Record<string, { name: string }>;
    }
  >;
  sequences?: Record<string, { name: string; schema: string }>;
}

type Kind = "table" | "column" | "index" | "constraint" | "sequence";

/** PostgreSQL keeps the first 63 bytes of a name (NAMEDATALEN), so a longer one drizzle-kit wrote is found by those. */
const truncated = (name: string) => Buffer.from(name).subarray(0, 63).toString();

/** What the newest snapshot says `public` holds, as "kind name" keys ("column orders.user_id", "constraint user.user_pkey"). */
async function expectedObjects(): Promise<Map<string, { kind: Kind; name: string }>> {
  const dir = path.join(migrationsFolder, "meta");
  const newest = (await readdir(dir)).filter((name) => /^\d{4}_snapshot\.json$/.test(name)).toSorted().at(-1);
  if (!newest) throw new Error(`There is no migration snapshot in ${dir}.`);
  const snapshot = JSON.parse(await readFile(path.join(dir, newest), "utf8")) as Snapshot;
  const expected = new Map<string, { kind: Kind; name: string }>();
  // Constraint names are unique within their table, every other name within the schema.
  const add = (kind: Kind, name: string, table?: string) =>
    expected.set(`${kind} ${table ? `${table}.` : ""}${truncated(name)}`, { kind, name: kind === "column" ? `${table}.${name}` : truncated(name) });
  for (const table of Object.values(snapshot.tables)) {
    if ((table.schema || "public") !== "public") continue;
    add("table", table.name);
    for (const column of Object.values(table.columns)) add("column", column.name, table.name);
    // A primary key, and each unique constraint, is a constraint with an index of the same name.
    const keys = [
      ...(Object.values(table.columns).some((column) => column.primaryKey) ? [`${table.name}_pkey`] : []),
      ...Object.values(table.compositePrimaryKeys).map((key) => key.name),
      ...Object.values(table.uniqueConstraints).map((unique) => unique.name),
    ];
    for (const name of keys) {
      add("constraint", name, table.name);
      add("index", name);
    }
    for (const key of [...Object.values(table.foreignKeys), ...Object.values(table.checkConstraints)]) add("constraint", key.name, table.name);
    for (const index of Object.values(table.indexes)) add("index", index.name);
  }
  for (const sequence of Object.values(snapshot.sequences ?? {})) if ((sequence.schema || "public") === "public") add("sequence", sequence.name);
  return expected;
}

const plurals: Record<Kind, [string, string]> = {
  table: ["table", "tables"],
  column: ["column", "columns"],
  index: ["index", "indexes"],
  constraint: ["constraint", "constraints"],
  sequence: ["sequence", "sequences"],
};

/**
 * Compares the tables, columns, indexes, constraints and sequences of `public` with the newest migration
 * snapshot, in one catalogue query, and throws SchemaMismatch naming what is missing. Extra objects are
 * allowed: an operator may add an index of their own. Run after migrating, before the server reports ready.
 */
export async function checkSchema(db: Db): Promise<void> {
  const expected = await expectedObjects();
  const result = await db.execute<{ key: string }>(sql`
    select 'table ' || c.relname as key from pg_class c where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p')
    union all
    select 'column ' || c.relname || '.' || a.attname from pg_attribute a join pg_class c on c.oid = a.attrelid
      where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped
    union all
    select 'index ' || c.relname from pg_class c where c.relnamespace = 'public'::regnamespace and c.relkind in ('i', 'I')
    union all
    select 'constraint ' || c.relname || '.' || k.conname from pg_constraint k join pg_class c on c.oid = k.conrelid where k.connamespace = 'public'::regnamespace
    union all
    select 'sequence ' || c.relname from pg_class c where c.relnamespace = 'public'::regnamespace and c.relkind = 'S'`);
  for (const row of (result as unknown as { rows: { key: string }[] }).rows) expected.delete(row.key);
  if (expected.size === 0) return;
  const missing = Map.groupBy(expected.values(), (object) => object.kind);
  const parts = (Object.keys(plurals) as Kind[]).flatMap((kind) => {
    const names = (missing.get(kind) ?? []).map((object) => object.name);
    if (names.length === 0) return [];
    const shown = names.length > 5 ? [...names.slice(0, 5), "…"] : names;
    return `${names.length} ${plurals[kind][names.length === 1 ? 0 : 1]} ${names.length === 1 ? "is" : "are"} missing (${shown.join(", ")})`;
  });
  throw new SchemaMismatch(`The database schema does not match the migrations: ${parts.join("; ")}. Restore a good backup.`);
}
