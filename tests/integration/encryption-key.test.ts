import { randomBytes } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { clientIpHeader } from "../../server/auth/index.ts";
import type { Database, Db } from "../../server/db/client.ts";
import { appRoots, certificates } from "../../server/db/schema.ts";
import { startIdentity, type Identity } from "../../server/identity.ts";
import { createLogger } from "../../server/logger.ts";
import { createNote, listNotes } from "../../server/notes/index.ts";
import { createDiskStorage } from "../../server/storage/disk.ts";
import { databaseKinds, migratedDatabaseEach, testCatalog, testCourse } from "./helpers.ts";

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
async function start(db: Db, encryptionKey: string | undefined, previousEncryptionKey?: string): Promise<Identity> {
  const options = {
    db,
    logger: createLogger("silent"),
    catalog: () => catalog,
    production: false,
    publicUrl: "http://academy.test",
    authSecret: "test-secret-that-is-long-enough-to-use-0123456789",
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
  await db.insert(certificates).values({ id: `ACAD-${randomBytes(4).toString("hex")}`, userId: user.id, courseId: "demo", courseTitle: "Demo course", learnerName: identity.cipher.encrypt("Asha Verma") });
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
