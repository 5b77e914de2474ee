import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import { fromPostgres, type Database } from "../client.ts";
import { BackupError, capitalised, contentsOf, describeContents, levelSentence, migrationLevel, rows, type Contents, type RestoreOutcome } from "./contents.ts";

/** PostgreSQL's client programs, all from one installation so their versions agree. */
interface ClientTools {
  pgDump: string;
  pgRestore: string;
  psql: string;
}

const versionOf = async (binary: string): Promise<number[]> => {
  const { stdout } = await promisify(execFile)(binary, ["--version"]);
  return (/(\d+)(?:\.(\d+))?/.exec(stdout) ?? []).slice(1).map(Number);
};

const newer = (a: number[], b: number[]) => (a[0] ?? 0) - (b[0] ?? 0) || (a[1] ?? 0) - (b[1] ?? 0);

/**
 * The newest pg_dump on PATH or in Debian's /usr/lib/postgresql/<major>/bin: pg_dump reads servers up
 * to its own version, and its archives restore with pg_restore of the same version or newer.
 */
async function findClientTools(): Promise<ClientTools> {
  const debian = await readdir("/usr/lib/postgresql").catch(() => []);
  const dirs = [...(process.env.PATH ?? "").split(path.delimiter), ...debian.map((major) => path.join("/usr/lib/postgresql", major, "bin"))];
  let best: { dir: string; version: number[] } | undefined;
  for (const dir of new Set(dirs.filter((candidate) => candidate && existsSync(path.join(candidate, "pg_dump"))))) {
    const version = await versionOf(path.join(dir, "pg_dump")).catch(() => null);
    if (version && (!best || newer(version, best.version) > 0)) best = { dir, version };
  }
  if (!best) {
    throw new BackupError(
      "pg_dump was not found on PATH or in /usr/lib/postgresql/*/bin. Install PostgreSQL's client programs (on Debian or Ubuntu: apt-get install postgresql-client), of the server's major version or newer.",
    );
  }
  const { dir } = best;
  for (const program of ["pg_restore", "psql"]) {
    if (!existsSync(path.join(dir, program))) throw new BackupError(`pg_dump is in ${dir} but ${program} is not: install PostgreSQL's complete client programs there.`);
  }
  return { pgDump: path.join(dir, "pg_dump"), pgRestore: path.join(dir, "pg_restore"), psql: path.join(dir, "psql") };
}

/** The URL for libpq without its password, which goes in the environment instead of a command line others can read. */
function connection(databaseUrl: string): { dsn: string; env: NodeJS.ProcessEnv; label: string } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = "";
  const name = decodeURIComponent(url.pathname.slice(1)) || decodeURIComponent(url.username) || "postgres";
  return {
    dsn: url.toString(),
    env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
    label: `the PostgreSQL database "${name}" on ${url.host || "the local socket"}`,
  };
}

interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function finished(child: ReturnType<typeof spawn>): Promise<Finished> {
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

const run = (command: string, args: string[], env: NodeJS.ProcessEnv) => finished(spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] }));

const firstLines = (text: string) => text.trim().split("\n").slice(0, 5).join("\n");

/** Why a client program stopped: what it said, or the signal that ended it. */
const why = (ended: Finished) => (ended.stderr.trim() ? `at\n${firstLines(ended.stderr)}` : ended.signal ? `on ${ended.signal}.` : `with exit code ${ended.code}.`);

async function withDatabase<T>(databaseUrl: string, label: string, work: (database: Database) => Promise<T>): Promise<T> {
  const database = fromPostgres(databaseUrl, { poolSize: 1 });
  try {
    return await work(database);
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`Could not read ${label}: ${(error as Error).message}`, { cause: error });
  } finally {
    await database.close();
  }
}

