import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadCatalog, type Catalog } from "../../server/catalog/index.ts";
import { createOrder } from "../../server/commerce/index.ts";
import { fromPglite, fromPostgres, type Database, type Db } from "../../server/db/client.ts";
import { checkSchema, SchemaMismatch } from "../../server/db/schema-check.ts";
import { createNote } from "../../server/notes/index.ts";
import { childEnv, outputAndExit, runNode, spawnNode } from "../support/node-process.ts";
import { scratchSpace } from "../support/scratch.ts";
import { contentDir, databaseKinds, deliverTestWebhooks, identitySuite, payInTestSandbox, projectRoot, startTestPayments, type IdentitySuite } from "./helpers.ts";

// The issue's fault suite: real archives cut where an interrupted copy would cut them, and restores killed
// midway, over a populated database. Each must leave that database as it was, or restore the backup whole.

const serverUrl = process.env.TEST_DATABASE_URL;
const { admin, folder: temporary, database: scratchDatabase } = scratchSpace(serverUrl);

interface Place {
  env: Record<string, string>;
  open(): Promise<Database>;
  /** Everything the database holds, as text: equal before and after means the restore changed nothing. */
  state(): Promise<unknown>;
  /** The database byte for byte without opening it: pg_dump's script, or each file of PGlite's folder and what lies beside it. */
  bytes(): Promise<unknown>;
}

interface Kind {
  name: string;
  extension: string;
  place(): Promise<Place>;
}

async function rows<T>(db: Db, query: string): Promise<T[]> {
  return ((await db.execute(sql.raw(query))) as unknown as { rows: T[] }).rows;
}

/** Every row of every table, and the catalogue of `public` and `drizzle`: columns, constraints, indexes, sequences, triggers. */
async function contentsAndCatalogue(db: Db) {
  const tables = await rows<{ name: string }>(
    db,
    `select format('%I.%I', n.nspname, c.relname) as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname in ('public', 'drizzle') and c.relkind in ('r', 'p') order by 1`,
  );
  const data: Record<string, string[]> = {};
  for (const { name } of tables) data[name] = (await rows<{ row: string }>(db, `select t::text as row from ${name} t order by 1`)).map((r) => r.row);
  const schemas = `('public', 'drizzle')`;
  return {
    data,
    columns: await rows(db, `select table_schema, table_name, column_name, data_type, is_nullable, column_default from information_schema.columns where table_schema in ${schemas} order by 1, 2, 3`),
    constraints: await rows(db, `select conrelid::regclass::text as on_table, conname, pg_get_constraintdef(oid) as def from pg_constraint where connamespace::regnamespace::text in ${schemas} order by 1, 2`),
    indexes: await rows(db, `select schemaname, indexname, indexdef from pg_indexes where schemaname in ${schemas} order by 1, 2`),
    sequences: await rows(db, `select schemaname, sequencename, last_value::text from pg_sequences where schemaname in ${schemas} order by 1, 2`),
    triggers: await rows(db, `select tgrelid::regclass::text as on_table, tgname from pg_trigger where not tgisinternal order by 1, 2`),
  };
}

/** The lock every opener of the folder takes (server/db/pglite-lock.ts), which names its last holder: not data. */
const lockFiles = ["db.lock", "db.lock.holder"];
const besideLock = async (dataDir: string) => (await readdir(dataDir)).filter((name) => !lockFiles.includes(name)).toSorted();

const pgliteKind: Kind = {
  name: "PGlite",
  extension: ".pglite.tar.gz",
  async place() {
    const dataDir = await temporary("academy-faults-data-");
    const open = async () => fromPglite(await PGlite.create(path.join(dataDir, "db")));
    return {
      env: { DATA_DIR: dataDir },
      open,
      async bytes() {
        const files: Record<string, string> = {};
        for (const entry of await readdir(dataDir, { recursive: true, withFileTypes: true })) {
          if (!entry.isFile()) continue;
          const file = path.join(entry.parentPath, entry.name);
          if (lockFiles.includes(path.relative(dataDir, file))) continue;
          files[path.relative(dataDir, file)] = createHash("sha256").update(await readFile(file)).digest("hex");
        }
        return { folders: await besideLock(dataDir), files };
      },
      async state() {
        const database = await open();
        try {
          // What is beside the database counts too: a failed restore leaves no half-unpacked or moved-aside folder.
          return { folders: await besideLock(dataDir), ...(await contentsAndCatalogue(database.db)) };
        } finally {
          await database.close();
        }
      },
    };
  },
};

