import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import { eq, sql } from "drizzle-orm";
import { Client } from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../server/api/keys.ts";
import { clientIpHeader } from "../../server/auth/index.ts";
import { loadCatalog, type Catalog } from "../../server/catalog/index.ts";
import { createHostingOrder, createOrder, requestRefund } from "../../server/commerce/index.ts";
import { createFieldCipher, loadEncryptionKey } from "../../server/crypto/field-encryption.ts";
import { fromPglite, fromPostgres, type Database, type Db } from "../../server/db/client.ts";
import { certificates, cliLoginRequests, deviceCode, rateLimit, scheduledJobs, session as sessionTable, throttles, twoFactor, websiteReminders } from "../../server/db/schema.ts";
import { loadGeneratedSecrets } from "../../server/db/generated-secrets.ts";
import { saveReview } from "../../server/feedback/index.ts";
import { rememberLesson, setLessonComplete } from "../../server/learning/player.ts";
import { createNote, getNote } from "../../server/notes/index.ts";
import { confirmSecondFactor, createCoupon, grantRole, setCoursePublished } from "../../server/staff/index.ts";
import { startWebsite } from "../../server/websites/index.ts";
import { childEnv, runNode, type Ran } from "../support/node-process.ts";
import { listeningUrl, startProcess, type ServerProcess } from "../support/server-process.ts";
import { pgliteTemplateInto, type TemplateKind } from "../support/database-templates.ts";
import { scratchSpace } from "../support/scratch.ts";
import { contentDir, deliverTestWebhooks, identitySuite, payInTestSandbox, projectRoot, requireCurrentBuild, startTestPayments } from "./helpers.ts";

/** One database an Academy process can be pointed at: the environment that names it, and a handle on it for the test. */
interface Place {
  env: Record<string, string>;
  open(): Promise<Database>;
}

interface Kind {
  name: string;
  extension: string;
  /** A database of its own: with nothing in it, or (`start`) already made, with no tables or migrated (a copy, not initdb's 3 s, on PGlite). */
  place(start?: TemplateKind): Promise<Place>;
}

const serverUrl = process.env.TEST_DATABASE_URL;
const { folder: temporary, database: scratchDatabase } = scratchSpace(serverUrl);

const pgliteKind: Kind = {
  name: "PGlite",
  extension: ".pglite.tar.gz",
  async place(start) {
    const dataDir = await temporary("academy-backup-data-");
    if (start) await pgliteTemplateInto(dataDir, start);
    return {
      env: { DATA_DIR: dataDir },
      async open() {
        await mkdir(dataDir, { recursive: true });
        return fromPglite(await PGlite.create(path.join(dataDir, "db")));
      },
    };
  },
};


const postgresKind: Kind = {
  name: "PostgreSQL",
  extension: ".postgres.dump",
  async place() {
    const { url } = await scratchDatabase("academy_backup_");
    return { env: { DATABASE_URL: url }, open: async () => fromPostgres(url, { poolSize: 2 }) };
  },
};

const kinds = [pgliteKind, ...(serverUrl ? [postgresKind] : [])];

/** `npm run backup -- ARGS` / `npm run restore -- ARGS` as an operator runs them, on the same Node. */
const run = (script: "backup" | "restore", args: string[], env: Record<string, string>, cwd = projectRoot): Promise<Ran> =>
  runNode([path.join(projectRoot, "scripts", `${script}.ts`), ...args], { cwd, env: childEnv(env) });

interface Server {
  child: ServerProcess["child"];
  url: string;
  stop(): Promise<void>;
}

/** The real server (server/main.ts over the production build) on a place, listening on a free port. */
async function startServer(env: Record<string, string>): Promise<Server> {
  await requireCurrentBuild("the backup tests");
  const server = startProcess({ PORT: "0", LOG_LEVEL: "warn", ...env });
  return {
    child: server.child,
    url: await listeningUrl(server),
    async stop() {
      server.child.kill("SIGTERM");
      await server.exited;
    },
  };
}

async function rows<T>(db: Db, query: string): Promise<T[]> {
  return ((await db.execute(sql.raw(query))) as unknown as { rows: T[] }).rows;
}

/** Every table of Academy's, as the database itself lists them. */
async function tablesOf(db: Db): Promise<{ name: string; oid: number }[]> {
  return rows(
    db,
    `select format('%I.%I', n.nspname, c.relname) as name, c.oid::int as oid
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname in ('public', 'drizzle') and c.relkind in ('r', 'p')
     order by 1`,
  );
}