/** pg_dump's custom format: compressed, and pg_restore can list it, pick from it and restore it in one transaction. */
export async function backupPostgres(databaseUrl: string, partialFile: string): Promise<string> {
  const { dsn, env, label } = connection(databaseUrl);
  const contents = await withDatabase(databaseUrl, label, (database) => contentsOf(database.db));
  if (contents.migrations.length === 0) {
    throw new BackupError(`${capitalised(label)} has no Academy tables (drizzle.__drizzle_migrations is missing), so there is nothing to back up. Check DATABASE_URL.`);
  }
  const tools = await findClientTools();
  const dumped = await run(tools.pgDump, ["--format=custom", `--file=${partialFile}`, `--dbname=${dsn}`], env);
  if (dumped.code !== 0) throw new BackupError(`pg_dump could not back up ${label}:\n${firstLines(dumped.stderr)}`);
  return `${label} (${await describeContents(contents)})`;
}

/** pg_restore could not read all of FILE: said once, the same whichever read found it. */
const damaged = (file: string, stderr: string) =>
  new BackupError(
    `${file} is damaged or incomplete (an interrupted copy, or a disk error?): pg_restore cannot read all of it. Nothing was changed. Copy the backup again, or restore another one.\n${firstLines(stderr)}`,
  );

/**
 * Reads the whole archive before anything is touched: its table of contents, then every entry's data
 * into /dev/null, so a cut or corrupted file is refused here and not halfway through the restore.
 * Returns the created_at of each migration the archive records.
 */
async function checkedArchive(tools: ClientTools, file: string): Promise<number[]> {
  const listed = await run(tools.pgRestore, ["--list", file], process.env);
  if (listed.code !== 0) throw damaged(file, listed.stderr);
  if (!/ TABLE drizzle __drizzle_migrations /.test(listed.stdout)) {
    throw new BackupError(`${file} is a pg_dump archive of another database, not Academy's: it has no drizzle.__drizzle_migrations table.`);
  }
  const read = await run(tools.pgRestore, ["--file=/dev/null", file], process.env);
  if (read.code !== 0) throw damaged(file, read.stderr);
  const data = await run(tools.pgRestore, ["--data-only", "--schema=drizzle", "--table=__drizzle_migrations", "--file=-", file], process.env);
  if (data.code !== 0) throw damaged(file, data.stderr);
  const copy = /^COPY drizzle\.__drizzle_migrations \(([^)]*)\) FROM stdin;\n([\s\S]*?)^\\\.$/m.exec(data.stdout);
  const column = copy?.[1]?.split(", ").indexOf("created_at") ?? -1;
  return (copy?.[2] ?? "").split("\n").filter(Boolean).map((line) => Number(line.split("\t")[column]));
}

/** Sessions other than ours: a running server would keep writing to, and caching, the database being replaced. */
async function refuseWhileConnected(database: Database, label: string): Promise<void> {
  const others = await rows<{ pid: number; application: string | null; address: string | null }>(
    database.db,
    sql`select pid, nullif(application_name, '') as application, client_addr::text as address
        from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
  );
  if (others.length === 0) return;
  const list = others.map((other) => `pid ${other.pid} from ${other.address ?? "a local socket"}${other.application ? ` (${other.application})` : ""}`);
  throw new BackupError(
    `${capitalised(label)} has ${others.length} other open connection${others.length === 1 ? "" : "s"} (${list.join("; ")}). Stop the Academy servers and anything else using it, then run restore again.`,
  );
}

const notFromExtension = (oid: string) => sql.raw(`not exists (select 1 from pg_depend d where d.objid = ${oid} and d.deptype = 'e')`);
const drop = (what: string, names: string[]) => (names.length > 0 ? [`drop ${what} if exists ${names.join(", ")} cascade;`] : []);

/**
 * Statements that remove Academy's objects: everything in `public` but what an extension owns, and the
 * `drizzle` schema. The schema `public` itself stays, with its owner and grants.
 */
async function dropStatements(database: Database): Promise<string> {
  const relations = await rows<{ kind: string; name: string }>(
    database.db,
    sql`select c.relkind::text as kind, format('%I.%I', n.nspname, c.relname) as name
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm', 'S') and ${notFromExtension("c.oid")}`,
  );
  const routines = await rows<{ name: string }>(
    database.db,
    sql`select p.oid::regprocedure::text as name from pg_proc p
        where p.pronamespace = 'public'::regnamespace and p.prokind in ('f', 'p') and ${notFromExtension("p.oid")}`,
  );
  const types = await rows<{ name: string }>(
    database.db,
    sql`select format('%I.%I', n.nspname, t.typname) as name
        from pg_type t join pg_namespace n on n.oid = t.typnamespace
        where n.nspname = 'public' and ${notFromExtension("t.oid")}
          and (t.typtype in ('e', 'd', 'r') or (t.typtype = 'c' and exists (select 1 from pg_class c where c.oid = t.typrelid and c.relkind = 'c')))`,
  );
  const named = (kinds: string[]) => relations.filter((r) => kinds.includes(r.kind)).map((r) => r.name);
  return [
    ...drop("view", named(["v"])),
    ...drop("materialized view", named(["m"])),
    ...drop("table", named(["r", "p"])),
    ...drop("sequence", named(["S"])),
    ...drop("routine", routines.map((r) => r.name)),
    ...drop("type", types.map((t) => t.name)),
    "drop schema if exists drizzle cascade;",
    "",
  ].join("\n");
}

