import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { clientIpHeader } from "../../server/auth/index.ts";
import { createFieldCipher, encryptFields } from "../../server/crypto/field-encryption.ts";
import { nameKey, openKeyring } from "../../server/crypto/keyring.ts";
import { rotateEncryptionKey } from "../../server/crypto/rotation.ts";
import { type Database, type Db, fromPostgres, openDatabase } from "../../server/db/client.ts";
import { loadGeneratedSecrets } from "../../server/db/generated-secrets.ts";
import { appRoots, certificates, notes, session, user as accounts } from "../../server/db/schema.ts";
import { authorize } from "../../server/api/credentials.ts";
import { createApiKey } from "../../server/api/keys.ts";
import { listMailbox } from "../../server/mail/outbox.ts";
import { startIdentity, type Identity } from "../../server/identity.ts";
import { createLogger } from "../../server/logger.ts";
import { createNote, listNotes } from "../../server/notes/index.ts";
import { readUserDocument } from "../../server/users/user-document.ts";
import { createDiskStorage } from "../../server/storage/disk.ts";
import { migratedDataDir, migratedPostgresTemplate } from "../support/database-templates.ts";
import { childEnv, outputAndExit, spawnNode, type Ran } from "../support/node-process.ts";
import { databaseKinds, migratedDatabaseEach, newPostgresDatabase, projectRoot, testCatalog, testCourse } from "./helpers.ts";

const catalog = testCatalog([testCourse("demo", "Demo course", [[{ id: "1-1", title: "Getting started", preview: true }]])]);
const newKey = () => randomBytes(32).toString("base64");

/** The sentence a process with the wrong key stops with; the ids are 8 hex digits. */
const wrongKey = /^ENCRYPTION_KEY is not the key this database was encrypted with \(the database expects key id [0-9a-f]{8}, the environment gives [0-9a-f]{8}\)\. Set the key the data was written with; see docs\/operations\.md 'Encryption keys'\.$/;

async function rows<T>(db: Db, query: string): Promise<T[]> {
  return ((await db.execute(sql.raw(query))) as unknown as { rows: T[] }).rows;
}

/** Every row of the tables a start could write to, as text: equal before and after means nothing was written. */
async function written(db: Db): Promise<string[]> {
  const tables = ["app_roots", "users", "notes", "certificates", "encryption_keys", '"user"', "session"];
  const out: string[] = [];
  for (const table of tables) out.push(...(await rows<{ row: string }>(db, `select t::text as row from ${table} t order by 1`)).map((r) => `${table} ${r.row}`));
  return out;
}

/** Identity as the server starts it: the key from the environment (or, without one, the key kept in the database). */
async function start(db: Db, encryptionKey: string | undefined, previousEncryptionKey?: string, authSecret = "test-secret-that-is-long-enough-to-use-0123456789"): Promise<Identity> {
  const options = {
    db,
    logger: createLogger("silent"),
    catalog: () => catalog,
    production: false,
    publicUrl: "http://academy.test",
    authSecret,
    encryptionKey,
    previousEncryptionKey,
    smtpUrl: undefined,
    mailFrom: "Academy <no-reply@academy.test>",
    mailIntervalMs: 60_000,
    storage: createDiskStorage(await mkdtemp(path.join(tmpdir(), "academy-uploads-"))),
  };
  return startIdentity(options);
}

/** A learner with a profile, a note and a certificate, all written under the identity's key. */
async function someData(db: Db, identity: Identity): Promise<string> {
  const email = `person-${randomBytes(5).toString("hex")}@example.com`;
  const { user } = await identity.auth.api.signUpEmail({
    body: { name: "Asha Verma", email, password: "a good long password" },
    headers: new Headers({ [clientIpHeader]: `10.${randomBytes(3).join(".")}` }),
  });
  await createNote(db, identity.cipher, catalog, user.id, { title: "Closures", body: "A function keeps its scope." });
  await db.insert(certificates).values({
    id: `ACAD-${randomBytes(4).toString("hex")}`,
    userId: user.id,
    courseId: "demo",
    courseTitle: "Demo course",
    learnerName: identity.cipher.encrypt("Asha Verma"),
    originalLearnerName: identity.cipher.encrypt("Asha V."),
    nameCorrectedAt: new Date(),
  });
  return user.id;
}

