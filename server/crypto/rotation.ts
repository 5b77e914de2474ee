import { setTimeout as sleep } from "node:timers/promises";
import { and, asc, eq, gt, isNull, ne, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db } from "../db/client.ts";
import { appRoots, certificates, encryptionKeys, notes, users } from "../db/schema.ts";
import { createFieldCipher, type FieldCipher, keyDocumentId, parseKey } from "./field-encryption.ts";
import { decryptsAll, encryptedSamples, keyRefreshMs, keysSection, matches, nameKey, noCache, recordFirstKey, storedKeys } from "./keyring.ts";

/** The rotation cannot start or finish; the sentence says why and whether anything changed. */
export class RotationError extends Error {
  override name = "RotationError";
}

type Row = Record<string, string | null>;

/** A table with encrypted columns; every caller of the field cipher writes to one of these. */
interface EncryptedTable {
  name: string;
  table: PgTable;
  key: PgColumn;
  /** The encrypted columns, by the name the walk reads them under. */
  fields: Record<string, PgColumn>;
  /** A keyed digest recomputed under the new key (notes): its property, the other columns it is made of, and its parts. */
  digest?: { property: string; column: PgColumn; reads: Record<string, PgColumn>; parts: (row: Row, plain: Row) => (string | null)[] };
}

const encryptedTables: EncryptedTable[] = [
  { name: "users", table: users, key: users.uid, fields: { name: users.name, email: users.email, profilePicUrl: users.profilePicUrl } },
  {
    name: "notes",
    table: notes,
    key: notes.id,
    fields: { title: notes.title, body: notes.body },
    // The parts server/notes/notes.ts digests (contentDigest); the rotation test fails if they drift apart.
    digest: { property: "contentDigest", column: notes.contentDigest, reads: { userId: notes.userId, courseId: notes.courseId, lessonId: notes.lessonId }, parts: (row, plain) => [row.userId ?? null, plain.title ?? null, plain.body ?? null, row.courseId ?? null, row.lessonId ?? null] },
  },
  { name: "certificates", table: certificates, key: certificates.id, fields: { learnerName: certificates.learnerName, originalLearnerName: certificates.originalLearnerName } },
];

export interface RotationOptions {
  /** ENCRYPTION_KEY: the key every value ends up under. */
  to: string | undefined;
  /** ENCRYPTION_KEY_PREVIOUS, else the generated key kept in the database. */
  from: string | undefined;
  /** How long running servers get to notice the new key is current; longer than their refresh interval. */
  settleMs?: number;
  batchSize?: number;
  /** Called after each batch is written (tests read and write here, or stop the rotation as a kill would). */
  afterBatch?: () => Promise<void>;
  log?: (line: string) => void;
}

export interface RotationResult {
  /** Every value was already under the new key: a finished rotation run again. */
  alreadyDone: boolean;
  newId: string;
  oldId: string;
  rewritten: number;
  /** Values neither key decrypts (written under some other key before key checks): left as they are. */
  unreadable: number;
  /** The old key was the generated one in app_roots, which is now deleted. */
  removedKeptKey: boolean;
}

const nothingChanged = "nothing was changed";
/** After the first pass, a pass that still finds values under the old key means a process still writes with it. */
const maxPasses = 3;

/**
 * Re-encrypts every encrypted field from the old key to the new one while servers run, then leaves
 * the new key alone in the database's list. Servers given both keys read either and write under the
 * current one, which this makes the new key first. Each batch of rows is one transaction and a row
 * is rewritten only if it still holds what was read, so a run killed at any point loses nothing and
 * a second run finishes the work.
 */
