import { hkdfSync } from "node:crypto";
import { asc, eq, like } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { appRoots, certificates, encryptionKeys, notes, users } from "../db/schema.ts";
import { createFieldCipher, type FieldCipher, keyDocumentId, loadEncryptionKey, parseKey } from "./field-encryption.ts";

/** A refused start: the process's keys are not the ones the database's values are under. */
export class KeyMismatch extends Error {
  override name = "KeyMismatch";
}

export const keysSection = "see docs/operations.md 'Encryption keys'";

/** A key with the fingerprint the database knows it by. */
export interface NamedKey {
  raw: Buffer;
  /** The full check value: derived from the key alone (HKDF), so it reveals nothing of the key or of what the key encrypts. */
  check: string;
  /** The first 8 hex digits of the check value, shown to operators. */
  id: string;
}

export function nameKey(raw: Buffer): NamedKey {
  const check = Buffer.from(hkdfSync("sha256", raw, "", "academy encryption key check v1", 32)).toString("hex");
  return { raw, check, id: check.slice(0, 8) };
}

export interface StoredKey {
  id: string;
  checkValue: string;
  current: boolean;
}

export async function storedKeys(db: Db): Promise<StoredKey[]> {
  return db.select({ id: encryptionKeys.id, checkValue: encryptionKeys.checkValue, current: encryptionKeys.current }).from(encryptionKeys).orderBy(asc(encryptionKeys.id));
}

export const matches = (key: NamedKey, stored: StoredKey) => stored.id === key.id && stored.checkValue === key.check;

/** The oldest encrypted value of each table that has one: a database written before key checks is checked against these. */
export async function encryptedSamples(db: Db): Promise<string[]> {
  const found = await Promise.all([
    db.select({ value: users.name }).from(users).where(like(users.name, "v1:%")).orderBy(asc(users.createdAt)).limit(1),
    db.select({ value: notes.title }).from(notes).where(like(notes.title, "v1:%")).orderBy(asc(notes.createdAt)).limit(1),
    db.select({ value: certificates.learnerName }).from(certificates).where(like(certificates.learnerName, "v1:%")).orderBy(asc(certificates.issuedAt)).limit(1),
  ]);
  return found.flatMap((rows) => rows.map((row) => row.value).filter((value) => value !== null));
}

/** The key decrypts every sample (a database with none is anyone's). */
export function decryptsAll(key: NamedKey, samples: string[]): boolean {
  const cipher = createFieldCipher(key.raw, noCache);
  return samples.every((sample) => {
    try {
      cipher.decrypt(sample);
      return true;
    } catch {
      return false;
    }
  });
}

/** For one-off checks and the rotation's walk: nothing decrypted is kept. */
export const noCache = { entries: 0, bytes: 0, valueChars: 0 } as const;

/** The check of the first key to decrypt a database written before key checks, stored as its current key. */
export async function recordFirstKey(db: Db, key: NamedKey): Promise<void> {
  // Processes starting together: the first insert wins, and the others then compare with it.
  await db.insert(encryptionKeys).values({ id: key.id, checkValue: key.check, current: true }).onConflictDoNothing();
}

/** A cipher over the keys a process was given; it writes under the one the database names current. */
export interface Keyring extends FieldCipher {
  /** The id of the key new values are written under. */
  currentId(): string;
  /** Reads which key is current now (a rotation changes it while servers run). */
  refresh(): Promise<void>;
  stop(): void;
}

/** How often a process holding two keys asks which one is current; `npm run rotate-key` waits longer than this. */
export const keyRefreshMs = 5_000;

export interface KeyringOptions {
  envKey: string | undefined;
  /** ENCRYPTION_KEY_PREVIOUS: during a rotation, the key values are being moved off. */
  previousKey?: string | undefined;
  /** Outside production a database with no key and no encrypted data gets a generated key document. */
  createIfMissing: boolean;
  refreshMs?: number;
}

/**
 * The keys from the environment (or the generated key kept in the database), checked against the
 * database's list: every key listed there must be one of them, or the process refuses to start with
 * a sentence. A database with no list yet (new, or written before the list existed) gets its first
 * entry here, once a stored value has shown the key is the one it was written with.
 */