async function startAndStop(db: Db, key: string | undefined, previous?: string): Promise<void> {
  const identity = await start(db, key, previous);
  await identity.mailWorker.stop();
}

describe.each(databaseKinds)("the encryption key check on $name", ({ open }) => {
  const database: () => Database = migratedDatabaseEach(open);

  it("refuses a wrong ENCRYPTION_KEY with a sentence naming both key ids, and writes nothing", async () => {
    const { db } = database();
    const first = await start(db, newKey());
    await someData(db, first);
    await first.mailWorker.stop();
    const before = await written(db);
    await expect(start(db, newKey())).rejects.toThrow(wrongKey);
    expect(await written(db)).toEqual(before);
  });

  it("stores the key's id and check value at first start, never the key, and starts again with the same key", async () => {
    const { db } = database();
    const key = newKey();
    await startAndStop(db, key);
    const stored = await rows<{ id: string; check_value: string; current: boolean }>(db, "select id, check_value, current from encryption_keys");
    expect(stored).toHaveLength(1);
    expect(stored[0]?.id).toMatch(/^[0-9a-f]{8}$/);
    expect(stored[0]?.current).toBe(true);
    const raw = Buffer.from(key, "base64");
    for (const text of [stored[0]?.id ?? "", stored[0]?.check_value ?? ""]) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(raw.toString("hex").slice(0, 16));
      expect(text).not.toContain(raw.toString("base64url").slice(0, 16));
    }
    await startAndStop(db, key);
    expect(await rows(db, "select id, check_value, current from encryption_keys")).toEqual(stored);
  });

  it("checks a database written before key checks against a stored value: the wrong key is refused, the right one starts and stores its check", async () => {
    const { db } = database();
    const key = newKey();
    const first = await start(db, key);
    const userId = await someData(db, first);
    await first.mailWorker.stop();
    // As a database migrated to 0017 from an earlier version: the table is there, with no check in it.
    await db.execute(sql`delete from encryption_keys`);
    const before = await written(db);
    await expect(start(db, newKey())).rejects.toThrow(
      /^ENCRYPTION_KEY is not the key this database was encrypted with \(a stored value does not decrypt with key id [0-9a-f]{8}\)\. Set the key the data was written with; see docs\/operations\.md 'Encryption keys'\.$/,
    );
    expect(await written(db)).toEqual(before);
    const again = await start(db, key);
    expect((await rows<{ n: number }>(db, "select count(*)::int as n from encryption_keys where current"))[0]?.n).toBe(1);
    expect((await listNotes(db, again.cipher, userId)).notes.map((note) => note.title)).toEqual(["Closures"]);
    await again.mailWorker.stop();
    await expect(start(db, newKey())).rejects.toThrow(wrongKey);
  });

  it("checks the key kept in the database too: a different ENCRYPTION_KEY is refused, and a lost key document is not replaced by a new key", async () => {
    const { db } = database();
    const first = await start(db, undefined);
    await someData(db, first);
    await first.mailWorker.stop();
    const before = await written(db);
    await expect(start(db, newKey())).rejects.toThrow(wrongKey);
    expect(await written(db)).toEqual(before);
    await db.delete(appRoots).where(sql`${appRoots.id} = 'Encryption'`);
    const withoutDocument = await written(db);
    await expect(start(db, undefined)).rejects.toThrow(
      /^ENCRYPTION_KEY is not set and this database does not keep the key its data was encrypted with \(the database expects key id [0-9a-f]{8}\)\. Set ENCRYPTION_KEY to the key the data was written with; see docs\/operations\.md 'Encryption keys'\.$/,
    );
    expect(await written(db)).toEqual(withoutDocument);
  });
});

/** Every encrypted column of every row, as stored. */
async function encryptedValues(db: Db): Promise<string[]> {
  const found = await rows<{ value: string | null }>(
    db,
    `select name as value from users union all select email from users union all select profile_pic_url from users
     union all select title from notes union all select body from notes
     union all select learner_name from certificates union all select original_learner_name from certificates`,
  );
  return found.map((row) => row.value).filter((value): value is string => value !== null && value.startsWith("v1:"));
}

/** Every encrypted value in plain text, decrypted with the given key alone (throws when one is not under it), in a stable order. */
async function plainUnder(db: Db, key: string): Promise<string[]> {
  const cipher = createFieldCipher(Buffer.from(key, "base64"));
  return (await encryptedValues(db)).map((value) => cipher.decrypt(value)).toSorted();
}