/**
 * pg_restore's script piped into psql after BEGIN and the removal of the old objects, and COMMIT written
 * after it only when pg_restore exited 0. psql's --single-transaction would commit at the end of its
 * input however that input ended (pg_restore dying, or this process killed, end it too); this way
 * whatever stops early (pg_restore, psql, this process) leaves the transaction without a COMMIT, and
 * PostgreSQL rolls it back when psql's session closes: the database is as before, or wholly restored.
 */
async function replaceWithArchive(tools: ClientTools, file: string, dsn: string, env: NodeJS.ProcessEnv, prelude: string): Promise<void> {
  const script = spawn(tools.pgRestore, ["--no-owner", "--no-privileges", "--file=-", file], { env, stdio: ["ignore", "pipe", "pipe"] });
  const psql = spawn(tools.psql, ["--no-psqlrc", "--quiet", "--set=ON_ERROR_STOP=1", `--dbname=${dsn}`], { env, stdio: ["pipe", "pipe", "pipe"] });
  psql.stdin.on("error", () => {});
  psql.stdin.write(`begin;\n${prelude}`);
  script.stdout.pipe(psql.stdin, { end: false });
  const applying = finished(psql);
  // A psql that stopped reads no more: pg_restore would wait on a full pipe for ever.
  void applying.then(() => script.kill("SIGKILL"));
  const restored = await finished(script);
  const whole = restored.code === 0;
  psql.stdin.end(whole ? "commit;\n" : "");
  const applied = await applying;
  if (applied.code !== 0) throw new BackupError(`The restore failed and was rolled back. Nothing was changed: psql stopped ${why(applied)}`);
  if (!whole) throw new BackupError(`The restore failed and was rolled back. Nothing was changed: pg_restore stopped reading ${file} ${why(restored)}`);
}

export async function restorePostgres(databaseUrl: string, file: string, force: boolean): Promise<RestoreOutcome> {
  const { dsn, env, label } = connection(databaseUrl);
  const tools = await findClientTools();
  await migrationLevel(await checkedArchive(tools, file), `The database in ${file}`);
  const { contents, prelude } = await withDatabase(databaseUrl, label, async (database) => {
    await refuseWhileConnected(database, label);
    const found: Contents = await contentsOf(database.db);
    return { contents: found, prelude: found.tables > 0 ? await dropStatements(database) : "" };
  });
  const replaced = contents.tables > 0 ? await describeContents(contents) : null;
  if (replaced && !force) {
    throw new BackupError(`${capitalised(label)} is not empty (${replaced}). Restoring replaces everything in its public and drizzle schemas: run restore again with --force to do that.`);
  }
  await replaceWithArchive(tools, file, dsn, env, prelude);
  const restored = await withDatabase(databaseUrl, label, (database) => contentsOf(database.db));
  const summary = `${await describeContents(restored)}.${levelSentence(await migrationLevel(restored.migrations, label))}`;
  return { target: label, replaced, kept: null, summary, keyStored: restored.keyStored };
}
