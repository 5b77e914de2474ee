// Tests open copies of databases made once: a new PGlite runs initdb (~3 s of a core) and migrating
// takes another 0.5 s there and 2 s on PostgreSQL, while a copy takes ~0.6 s and ~0.4 s.
import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { Client } from "pg";
import { fromPglite, fromPostgres, migrationsFolder, type Database } from "../../server/db/client.ts";

const projectRoot = path.resolve(import.meta.dirname, "../..");
/** Where the templates are kept between runs: outside any one run's temporary folder (vitest-temporary-folder.ts). */
const cacheDir = process.env.ACADEMY_TEST_CACHE_DIR ?? path.join(tmpdir(), "academy-test-databases");

/** Any number of 64-bit integers would do: held while one process makes the PostgreSQL template. */
const templateLock = 5_218_003_117_664_291_871n;

let version: Promise<string> | undefined;

/** Names the migrations and the PGlite release a template was made with: a change to either makes a new one. */
function templateVersion(): Promise<string> {
  version ??= (async () => {
    const hash = createHash("sha256");
    hash.update(await readFile(path.join(projectRoot, "node_modules/@electric-sql/pglite/package.json")));
    const files = (await readdir(migrationsFolder, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath, entry.name))
      .toSorted();
    for (const file of files) {
      hash.update(path.relative(migrationsFolder, file));
      hash.update(await readFile(file));
    }
    return hash.digest("hex").slice(0, 16);
  })();
  return version;
}

export type TemplateKind = "empty" | "migrated";

const pgliteFile = async (kind: TemplateKind) => path.join(cacheDir, `pglite-${await templateVersion()}-${kind}.tar`);

/** Writes both PGlite templates (the data directory as a tarball) unless they are on disk already; a half-written file is never seen. */
export async function makePgliteTemplates(): Promise<void> {
  if (existsSync(await pgliteFile("empty")) && existsSync(await pgliteFile("migrated"))) return;
  await mkdir(cacheDir, { recursive: true });
  const client = await PGlite.create();
  try {
    const save = async (kind: TemplateKind) => {
      const file = await pgliteFile(kind);
      const partial = `${file}.${randomBytes(4).toString("hex")}`;
      await writeFile(partial, Buffer.from(await (await client.dumpDataDir("none")).arrayBuffer()));
      await rename(partial, file);
    };
    await save("empty");
    await fromPglite(client).migrate();
    await save("migrated");
  } finally {
    await client.close();
  }
}

const pgliteDirectory = async (kind: TemplateKind) => path.join(cacheDir, `pglite-${await templateVersion()}-${kind}`);

/** Writes a template as a data folder too (what a server keeps in DATA_DIR/db), unless it is on disk already. */
export async function makePgliteDirectory(kind: TemplateKind): Promise<void> {
  const directory = await pgliteDirectory(kind);
  if (existsSync(directory)) return;
  const partial = `${directory}.${randomBytes(4).toString("hex")}`;
  const client = await PGlite.create(partial, { loadDataDir: await pgliteTemplate(kind) });
  await client.close();
  try {
    await rename(partial, directory);
  } catch (error) {
    // Another process made it first.
    await rm(partial, { recursive: true, force: true });
    if (!existsSync(directory)) throw error;
  }
}

/**
 * Puts a copy of a template where a server started with DATA_DIR=`dataDir` keeps its embedded
 * database: it opens a database instead of making one (initdb, ~3 s of a core, and migrations are
 * half of a cold start). `empty` is a database with no tables, as initdb leaves it. For tests of
 * what starts, not of a first start.
 */
export async function pgliteTemplateInto(dataDir: string, kind: TemplateKind): Promise<void> {
  await makePgliteDirectory(kind);
  await cp(await pgliteDirectory(kind), path.join(dataDir, "db"), { recursive: true });
}

/** A new DATA_DIR (under the system's temporary folder, named `<prefix>…`) holding a copy of the migrated template. */
export async function migratedDataDir(prefix: string): Promise<string> {
  const dataDir = await mkdtemp(path.join(tmpdir(), prefix));
  await pgliteTemplateInto(dataDir, "migrated");
  return dataDir;
}

const pgliteTemplates = new Map<TemplateKind, Promise<Blob>>();

function pgliteTemplate(kind: TemplateKind): Promise<Blob> {
  let template = pgliteTemplates.get(kind);
  if (!template) {
    template = makePgliteTemplates().then(async () => new Blob([await readFile(await pgliteFile(kind))]));
    pgliteTemplates.set(kind, template);
  }
  return template;
}

/** A new in-memory PGlite, a copy of the template: its own database, shared with no other test. */
export async function pgliteCopy(kind: TemplateKind): Promise<Database> {
  return fromPglite(await PGlite.create({ loadDataDir: await pgliteTemplate(kind) }));
}

const postgresTemplateName = async () => `academy_template_${await templateVersion()}`;

/** Runs `work` on a connection of its own to the test server, closed afterwards. */
export async function withAdmin<T>(serverUrl: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Makes the migrated template database on the test server unless it is there: one process at a
 * time, and built under another name first so a copy is never taken of a half-migrated one.
 */
export async function makePostgresTemplate(serverUrl: string): Promise<string> {
  const name = await postgresTemplateName();
  return withAdmin(serverUrl, async (admin) => {
    await admin.query("select pg_advisory_lock($1)", [templateLock.toString()]);
    try {
      const { rowCount } = await admin.query("select 1 from pg_database where datname = $1", [name]);
      if (rowCount) return name;
      const building = `${name}_${randomBytes(4).toString("hex")}`;
      await admin.query(`create database ${building}`);
      const url = new URL(serverUrl);
      url.pathname = `/${building}`;
      const database = fromPostgres(url.toString(), { poolSize: 1 });
      try {
        await database.migrate();
      } finally {
        await database.close();
      }
      await admin.query(`alter database ${building} rename to ${name}`);
      return name;
    } finally {
      await admin.query("select pg_advisory_unlock($1)", [templateLock.toString()]);
    }
  });
}

let postgresTemplate: Promise<string> | undefined;

/** The template for copies on this server, made once per process at most (usually by globalSetup before any). */
export function migratedPostgresTemplate(serverUrl: string): Promise<string> {
  postgresTemplate ??= makePostgresTemplate(serverUrl);
  return postgresTemplate;
}