const notRotated = /^This database still holds values under key id [0-9a-f]{8}, and this process was given only [0-9a-f]{8}: set ENCRYPTION_KEY_PREVIOUS to that key until `npm run rotate-key` says it finished; see docs\/operations\.md 'Encryption keys'\.$/;

describe.each(databaseKinds)("rotating the encryption key on $name", ({ open }) => {
  const database: () => Database = migratedDatabaseEach(open);

  it("moves every encrypted field to the new key while a server with both keys reads and writes, keeps notes deduplicating, and then refuses the old key alone", async () => {
    const { db } = database();
    const [oldKey, newKeyText] = [newKey(), newKey()];
    const first = await start(db, oldKey);
    const people = [await someData(db, first), await someData(db, first), await someData(db, first)];
    const person = people[0] as string;
    for (const [i, userId] of people.entries()) {
      for (let n = 0; n < 4; n++) await createNote(db, first.cipher, catalog, userId, { title: `Note ${i}.${n}`, body: `Body ${i}.${n}` });
    }
    const before = await createNote(db, first.cipher, catalog, person, { title: "Written before", body: "Resubmitted after the rotation." });
    const plainBefore = await plainUnder(db, oldKey);
    await first.mailWorker.stop();

    // A server restarted with both keys: it writes under the old key until the rotation makes the new one current.
    const server = await openKeyring(db, { envKey: newKeyText, previousKey: oldKey, createIfMissing: false, refreshMs: 20 });
    const oldId = server.currentId();
    const seen: string[] = [];
    let batches = 0;
    const result = await rotateEncryptionKey(db, {
      to: newKeyText,
      from: oldKey,
      settleMs: 200,
      batchSize: 2,
      afterBatch: async () => {
        batches++;
        for (const userId of people) {
          const listed = await listNotes(db, server, userId);
          seen.push(...listed.notes.flatMap((note) => [note.title, note.body]));
          seen.push((await readUserDocument(db, server, createLogger("silent"), userId))?.name ?? "(no profile)");
        }
        if (batches % 3 === 0) await createNote(db, server, catalog, person, { title: `During ${batches}`, body: "Written while the rotation ran." });
      },
    });
    server.stop();
    expect(batches).toBeGreaterThan(10);
    expect(server.currentId()).not.toBe(oldId);
    expect(seen.filter((text) => text.startsWith("v1:") || text === "(no profile)")).toEqual([]);
    expect(result).toMatchObject({ alreadyDone: false, unreadable: 0, removedKeptKey: false });
    expect(result.rewritten).toBe(plainBefore.length);

    const plainAfter = await plainUnder(db, newKeyText);
    const writtenDuring = (await listNotes(db, createFieldCipher(Buffer.from(newKeyText, "base64")), person)).notes.filter((note) => note.title.startsWith("During"));
    expect(writtenDuring.length).toBeGreaterThan(2);
    expect(plainAfter).toEqual([...plainBefore, ...writtenDuring.flatMap((note) => [note.title, note.body])].toSorted());

    // The new key alone reads everything, and a resubmitted note is still found by its digest.
    const after = await start(db, newKeyText);
    const again = await createNote(db, after.cipher, catalog, person, { title: "Written before", body: "Resubmitted after the rotation." });
    expect(again.id).toBe(before.id);
    const during = writtenDuring[0] as (typeof writtenDuring)[number];
    expect((await createNote(db, after.cipher, catalog, person, { title: during.title, body: during.body })).id).toBe(during.id);
    await after.mailWorker.stop();
    await expect(start(db, oldKey)).rejects.toThrow(wrongKey);
    expect(await rows(db, "select id, current from encryption_keys")).toEqual([{ id: nameKey(Buffer.from(newKeyText, "base64")).id, current: true }]);
  });

  it("loses nothing when stopped midway, refuses the new key alone until it finishes, and finishes when run again", async () => {
    const { db } = database();
    const [oldKey, newKeyText] = [newKey(), newKey()];
    const first = await start(db, oldKey);
    const userId = await someData(db, first);
    await db.insert(notes).values(
      Array.from({ length: 40 }, (_, i) => encryptFields(first.cipher, { userId, title: `Bulk ${i}`, body: `Body ${i}` }, ["title", "body"])),
    );
    await first.mailWorker.stop();
    const plainBefore = await plainUnder(db, oldKey);

    let batches = 0;
    const killed = rotateEncryptionKey(db, {
      to: newKeyText,
      from: oldKey,
      settleMs: 0,
      batchSize: 5,
      afterBatch: async () => {
        if (++batches === 3) throw new Error("killed");
      },
    });
    await expect(killed).rejects.toThrow("killed");
    // Some values are under each key now: a process needs both.
    await expect(plainUnder(db, oldKey)).rejects.toThrow("Failed to decrypt value");
    await expect(plainUnder(db, newKeyText)).rejects.toThrow("Failed to decrypt value");
    await expect(start(db, newKeyText)).rejects.toThrow(notRotated);
    await expect(start(db, oldKey)).rejects.toThrow(notRotated);
    const both = await openKeyring(db, { envKey: newKeyText, previousKey: oldKey, createIfMissing: false });
    both.stop();
    expect((await listNotes(db, both, userId)).notes.filter((note) => note.title.startsWith("v1:"))).toEqual([]);

    const finished = await rotateEncryptionKey(db, { to: newKeyText, from: oldKey, settleMs: 0, batchSize: 5 });
    expect(finished.alreadyDone).toBe(false);
    expect(await plainUnder(db, newKeyText)).toEqual(plainBefore);
    await startAndStop(db, newKeyText);
    const rerun = await rotateEncryptionKey(db, { to: newKeyText, from: oldKey, settleMs: 0 });
    expect(rerun.alreadyDone).toBe(true);
  });

  it("moves the key generated into the database to ENCRYPTION_KEY and deletes the kept one", async () => {
    const { db } = database();
    const first = await start(db, undefined);
    await someData(db, first);
    await first.mailWorker.stop();
    const kept = (await rows<{ key: string }>(db, "select key from app_roots where id = 'Encryption'"))[0]?.key as string;
    const plainBefore = await plainUnder(db, kept);
    const target = newKey();
    const result = await rotateEncryptionKey(db, { to: target, from: undefined, settleMs: 0 });
    expect(result.removedKeptKey).toBe(true);
    expect(await plainUnder(db, target)).toEqual(plainBefore);
    expect(await rows(db, "select key from app_roots where id = 'Encryption'")).toEqual([]);
    await startAndStop(db, target);
    await expect(start(db, undefined)).rejects.toThrow(/^ENCRYPTION_KEY is not set and this database does not keep the key its data was encrypted with/);
  });
});