export async function rotateEncryptionKey(db: Db, options: RotationOptions): Promise<RotationResult> {
  const log = options.log ?? (() => {});
  if (!options.to) {
    throw new RotationError(`Give the new key as ENCRYPTION_KEY (32 random bytes in base64, as \`openssl rand -base64 32\` prints) and the key the data is under now as ENCRYPTION_KEY_PREVIOUS; ${nothingChanged}.`);
  }
  const to = nameKey(parseKey(options.to));
  const kept = (await db.select({ key: appRoots.key }).from(appRoots).where(eq(appRoots.id, keyDocumentId)))[0]?.key ?? undefined;
  const fromText = options.from ?? kept;
  if (!fromText) throw new RotationError(`Give the key the data is under now as ENCRYPTION_KEY_PREVIOUS, and the new key as ENCRYPTION_KEY; ${nothingChanged}.`);
  const from = nameKey(parseKey(fromText));
  const fromSource = options.from ? "ENCRYPTION_KEY_PREVIOUS" : "The key kept in the database (app_roots)";
  if (from.id === to.id) {
    throw new RotationError(`ENCRYPTION_KEY and ${options.from ? "ENCRYPTION_KEY_PREVIOUS" : "the key kept in the database"} are the same key (key id ${to.id}): give a new key as ENCRYPTION_KEY; ${nothingChanged}.`);
  }
  const removedKeptKey = fromText === kept;

  let stored = await storedKeys(db);
  if (stored.length === 0) {
    if (!decryptsAll(from, await encryptedSamples(db))) {
      throw new RotationError(`${fromSource} is not the key this database was encrypted with (a stored value does not decrypt with key id ${from.id}); ${nothingChanged}. Give the key the data was written with; ${keysSection}.`);
    }
    await recordFirstKey(db, from);
    stored = await storedKeys(db);
  }
  const others = stored.filter((row) => !matches(from, row) && !matches(to, row));
  if (others.length > 0) {
    const expects = stored.find((row) => row.current)?.id;
    throw new RotationError(
      stored.some((row) => matches(from, row) || matches(to, row))
        ? `This database also holds values under key id ${others.map((row) => row.id).join(" and ")}, which is neither key given: finish that rotation first; ${nothingChanged}.`
        : `${fromSource} is not the key this database is encrypted with (the database expects key id ${expects}, it is ${from.id}); ${nothingChanged}. Give the key the data was written with; ${keysSection}.`,
    );
  }
  if (!stored.some((row) => matches(from, row))) {
    log(`Every encrypted value is already under key id ${to.id}: nothing to do.`);
    return { alreadyDone: true, newId: to.id, oldId: from.id, rewritten: 0, unreadable: 0, removedKeptKey: false };
  }

  if (!stored.some((row) => row.current && matches(to, row))) {
    await db.transaction(async (tx) => {
      await tx.insert(encryptionKeys).values({ id: to.id, checkValue: to.check, current: false }).onConflictDoNothing();
      await tx.update(encryptionKeys).set({ current: false }).where(ne(encryptionKeys.id, to.id));
      await tx.update(encryptionKeys).set({ current: true }).where(eq(encryptionKeys.id, to.id));
    });
    const settleMs = options.settleMs ?? 2 * keyRefreshMs + 1_000;
    log(`Key id ${to.id} is now current.`);
    if (settleMs > 0) {
      log(`Waiting ${Math.round(settleMs / 1000)} s for running servers to write under it…`);
      await sleep(settleMs);
    }
  }

  const ciphers = { from: createFieldCipher(from.raw, noCache), to: createFieldCipher(to.raw, noCache) };
  let rewritten = 0;
  let unreadable = 0;
  // The first pass moves what is there; the next ones find what was written under the old key meanwhile, and rows that changed under a rewrite.
  for (let pass = 1; ; pass++) {
    const found = { rewritten: 0, raced: 0, unreadable: 0 };
    for (const spec of encryptedTables) {
      const counts = await rewriteTable(db, spec, ciphers, options);
      found.rewritten += counts.rewritten;
      found.raced += counts.raced;
      found.unreadable += counts.unreadable;
      if (pass === 1) log(`${spec.name}: ${counts.rewritten.toLocaleString("en")} values moved to key id ${to.id}.`);
    }
    rewritten += found.rewritten;
    unreadable = found.unreadable;
    if (pass > 1 && found.rewritten === 0 && found.raced === 0) break;
    if (pass >= maxPasses && found.rewritten > 0) {
      throw new RotationError(
        `Values under the old key (key id ${from.id}) kept appearing while this ran, so a process still writes with it: restart every server with ENCRYPTION_KEY set to the new key and ENCRYPTION_KEY_PREVIOUS to the old one, then run this again. The ${rewritten.toLocaleString("en")} values moved so far stay moved.`,
      );
    }
    if (pass >= 3 * maxPasses) {
      throw new RotationError(`Rows kept changing while this rewrote them; run this again when the servers are less busy. The ${rewritten.toLocaleString("en")} values moved so far stay moved.`);
    }
  }

  await db.transaction(async (tx) => {
    await tx.delete(encryptionKeys).where(eq(encryptionKeys.id, from.id));
    if (removedKeptKey) await tx.delete(appRoots).where(eq(appRoots.id, keyDocumentId));
  });
  return { alreadyDone: false, newId: to.id, oldId: from.id, rewritten, unreadable, removedKeptKey };
}