/**
 * Everything a restore must bring back, as text PostgreSQL prints: each table's rows in primary-key order,
 * each sequence's position, and the indexes and triggers of the schema.
 */
async function snapshot(db: Db) {
  const tables: Record<string, string[]> = {};
  for (const table of await tablesOf(db)) {
    const key = await rows<{ name: string }>(
      db,
      `select format('%I', a.attname) as name from pg_index i
       join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
       where i.indrelid = ${table.oid} and i.indisprimary order by array_position(i.indkey, a.attnum)`,
    );
    const order = key.length > 0 ? key.map((column) => column.name).join(", ") : "t::text";
    tables[table.name] = (await rows<{ row: string }>(db, `select t::text as row from ${table.name} t order by ${order}`)).map((r) => r.row);
  }
  const sequences = await rows<{ schemaname: string; sequencename: string; last_value: string | null }>(
    db,
    `select schemaname, sequencename, last_value::text from pg_sequences where schemaname in ('public', 'drizzle') order by 1, 2`,
  );
  const indexes = await rows(db, `select schemaname, indexname, indexdef from pg_indexes where schemaname in ('public', 'drizzle') order by 1, 2`);
  const triggers = await rows(db, `select tgrelid::regclass::text as on_table, tgname from pg_trigger where not tgisinternal order by 1, 2`);
  return { tables, sequences, indexes, triggers };
}

async function snapshotOf(place: Place) {
  const database = await place.open();
  try {
    return await snapshot(database.db);
  } finally {
    await database.close();
  }
}

const password = "a good long password";

/** What the round trip checks after the restore, beyond equal rows. */
interface Filled {
  email: string;
  userId: string;
  noteId: string;
  noteBody: string;
}