/** A process as an operator starts it, on the same Node; `stop` sends it a signal once its output matches. */
function run(args: string[], env: Record<string, string>, stop?: { when: RegExp; signal: NodeJS.Signals }): Promise<Ran> {
  const child = spawnNode(args, { cwd: projectRoot, env: childEnv({ LOG_LEVEL: "warn", ...env }) });
  let output = "";
  const watch = (chunk: Buffer) => {
    output += chunk.toString();
    if (stop?.when.test(output)) child.kill(stop.signal);
  };
  child.stdout.on("data", watch);
  child.stderr.on("data", watch);
  return outputAndExit(child);
}

const rotateKey = (env: Record<string, string>, stop?: { when: RegExp; signal: NodeJS.Signals }) => run([path.join(projectRoot, "scripts", "rotate-key.ts")], env, stop);

/** Where a process finds its database: a data folder for PGlite, a new database on the test server for PostgreSQL. */
const places: { name: string; make(): Promise<{ env: Record<string, string>; open(): Promise<Database>; drop(): Promise<void> }> }[] = [
  {
    name: "PGlite",
    async make() {
      const dataDir = await migratedDataDir("academy-keys-");
      return { env: { DATA_DIR: dataDir }, open: () => openDatabase({ databaseUrl: undefined, dataDir, databasePoolSize: 2 }), drop: () => rm(dataDir, { recursive: true, force: true }) };
    },
  },
  ...(process.env.TEST_DATABASE_URL
    ? [
        {
          name: "PostgreSQL",
          async make() {
            const created = await newPostgresDatabase(process.env.TEST_DATABASE_URL as string, await migratedPostgresTemplate(process.env.TEST_DATABASE_URL as string));
            return { env: { DATABASE_URL: created.url }, open: async () => fromPostgres(created.url), drop: created.drop };
          },
        },
      ]
    : []),
];