/** One walk over a table in key order, a batch a transaction; each rewrite is conditional on the row being as it was read. */
async function rewriteTable(db: Db, spec: EncryptedTable, ciphers: { from: FieldCipher; to: FieldCipher }, options: RotationOptions) {
  const counts = { rewritten: 0, raced: 0, unreadable: 0 };
  const batchSize = options.batchSize ?? 500;
  const digest = spec.digest;
  const columns: Record<string, PgColumn> = { key: spec.key, ...spec.fields, ...digest?.reads, ...(digest ? { [digest.property]: digest.column } : {}) };
  let after: string | undefined;
  for (;;) {
    const batch = (await db
      .select(columns)
      .from(spec.table)
      .where(after === undefined ? undefined : gt(spec.key, after))
      .orderBy(asc(spec.key))
      .limit(batchSize)) as Row[];
    if (batch.length === 0) return counts;
    after = batch.at(-1)?.key ?? undefined;
    const updates: { row: Row; set: Record<string, string> }[] = [];
    for (const row of batch) {
      const set: Record<string, string> = {};
      const plain: Row = {};
      for (const field of Object.keys(spec.fields)) {
        const value = row[field] ?? null;
        plain[field] = value;
        if (value === null || !value.startsWith("v1:")) continue;
        const under = readWith(ciphers, value);
        if (under === null) {
          counts.unreadable++;
          continue;
        }
        plain[field] = under.plain;
        if (under.key === "from") set[field] = ciphers.to.encrypt(under.plain);
      }
      const stored = digest && row[digest.property];
      if (digest && stored) {
        const recomputed = ciphers.to.digest(...digest.parts(row, plain));
        if (recomputed !== stored) set[digest.property] = recomputed;
      }
      if (Object.keys(set).length > 0) updates.push({ row, set });
    }
    if (updates.length > 0) {
      await db.transaction(async (tx) => {
        for (const { row, set } of updates) {
          const unchanged: SQL[] = Object.entries(columns).map(([name, column]) => (row[name] === null ? isNull(column) : eq(column, row[name] as string)));
          const changed = await tx
            .update(spec.table)
            .set(set)
            .where(and(...unchanged))
            .returning({ key: spec.key });
          if (changed.length === 0) counts.raced++;
          else counts.rewritten += Object.keys(set).filter((name) => name in spec.fields).length;
        }
      });
    }
    await options.afterBatch?.();
  }
}

function readWith(ciphers: { from: FieldCipher; to: FieldCipher }, value: string): { key: "from" | "to"; plain: string } | null {
  for (const key of ["to", "from"] as const) {
    try {
      return { key, plain: ciphers[key].decrypt(value) };
    } catch {
      // Not under this key.
    }
  }
  return null;
}