export async function openKeyring(db: Db, options: KeyringOptions): Promise<Keyring> {
  let stored = await storedKeys(db);
  const primary = await primaryKey(db, options, stored);
  const keys = [primary.key, ...(options.previousKey ? [nameKey(parseKey(options.previousKey))] : [])];
  if (stored.length === 0) {
    const samples = await encryptedSamples(db);
    const fits = keys.find((key) => decryptsAll(key, samples));
    if (!fits) {
      throw new KeyMismatch(`${primary.source} is not the key this database was encrypted with (a stored value does not decrypt with key id ${keys.map((k) => k.id).join(" or ")}). Set the key the data was written with; ${keysSection}.`);
    }
    await recordFirstKey(db, fits);
    stored = await storedKeys(db);
  }
  checkKnown(stored, keys, primary.source);
  const ciphers = new Map(keys.map((key) => [key.id, createFieldCipher(key.raw)] as const));
  let current = stored.find((row) => row.current)?.id ?? primary.key.id;
  const writer = () => ciphers.get(current) ?? (ciphers.get(primary.key.id) as FieldCipher);
  const refresh = async () => {
    try {
      const [row] = await db.select({ id: encryptionKeys.id }).from(encryptionKeys).where(eq(encryptionKeys.current, true));
      if (row && ciphers.has(row.id)) current = row.id;
    } catch {
      // The last known key stays in use; the database may be closing, or briefly away.
    }
  };
  // One key only: nothing could make another current without a restart.
  const timer = keys.length > 1 ? setInterval(() => void refresh(), options.refreshMs ?? keyRefreshMs) : undefined;
  timer?.unref();
  return {
    encrypt: (value) => writer().encrypt(value),
    decrypt(value) {
      const first = writer();
      try {
        return first.decrypt(value);
      } catch (error) {
        // During a rotation a value may still be under the other key.
        for (const cipher of ciphers.values()) {
          if (cipher === first) continue;
          try {
            return cipher.decrypt(value);
          } catch {
            // Tried with the next key.
          }
        }
        throw error;
      }
    },
    digest: (...parts) => writer().digest(...parts),
    currentId: () => current,
    refresh,
    stop: () => clearInterval(timer),
  };
}

/** ENCRYPTION_KEY, or without it the key document; a missing document is made only for a database with no encrypted data yet. */
async function primaryKey(db: Db, options: KeyringOptions, stored: StoredKey[]): Promise<{ key: NamedKey; source: string }> {
  if (options.envKey) return { key: nameKey(parseKey(options.envKey)), source: "ENCRYPTION_KEY" };
  const [document] = await db.select({ key: appRoots.key }).from(appRoots).where(eq(appRoots.id, keyDocumentId));
  if (!document?.key && options.createIfMissing && (stored.length > 0 || (await encryptedSamples(db)).length > 0)) {
    const expects = stored.find((row) => row.current)?.id;
    throw new KeyMismatch(
      `ENCRYPTION_KEY is not set and this database does not keep the key its data was encrypted with${expects ? ` (the database expects key id ${expects})` : ""}. Set ENCRYPTION_KEY to the key the data was written with; ${keysSection}.`,
    );
  }
  const raw = await loadEncryptionKey(db, { envKey: undefined, createIfMissing: options.createIfMissing });
  return { key: nameKey(raw), source: "The key kept in the database (app_roots)" };
}

/** Refuses keys that are not the database's, and a process missing a key some values are still under. */
function checkKnown(stored: StoredKey[], keys: NamedKey[], source: string): void {
  const unknown = stored.filter((row) => !keys.some((key) => matches(key, row)));
  if (unknown.length === 0) return;
  const given = keys.map((key) => key.id).join(" and ");
  if (unknown.length === stored.length) {
    const expects = (stored.find((row) => row.current) ?? stored[0])?.id;
    const gives = source === "ENCRYPTION_KEY" ? `the environment gives ${given}` : `it is ${given}`;
    throw new KeyMismatch(`${source} is not the key this database was encrypted with (the database expects key id ${expects}, ${gives}). Set the key the data was written with; ${keysSection}.`);
  }
  throw new KeyMismatch(
    `This database still holds values under key id ${unknown.map((row) => row.id).join(" and ")}, and this process was given only ${given}: set ENCRYPTION_KEY_PREVIOUS to that key until \`npm run rotate-key\` says it finished; ${keysSection}.`,
  );
}