/** A place with a learner's data under the key, written and closed again so a child process can open it. */
async function placeWithData(place: (typeof places)[number], key: string, notesToAdd = 0) {
  const made = await place.make();
  const database = await made.open();
  await database.migrate();
  // As the server leaves it: the secrets it generates are written before the key is checked.
  await loadGeneratedSecrets(database.db, path.join(tmpdir(), "no-such-secrets.json"));
  const identity = await start(database.db, key);
  const userId = await someData(database.db, identity);
  for (let i = 0; i < notesToAdd; i += 500) {
    const count = Math.min(500, notesToAdd - i);
    await database.db.insert(notes).values(Array.from({ length: count }, (_, n) => encryptFields(identity.cipher, { userId, title: `Bulk ${i + n}`, body: `Body ${i + n}` }, ["title", "body"])));
  }
  await identity.mailWorker.stop();
  const before = await written(database.db);
  const plain = await plainUnder(database.db, key);
  await database.close();
  return { ...made, before, plain };
}

async function inspect<T>(place: { open(): Promise<Database> }, look: (db: Db) => Promise<T>): Promise<T> {
  const database = await place.open();
  try {
    return await look(database.db);
  } finally {
    await database.close();
  }
}

describe.each(places)("npm run rotate-key on $name", (place) => {
  it("says in a sentence what is wrong with the keys it is given, and changes nothing", async () => {
    const [key, other] = [newKey(), newKey()];
    const made = await placeWithData(place, key);
    try {
      const cases: [Record<string, string>, RegExp][] = [
        [{}, /^Give the new key as ENCRYPTION_KEY \(32 random bytes in base64, as `openssl rand -base64 32` prints\) and the key the data is under now as ENCRYPTION_KEY_PREVIOUS; nothing was changed\.\n$/],
        [{ ENCRYPTION_KEY: other }, /^Give the key the data is under now as ENCRYPTION_KEY_PREVIOUS, and the new key as ENCRYPTION_KEY; nothing was changed\.\n$/],
        [{ ENCRYPTION_KEY: key, ENCRYPTION_KEY_PREVIOUS: key }, /^ENCRYPTION_KEY and ENCRYPTION_KEY_PREVIOUS are the same key \(key id [0-9a-f]{8}\): give a new key as ENCRYPTION_KEY; nothing was changed\.\n$/],
        [{ ENCRYPTION_KEY: "not-a-key", ENCRYPTION_KEY_PREVIOUS: key }, /^Invalid environment variables:\n {2}ENCRYPTION_KEY: must be 32 bytes in base64\n$/],
        [{ ENCRYPTION_KEY: other, ENCRYPTION_KEY_PREVIOUS: key.slice(0, 20) }, /^Invalid environment variables:\n {2}ENCRYPTION_KEY_PREVIOUS: must be 32 bytes in base64\n$/],
        [
          { ENCRYPTION_KEY: other, ENCRYPTION_KEY_PREVIOUS: newKey() },
          /^ENCRYPTION_KEY_PREVIOUS is not the key this database is encrypted with \(the database expects key id [0-9a-f]{8}, it is [0-9a-f]{8}\); nothing was changed\. Give the key the data was written with; see docs\/operations\.md 'Encryption keys'\.\n$/,
        ],
      ];
      for (const [env, message] of cases) {
        const ran = await rotateKey({ ...made.env, ...env });
        expect({ code: ran.code, stderr: ran.stderr, stdout: ran.stdout }).toEqual({ code: 1, stderr: expect.stringMatching(message), stdout: "" });
      }
      expect(await inspect(made, written)).toEqual(made.before);
    } finally {
      await made.drop();
    }
  }, 180_000);

  it(`moves every value to the new key${place.name === "PostgreSQL" ? ", and a run killed midway finishes when run again" : ""}`, async () => {
    const [oldKey, target] = [newKey(), newKey()];
    const made = await placeWithData(place, oldKey, 3_000);
    try {
      const env = { ...made.env, ENCRYPTION_KEY: target, ENCRYPTION_KEY_PREVIOUS: oldKey };
      if (place.name === "PostgreSQL") {
        // Killed between the users and the notes, while servers may be writing: values are under both keys.
        const killed = await rotateKey(env, { when: /^users: /m, signal: "SIGKILL" });
        expect(killed.code).toBeNull();
        await inspect(made, async (db) => {
          await expect(start(db, target)).rejects.toThrow(notRotated);
          await expect(plainUnder(db, target)).rejects.toThrow("Failed to decrypt value");
        });
      }
      const finished = await rotateKey(env);
      expect(finished.stderr).toBe("");
      expect(finished.code).toBe(0);
      expect(finished.stdout).toMatch(/^Done: every encrypted value is under key id [0-9a-f]{8} \([\d,]+ values moved\), and key id [0-9a-f]{8} is no longer listed\.$/m);
      await inspect(made, async (db) => {
        expect(await plainUnder(db, target)).toEqual(made.plain);
        await expect(start(db, oldKey)).rejects.toThrow(wrongKey);
        await startAndStop(db, target);
      });
    } finally {
      await made.drop();
    }
  }, 120_000);

  it("stops a server started with a key that is not the database's, with the sentence and nothing else", async () => {
    const made = await placeWithData(place, newKey());
    try {
      const refused = await run(["server/main.ts"], { ...made.env, HOST: "127.0.0.1", PORT: "0", ENCRYPTION_KEY: newKey() }, { when: /running at/, signal: "SIGTERM" });
      expect(refused.code).toBe(1);
      expect(refused.stderr.trim().split("\n").at(-1)).toMatch(wrongKey);
      expect(await inspect(made, written)).toEqual(made.before);
    } finally {
      await made.drop();
    }
  }, 60_000);
});