/** Rows in every table, through the same functions the product uses; SQL only for what no single call leaves behind. */
async function fill(db: Db, suite: ReturnType<typeof identitySuite>, catalog: Catalog): Promise<Filled> {
  await loadGeneratedSecrets(db, path.join(tmpdir(), "no-secrets-file.json"));
  const email = `backup-${randomBytes(4).toString("hex")}@example.com`;
  const { user } = await suite.identity.auth.api.signUpEmail({
    body: { name: "Asha Verma", email, password },
    headers: new Headers({ [clientIpHeader]: "10.1.2.3" }),
  });
  await suite.identity.auth.api.requestPasswordReset({ body: { email, redirectTo: "/reset-password" }, headers: new Headers({ [clientIpHeader]: "10.1.2.3" }) });
  const other = await suite.signUp("Ravi Kumar");
  const payments = startTestPayments(db, catalog, suite.identity);
  const course = "react-fundamentals";
  const { code } = await createCoupon(db, { id: null, name: "command line (backup test)", roles: ["finance"], address: null }, { code: "BACKUP10", kind: "percent", value: 10, appliesTo: "courses", startsAt: null, endsAt: null, maxUses: null, perPersonLimit: 1 });
  const order = await createOrder(payments.shop, { userId: user.id, courseId: course, idempotencyKey: randomBytes(8).toString("hex"), couponCode: code });
  await payInTestSandbox(payments, order);
  const refunded = await createOrder(payments.shop, { userId: other.id, courseId: course, idempotencyKey: randomBytes(8).toString("hex") });
  await payInTestSandbox(payments, refunded);
  await requestRefund(payments.shop, other.id, refunded.id);
  const site = await startWebsite(db, catalog, { userId: user.id, serviceId: "website-hosting", planId: "starter-monthly", domain: "asha-verma.example.in" });
  const hosting = await createHostingOrder(payments.shop, { userId: user.id, websiteId: site.id, planId: "starter-monthly", idempotencyKey: randomBytes(8).toString("hex") });
  await payInTestSandbox(payments, hosting);
  await deliverTestWebhooks(db, payments);
  const lesson = catalog.courses.find((c) => c.id === course)?.modules[0]?.lessons[0]?.id ?? "";
  await setLessonComplete(db, catalog, user.id, course, lesson, true);
  await rememberLesson(db, user.id, course, lesson);
  await saveReview(db, catalog, user.id, course, { rating: 5, comment: "Clear and practical." });
  const { cipher } = suite.identity;
  const noteBody = "Hooks run in order: **never** call them conditionally.";
  const note = await createNote(db, cipher, catalog, user.id, { title: "Rules of hooks", body: noteBody, lesson: { courseId: course, lessonId: lesson } });
  await createApiKey(db, user.id, { name: "Laptop", scopes: ["read"], lifetimeDays: 30 }, new Date());
  const soon = new Date(Date.now() + 10 * 60_000);
  await db.insert(throttles).values({ key: `/sign-in/email:${email}`, count: 1, windowStartedAt: new Date() });
  await db.insert(rateLimit).values({ id: "backup-test", key: "10.1.2.3/sign-in/email", count: 1, lastRequest: 1_795_000_000_000 });
  await db.insert(certificates).values({ id: "ACAD-BACKUP-0001", userId: user.id, courseId: course, courseTitle: "React Fundamentals", learnerName: cipher.encrypt("Asha Verma") });
  await db.insert(deviceCode).values({ id: "dc-backup", deviceCode: "device-code-backup", userCode: "ABCDEFGH", status: "pending", expiresAt: soon, pollingInterval: 5000, clientId: "academy-cli" });
  await db.insert(cliLoginRequests).values({ userCode: "ABCDEFGH", userAgent: "academy-cli/0.1.0", ipAddress: "10.1.2.3" });
  await db.insert(websiteReminders).values({ websiteId: site.id, kind: "7-days", expiresAt: soon });
  await db.insert(scheduledJobs).values({ name: "clean-up", nextRunAt: soon, lastStartedAt: new Date(), lastFinishedAt: new Date() });
  // The back office: a course taken off sale, a role granted (with their audit entries), a confirmed second factor and its key.
  await setCoursePublished(db, { id: null, name: "command line (backup test)", roles: ["content"], address: null }, catalog, "ui-ux-design", {
    publish: false,
    reason: "Being rewritten for the backup test.",
  });
  await grantRole(db, { id: null, name: "command line (backup test)", roles: [], address: null }, email, "owner");
  const [session] = await db.select({ id: sessionTable.id }).from(sessionTable).where(eq(sessionTable.userId, user.id)).limit(1);
  await confirmSecondFactor(db, session?.id ?? "");
  await db.insert(twoFactor).values({ id: "tf-backup", userId: user.id, secret: "encrypted-secret", backupCodes: "encrypted-codes" });
  return { email, userId: user.id, noteId: note.id, noteBody };
}

let catalog: Catalog;
beforeAll(async () => {
  catalog = await loadCatalog(contentDir);
});