/** pg_dump's script of the whole database, schema and data: text equal byte for byte when nothing changed. */
function pgDump(url: string): Promise<string> {
  const child = spawn("pg_dump", ["--no-sync", `--dbname=${url}`], { stdio: ["ignore", "pipe", "pipe"] });
  // Decoded once at the end: a character split between two chunks would read as two U+FFFD, and
  // the same database would dump differently from one run to the next.
  const out: Buffer[] = [];
  let err = "";
  child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
  child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.once("close", (code) =>
      code === 0 ? resolve(Buffer.concat(out).toString().replace(/^\\(un)?restrict \S+$/gm, "")) : reject(new Error(`pg_dump failed:\n${err}`)),
    ),
  );
}

const postgresKind: Kind = {
  name: "PostgreSQL",
  extension: ".postgres.dump",
  async place() {
    const { url: href } = await scratchDatabase("academy_faults_");
    return { env: { DATABASE_URL: href }, open: async () => fromPostgres(href, { poolSize: 2 }), state: () => pgDump(href), bytes: () => pgDump(href) };
  },
};

const kinds = [pgliteKind, ...(serverUrl ? [postgresKind] : [])];

/** `npm run backup|restore -- ARGS` as an operator runs it, on the same Node. */
function start(script: "backup" | "restore", args: string[], env: Record<string, string>) {
  const child = spawnNode([path.join(projectRoot, "scripts", `${script}.ts`), ...args], { cwd: projectRoot, env: childEnv(env) });
  let output = "";
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return { child, done: outputAndExit(child), output: () => output };
}

const run = (script: "backup" | "restore", args: string[], env: Record<string, string>) => start(script, args, env).done;