describe.each(databaseKinds)("rotating AUTH_SECRET on $name, as docs/operations.md says", ({ open }) => {
  const database: () => Database = migratedDatabaseEach(open);

  it("signs browsers out and refuses earlier verification links; CLI sessions, API keys and password-reset links keep working", async () => {
    const { db } = database();
    const key = newKey();
    const before = await start(db, key, undefined, "the-secret-before-the-rotation-0123456789");
    const signUp = async (name: string) => {
      const email = `secret-${randomBytes(4).toString("hex")}@example.com`;
      const response = await before.auth.api.signUpEmail({ body: { name, email, password: "a good long password" }, asResponse: true });
      const cookie = response.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
      const { user: created } = (await response.json()) as { user: { id: string } };
      return { id: created.id, email, cookie };
    };
    const verified = await signUp("Ravi Kumar");
    await db.update(accounts).set({ emailVerified: true }).where(sql`${accounts.id} = ${verified.id}`);
    const unverified = await signUp("Meena Iyer");
    const verification = new URL((await listMailbox(db, unverified.email))[0]?.links[0] ?? "").searchParams.get("token") ?? "";
    await before.auth.api.requestPasswordReset({ body: { email: verified.email, redirectTo: "http://academy.test/reset-password" } });
    const reset = (await listMailbox(db, verified.email)).find((mail) => mail.subject.toLowerCase().includes("password"));
    const apiKey = await createApiKey(db, verified.id, { name: "Script", scopes: ["read"], lifetimeDays: null }, new Date());
    const cliToken = `acli_${randomBytes(16).toString("hex")}`;
    await db.insert(session).values({ id: randomBytes(8).toString("hex"), token: cliToken, userId: verified.id, expiresAt: new Date(Date.now() + 86_400_000), createdAt: new Date(), updatedAt: new Date() });
    expect(await before.auth.api.getSession({ headers: new Headers({ cookie: verified.cookie }) })).not.toBeNull();
    await before.mailWorker.stop();

    const after = await start(db, key, undefined, "the-secret-after-the-rotation-9876543210");
    expect(await after.auth.api.getSession({ headers: new Headers({ cookie: verified.cookie }) })).toBeNull();
    // The link's token is genuine (it verifies under the old secret); only the new secret refuses it.
    await expect(jwtVerify(verification, new TextEncoder().encode("the-secret-before-the-rotation-0123456789"))).resolves.toBeTruthy();
    await expect(after.auth.api.verifyEmail({ query: { token: verification } })).rejects.toThrow(/invalid token/i);
    const rule = { windowSeconds: 60, max: 100 };
    expect((await authorize(db, apiKey.secret, new Date(), rule))?.caller.userId).toBe(verified.id);
    expect((await authorize(db, cliToken, new Date(), rule))?.caller.userId).toBe(verified.id);
    const resetToken = new URL(reset?.links[0] ?? "").pathname.split("/").at(-1) ?? "";
    await after.auth.api.resetPassword({ body: { token: resetToken, newPassword: "another good long password 42" } });
    await after.mailWorker.stop();
  }, 60_000);
});