describe.each(kinds)("backup and restore on $name", { timeout: 240_000 }, (kind) => {
  let source: Place;
  let target: Place;
  let backups: string;
  let backupFile = "";
  let filled: Filled;

  beforeAll(async () => {
    source = await kind.place("migrated");
    target = await kind.place();
    backups = await temporary("academy-backups-");
  });

  describe("the source", () => {
    const suite = identitySuite(() => source.open(), () => catalog);

    it("has rows in every table", async () => {
      filled = await fill(suite.db, suite, catalog);
      const empty: string[] = [];
      for (const table of await tablesOf(suite.db)) {
        const [count] = await rows<{ n: number }>(suite.db, `select count(*)::int as n from ${table.name}`);
        if (count?.n === 0) empty.push(table.name);
      }
      expect(empty, "tables the fixture leaves empty: give each a row in fill()").toEqual([]);
    });
  });

  if (kind === pgliteKind) {
    it("refuses to back up the embedded database while a server holds it, and names the process", async () => {
      const server = await startServer(source.env);
      try {
        const refused = await run("backup", [path.join(backups, "held.pglite.tar.gz")], source.env);
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain(`is in use by another Academy process (pid ${server.child.pid}). Stop it first`);
        expect(await readdir(backups)).toEqual([]);
      } finally {
        await server.stop();
      }
    });
  }

  it("backs up to ./backups/academy-<UTC time> and says where and how big", async () => {
    const backedUp = await run("backup", [], source.env, backups);
    expect(backedUp.stderr).toBe("");
    expect(backedUp.code).toBe(0);
    const [name] = await readdir(path.join(backups, "backups"));
    expect(name).toMatch(new RegExp(`^academy-\\d{8}T\\d{6}Z${kind.extension.replaceAll(".", "\\.")}$`));
    backupFile = path.join(backups, "backups", name as string);
    const { size } = await stat(backupFile);
    expect(backedUp.stdout).toContain(`to ${backupFile}, `);
    expect(backedUp.stdout).toContain(`(${size.toLocaleString("en")} bytes)`);
    expect(backedUp.stdout).toMatch(/\(\d+ tables, 2 user accounts, migrated up to 0\d{3}_\w+\)/);
    expect(backedUp.stdout).toContain("The encryption key is kept in the database (app_roots), so it is in this backup");
    expect(backedUp.stdout).toContain("are not in a backup: back them up separately.");
  });

  it("refuses a file name with the other database's extension, names the right one, and writes nothing", async () => {
    const wrong = kind === pgliteKind ? ".postgres.dump" : ".pglite.tar.gz";
    const dir = await temporary("academy-backup-names-");
    const file = path.join(dir, `nightly${wrong}`);
    const refused = await run("backup", [file], source.env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `${file} ends ${wrong}, the name of a backup of ${kind === pgliteKind ? "a PostgreSQL database" : "the embedded database"}, but DATABASE_URL is ${kind === pgliteKind ? "unset" : "set"}, so this is a backup of ${kind === pgliteKind ? "the embedded database" : "a PostgreSQL database"}: give it a name ending ${kind.extension}. Nothing was written.\n`,
    );
    expect(await readdir(dir)).toEqual([]);
  });

  it("restores into an empty database, and every table, sequence, index and trigger matches the source", async () => {
    const restored = await run("restore", [backupFile], target.env);
    expect(restored.stderr).toBe("");
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain("The encryption key came back with the data (app_roots).");
    expect(restored.stdout).not.toContain("It replaced");
    const [expected, actual] = [await snapshotOf(source), await snapshotOf(target)];
    expect(Object.keys(actual.tables)).toEqual(Object.keys(expected.tables));
    for (const [table, tableRows] of Object.entries(expected.tables)) expect(actual.tables[table], table).toEqual(tableRows);
    expect(expected.sequences.filter((sequence) => sequence.last_value === null), "sequences the fixture never advances").toEqual([]);
    expect(actual.sequences).toEqual(expected.sequences);
    expect(actual.indexes).toEqual(expected.indexes);
    expect(actual.triggers).toEqual(expected.triggers);
  });

  it("leaves a database that is ready, with its migrations, its key and readable notes", async () => {
    const database = await target.open();
    try {
      expect(await database.ready()).toBe(true);
      await database.migrate();
      const cipher = createFieldCipher(await loadEncryptionKey(database.db, { envKey: undefined, createIfMissing: false }));
      expect((await getNote(database.db, cipher, filled.userId, filled.noteId)).body).toBe(filled.noteBody);
    } finally {
      await database.close();
    }
  });

  it("refuses to restore over a database that is not empty unless --force, which says what it replaced", async () => {
    const before = await snapshotOf(target);
    const refused = await run("restore", [backupFile], target.env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/is not empty \(\d+ tables, 2 user accounts, migrated up to 0\d{3}_\w+\)\. Restoring replaces .*: run restore again with --force to do that\./);
    expect(await snapshotOf(target)).toEqual(before);

    const forced = await run("restore", [backupFile, "--force"], target.env);
    expect(forced.stderr).toBe("");
    expect(forced.code).toBe(0);
    expect(forced.stdout).toMatch(/It replaced what was there: \d+ tables, 2 user accounts, migrated up to 0\d{3}_\w+\./);
    if (kind === pgliteKind) {
      const kept = /The replaced database was moved to (\S+); delete it once the restored one serves\./.exec(forced.stdout)?.[1] ?? "";
      expect(existsSync(path.join(kept, "PG_VERSION"))).toBe(true);
    }
    expect(await snapshotOf(target)).toEqual(await snapshotOf(source));
  });

  if (kind === postgresKind) {
    it("refuses to restore while another session uses the database, and names it", async () => {
      const other = new Client({ connectionString: target.env.DATABASE_URL, application_name: "academy-worker" });
      await other.connect();
      try {
        const [{ pid }] = (await other.query<{ pid: number }>("select pg_backend_pid() as pid")).rows as [{ pid: number }];
        const refused = await run("restore", [backupFile, "--force"], target.env);
        expect(refused.code).toBe(1);
        expect(refused.stderr).toMatch(new RegExp(`has 1 other open connection \\(pid ${pid} from [^)]+ \\(academy-worker\\)\\)\\. Stop the Academy servers and anything else using it, then run restore again\\.`));
      } finally {
        await other.end();
      }
    });
  }

  it("refuses a file that is not an Academy backup, and changes nothing", async () => {
    const before = await snapshotOf(target);
    const text = path.join(backups, "notes.txt");
    await writeFile(text, "Remember to water the plants.\n");
    const gzipped = path.join(backups, `garbage${kind.extension}`);
    await writeFile(gzipped, kind === pgliteKind ? gzipSync("not a database\n") : Buffer.concat([Buffer.from("PGDMP"), randomBytes(200)]));

    const plain = await run("restore", [text, "--force"], target.env);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toContain(`${text} is not an Academy backup: it is neither a pg_dump archive (.postgres.dump) nor a tarball of the embedded database (.pglite.tar.gz).`);
    const broken = await run("restore", [gzipped, "--force"], target.env);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain(
      kind === pgliteKind
        ? `${gzipped} is not a backup of Academy's embedded database: PGlite cannot open it as a data folder.`
        : `${gzipped} is damaged or incomplete (an interrupted copy, or a disk error?): pg_restore cannot read all of it. Nothing was changed.`,
    );
    const missing = await run("restore", [path.join(backups, "no-such-file")], target.env);
    expect(missing.stderr).toContain("no-such-file does not exist.");
    expect(await snapshotOf(target)).toEqual(before);
  });

  it("refuses a backup of a database that is not Academy's, or that a newer version migrated", async () => {
    const foreign = await kind.place("empty");
    const database = await foreign.open();
    await database.db.execute(sql`create table public.ledger (id int primary key)`);
    await database.close();
    // The backup script itself refuses a database with no Academy tables, so the foreign file is made the way it would have been.
    const foreignFile = path.join(backups, `foreign${kind.extension}`);
    if (kind === pgliteKind) {
      const client = await PGlite.create(path.join(foreign.env.DATA_DIR as string, "db"));
      await writeFile(foreignFile, Buffer.from(await (await client.dumpDataDir("gzip")).arrayBuffer()));
      await client.close();
    } else {
      const dumped = await new Promise((resolve) => spawn("pg_dump", ["--format=custom", `--file=${foreignFile}`, `--dbname=${foreign.env.DATABASE_URL}`]).once("close", resolve));
      expect(dumped).toBe(0);
    }
    const refusedForeign = await run("restore", [foreignFile, "--force"], target.env);
    expect(refusedForeign.code).toBe(1);
    expect(refusedForeign.stderr).toMatch(/is not an Academy database: it has no record of Academy's migrations\.|is a pg_dump archive of another database, not Academy's/);

    const newer = await kind.place("migrated");
    const migrated = await newer.open();
    await migrated.migrate();
    await migrated.db.execute(sql`insert into drizzle.__drizzle_migrations (hash, created_at) select 'from-a-newer-version', max(created_at) + 1000 from drizzle.__drizzle_migrations`);
    await migrated.close();
    const newerFile = path.join(backups, `newer${kind.extension}`);
    const key = randomBytes(32).toString("base64");
    const backedUp = await run("backup", [newerFile], { ...newer.env, ENCRYPTION_KEY: key });
    expect(backedUp.code).toBe(0);
    expect(backedUp.stdout).toContain("ENCRYPTION_KEY is set in the environment, so the key is NOT in this backup");
    const refusedNewer = await run("restore", [newerFile, "--force"], target.env);
    expect(refusedNewer.code).toBe(1);
    expect(refusedNewer.stderr).toMatch(/was migrated by a newer version of Academy than this one \(which knows up to 0\d{3}_\w+\)\. Use that version or a later one\./);
  });

  it("is served again after the restore: /readyz is ready and a restored person signs in", async () => {
    const server = await startServer(target.env);
    try {
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(200);
      const signIn = await fetch(`${server.url}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: server.url },
        body: JSON.stringify({ email: filled.email, password }),
      });
      expect(signIn.status).toBe(200);
      expect(signIn.headers.getSetCookie().some((cookie) => cookie.includes("session_token="))).toBe(true);
    } finally {
      await server.stop();
    }
  });
});