/** Polls `probe` until it finds something; on timeout, says what `explain` reports of the state it was waiting on. */
async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, explain: () => Promise<string> = async () => "", timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.${await explain()}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The processes whose parent is `parent`, with their command lines. */
async function childrenOf(parent: number): Promise<{ pid: number; command: string[] }[]> {
  const found: { pid: number; command: string[] }[] = [];
  for (const name of (await readdir("/proc")).filter((entry) => /^\d+$/.test(entry))) {
    const status = await readFile(`/proc/${name}/stat`, "utf8").catch(() => "");
    // Fields after the command's closing parenthesis: state, ppid, …
    const ppid = Number(status.slice(status.lastIndexOf(")") + 2).split(" ")[1]);
    if (ppid !== parent) continue;
    const command = (await readFile(`/proc/${name}/cmdline`, "utf8").catch(() => "")).split("\0").filter(Boolean);
    found.push({ pid: Number(name), command });
  }
  return found;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** A person with a paid order and a note, through the functions the product uses. */
async function addCustomer(suite: IdentitySuite, catalog: Catalog, name: string): Promise<void> {
  const person = await suite.signUp(name);
  const payments = startTestPayments(suite.db, catalog, suite.identity);
  const course = catalog.courses.find((c) => c.id === "react-fundamentals");
  const lessonId = course?.modules[0]?.lessons[0]?.id ?? "";
  const order = await createOrder(payments.shop, { userId: person.id, courseId: "react-fundamentals", idempotencyKey: randomBytes(8).toString("hex") });
  await payInTestSandbox(payments, order);
  await deliverTestWebhooks(suite.db, payments);
  await createNote(suite.db, suite.identity.cipher, catalog, person.id, {
    title: `${name}'s note`,
    body: `Notes of ${name}: hooks run in order, ${randomBytes(16).toString("hex")}.`,
    lesson: { courseId: "react-fundamentals", lessonId },
  });
}

/** The newest PostgreSQL client programs of Debian's layout, or those on PATH. */
async function realClientDir(): Promise<string> {
  const majors = (await readdir("/usr/lib/postgresql").catch(() => [] as string[])).toSorted((a, b) => Number(a) - Number(b));
  const debian = majors.map((major) => path.join("/usr/lib/postgresql", major, "bin")).findLast((dir) => existsSync(path.join(dir, "pg_restore")));
  const onPath = (process.env.PATH ?? "").split(path.delimiter).find((dir) => dir && existsSync(path.join(dir, "pg_restore")));
  const found = debian ?? onPath;
  if (!found) throw new Error("PostgreSQL's client programs are not installed.");
  return found;
}

let haltingDir: string | undefined;
/**
 * A folder for the front of PATH holding PostgreSQL's own pg_dump and psql, and a pg_restore that runs the real one
 * but, when it writes the whole restore script to its standard output, passes on only the first half and then waits
 * until it is killed: a pg_restore dying midway, at a point the test controls.
 */
async function haltingTools(): Promise<string> {
  if (haltingDir) return haltingDir;
  const real = await realClientDir();
  const dir = await temporary("academy-halting-tools-");
  await symlink(path.join(real, "pg_dump"), path.join(dir, "pg_dump"));
  await symlink(path.join(real, "psql"), path.join(dir, "psql"));
  await writeFile(
    path.join(dir, "halting-pg-restore.mjs"),
    `import { spawn } from "node:child_process";
const args = process.argv.slice(2);
const child = spawn(${JSON.stringify(path.join(real, "pg_restore"))}, args, { stdio: ["ignore", "pipe", "inherit"] });
const chunks = [];
child.stdout.on("data", (chunk) => chunks.push(chunk));
child.on("close", (code) => {
  const output = Buffer.concat(chunks);
  if (!args.includes("--file=-") || args.includes("--data-only")) return process.stdout.write(output, () => process.exit(code ?? 1));
  // Half the script, or up to the end of the table's rows the middle falls in: psql then waits for a statement,
  // not for more rows, whatever the random data made each table's size.
  const text = output.toString("latin1");
  const middle = output.length >> 1;
  const copy = text.lastIndexOf("\\nCOPY ", middle);
  const rowsEnd = copy === -1 ? -1 : text.indexOf("\\n\\\\.\\n", copy) + 4;
  process.stdout.write(output.subarray(0, rowsEnd > middle ? rowsEnd : middle));
  setInterval(() => {}, 60_000);
});
`,
  );
  await writeFile(path.join(dir, "pg_restore"), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(dir, "halting-pg-restore.mjs"))} "$@"\n`, { mode: 0o755 });
  haltingDir = dir;
  return dir;
}

let catalog: Catalog;
beforeAll(async () => {
  catalog = await loadCatalog(contentDir);
});

const cuts = [10, 50, 90, 99];

describe.each(kinds)("restore faults on $name", { timeout: 120_000 }, (kind) => {
  let place: Place;
  let archive = "";
  let atBackup: unknown;
  let before: unknown;
  let beforeBytes: unknown;

  beforeAll(async () => {
    place = await kind.place();
  });

  describe("a populated database, backed up, then changed", () => {
    const suite = identitySuite(() => place.open(), () => catalog);

    it("has people, orders and notes", async () => {
      for (const name of ["Asha Verma", "Ravi Kumar", "Meera Iyer"]) await addCustomer(suite, catalog, name);
      const [counted] = await rows<{ users: number; orders: number; notes: number }>(
        suite.db,
        `select (select count(*)::int from public."user") as users, (select count(*)::int from orders) as orders, (select count(*)::int from notes) as notes`,
      );
      expect(counted).toEqual({ users: 3, orders: 3, notes: 3 });
    });
  });

  describe("backed up", () => {
    it("makes one archive", async () => {
      const dir = await temporary("academy-faults-backups-");
      archive = path.join(dir, `academy${kind.extension}`);
      const backedUp = await run("backup", [archive], place.env);
      expect(backedUp.stderr).toBe("");
      expect(backedUp.code).toBe(0);
      atBackup = await place.state();
    });
  });

  describe("changed after the backup", () => {
    const suite = identitySuite(() => place.open(), () => catalog);

    it("gains a customer the backup does not have", async () => {
      await addCustomer(suite, catalog, "Kiran Rao");
    });
  });

  describe("restoring", () => {
    beforeAll(async () => {
      before = await place.state();
      expect(before).not.toEqual(atBackup);
      beforeBytes = await place.bytes();
    });

    it.each(cuts)("refuses the archive cut at %i per cent with a sentence, and the database is as it was", async (percent) => {
      const whole = await readFile(archive);
      const cut = archive.replace(kind.extension, `-cut-${percent}${kind.extension}`);
      await writeFile(cut, whole.subarray(0, Math.floor((whole.length * percent) / 100)));
      const restored = await run("restore", [cut, "--force"], place.env);
      expect(await place.bytes()).toEqual(beforeBytes);
      expect(restored.code).toBe(1);
      expect(restored.stdout).toBe("");
      expect(restored.stderr).toContain(`${cut} is damaged or incomplete`);
      expect(restored.stderr).toContain("Nothing was changed");
      expect(restored.stderr).not.toMatch(/TypeError|\n\s+at /);
    });

    if (kind === postgresKind) {
      const leftovers: number[] = [];
      afterEach(async () => {
        for (const pid of leftovers.splice(0)) {
          for (const child of await childrenOf(pid)) process.kill(child.pid, "SIGKILL");
          if (alive(pid)) process.kill(pid, "SIGKILL");
        }
      });

      /**
       * A restore of the good archive held midway: pg_restore (through a stand-in on PATH) has written half of its
       * script (never stopping inside a table's rows) and waits, and psql has run that half inside its transaction, old tables dropped, new ones half made.
       */
      async function heldMidway() {
        const name = new URL(place.env.DATABASE_URL as string).pathname.slice(1);
        const psqlSessions = () =>
          admin(async (client) => (await client.query(`select state, backend_xid, wait_event_type, wait_event, left(query, 120) as query from pg_stat_activity where datname = $1 and application_name = 'psql'`, [name])).rows);
        const sessionsOfDatabase = async () =>
          `\nSessions of ${name}: ${JSON.stringify(await admin(async (client) => (await client.query(`select pid, application_name, backend_type, state, backend_xid, wait_event_type, wait_event, left(query, 120) as query from pg_stat_activity where datname = $1`, [name])).rows))}`;
        // The last test's psql may still be rolling back on a loaded machine, and a restore refuses a database another session uses.
        await until("the last restore's session to end", async () => (await psqlSessions()).length === 0, sessionsOfDatabase);
        const restore = start("restore", [archive, "--force"], { ...place.env, PATH: `${await haltingTools()}${path.delimiter}${process.env.PATH ?? ""}` });
        const pid = restore.child.pid as number;
        leftovers.push(pid);
        await until("psql to run the first half of the restore", async () => {
          if (restore.child.exitCode !== null) throw new Error(`The restore ended before its midway point:\n${(await restore.done).stderr}`);
          return (await psqlSessions()).some((session) => session.backend_xid !== null && session.state === "idle in transaction");
        }, async () => `${await sessionsOfDatabase()}\nRestore's processes: ${JSON.stringify(await childrenOf(pid))}\nIts output so far: ${restore.output()}`);
        const children = await childrenOf(pid);
        const writer = children.find((child) => child.command.some((arg) => arg.endsWith("halting-pg-restore.mjs")));
        const psql = children.find((child) => child.command[0]?.endsWith("psql"));
        if (!writer || !psql) throw new Error(`pg_restore and psql are not both running: ${JSON.stringify(children)}`);
        leftovers.push(writer.pid);
        return { restore, pid, writer: writer.pid, psql: psql.pid };
      }

      it("a restore whose pg_restore dies midway says so, and the database is as it was", async () => {
        const held = await heldMidway();
        process.kill(held.writer, "SIGKILL");
        const restored = await held.restore.done;
        expect(await place.state()).toEqual(before);
        expect(restored.code).toBe(1);
        expect(restored.stderr).toContain("Nothing was changed");
      });

      it("a restore whose psql dies midway says so, and the database is as it was", async () => {
        const held = await heldMidway();
        process.kill(held.psql, "SIGKILL");
        const restored = await held.restore.done;
        expect(await place.state()).toEqual(before);
        expect(restored.code).toBe(1);
        expect(restored.stderr).toContain("Nothing was changed");
      });

      it("a restore process killed midway leaves the database as it was", async () => {
        const held = await heldMidway();
        process.kill(held.pid, "SIGKILL");
        await held.restore.done;
        await until("psql to end", async () => !alive(held.psql));
        expect(await place.state()).toEqual(before);
      });
    } else {
      it("a restore process killed midway leaves the database as it was, and the next restore clears what it left", async () => {
        const dataDir = place.env.DATA_DIR as string;
        const restore = start("restore", [archive, "--force"], place.env);
        await until("the restore to start unpacking", async () => (await readdir(dataDir)).some((name) => name.startsWith("db.restoring-")));
        process.kill(restore.child.pid as number, "SIGKILL");
        await restore.done;
        const state = (await place.state()) as { folders: string[] };
        expect(state).toEqual({ ...(before as object), folders: expect.arrayContaining(["db"]) as unknown });
        expect(state.folders.filter((name) => name !== "db").every((name) => name.startsWith("db.restoring-")), state.folders.join()).toBe(true);
      });
    }

    it("restores the good archive whole, and the server's schema check passes on it", async () => {
      const restored = await run("restore", [archive, "--force"], place.env);
      expect(restored.stderr).toBe("");
      expect(restored.code).toBe(0);
      const state = await place.state();
      if (kind === pgliteKind) {
        const { folders, ...rest } = state as { folders: string[] };
        const { folders: _, ...expected } = atBackup as { folders: string[] };
        expect(rest).toEqual(expected);
        // The folder of the killed restore is gone; the replaced database is kept aside for the operator.
        expect(folders.filter((name) => name !== "db").map((name) => name.replace(/\d{8}T\d{6}Z$/, "TIME"))).toEqual(["db.replaced-TIME"]);
      } else {
        expect(state).toEqual(atBackup);
      }
      const database = await place.open();
      try {
        await checkSchema(database.db);
      } finally {
        await database.close();
      }
    });

    it("a server refuses to start once the database has lost indexes, constraints or columns, and names them", async () => {
      const database = await place.open();
      try {
        // What the half-done restore of the issue left: the tables there, their indexes and constraints gone.
        await database.db.execute(sql`alter table public."user" drop constraint user_email_unique`);
        await database.db.execute(sql`alter table public.notes drop constraint notes_pkey cascade`);
        await database.db.execute(sql`alter table public.orders drop column idempotency_key cascade`);
        const refused = await checkSchema(database.db).catch((error: unknown) => error);
        expect(refused).toBeInstanceOf(SchemaMismatch);
        expect((refused as Error).message).toMatch(
          /^The database schema does not match the migrations: 1 column is missing \(orders\.idempotency_key\); \d+ indexes are missing \(.*\); \d+ constraints are missing \(.*\)\. Restore a good backup\.$/,
        );
        for (const name of ["user_email_unique", "notes_pkey", "orders_idempotency_idx"]) expect((refused as Error).message).toContain(name);
      } finally {
        await database.close();
      }
      const exited = await runNode(["server/main.ts"], { cwd: projectRoot, env: childEnv({ HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "warn", ...place.env }) });
      expect(exited.code).toBe(1);
      expect(exited.stdout).not.toContain("Academy is running");
      expect(exited.stderr).toMatch(/^The database schema does not match the migrations: .*user_email_unique.*\. Restore a good backup\.\n$/);
    });
  });
});

describe.each(databaseKinds)("the schema check on $name", (kind) => {
  it("passes on a freshly migrated database, in one quick catalogue query", async () => {
    const database = await kind.open();
    try {
      await database.migrate();
      const started = performance.now();
      await checkSchema(database.db);
      expect(performance.now() - started).toBeLessThan(1000);
    } finally {
      await database.close();
    }
  });
});
