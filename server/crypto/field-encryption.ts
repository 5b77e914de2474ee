import { createCipheriv, createDecipheriv, createHmac, createSecretKey, hkdfSync, randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { appRoots } from "../db/schema.ts";

/** Spec §8: the three encryption failures, with their exact texts. */
export class EncryptionError extends Error {
  override name = "EncryptionError";
}

export interface FieldCipher {
  encrypt(value: string): string;
  /** Throws EncryptionError("Failed to decrypt value") when the value is not ours or was tampered with. */
  decrypt(value: string): string;
  /**
   * A keyed digest (HMAC-SHA256, base64url) of the parts, under a key derived from the encryption
   * key: equal parts give equal digests, and without the key nobody can test a guess against one.
   */
  digest(...parts: (string | null)[]): string;
}

/** The generated key's row in app_roots, kept when no ENCRYPTION_KEY is set. */
export const keyDocumentId = "Encryption";
const version = "v1";

export function parseKey(base64: string): Buffer {
  const key = Buffer.from(base64, "base64");
  if (key.length !== 32) throw new EncryptionError("Failed to fetch encryption key");
  return key;
}

/**
 * The key from ENCRYPTION_KEY, else from the key document (app_roots/Encryption, field key).
 * Outside production a missing document is created once; in production it is an error.
 */
export async function loadEncryptionKey(
  db: Db,
  options: { envKey: string | undefined; createIfMissing: boolean },
): Promise<Buffer> {
  if (options.envKey) return parseKey(options.envKey);
  let stored: string | null | undefined;
  try {
    if (options.createIfMissing) {
      await db
        .insert(appRoots)
        .values({ id: keyDocumentId, key: randomBytes(32).toString("base64") })
        .onConflictDoNothing();
    }
    stored = (await db.select({ key: appRoots.key }).from(appRoots).where(eq(appRoots.id, keyDocumentId)))[0]?.key;
  } catch (cause) {
    throw new EncryptionError("Failed to fetch encryption key", { cause });
  }
  if (!stored) throw new EncryptionError("Failed to fetch encryption key");
  return parseKey(stored);
}

/**
 * What a cipher keeps of the values it decrypted: a few thousand short fields (names, titles, short
 * notes). Long values are not kept: decrypting one (≈50 µs for 20,000 characters) costs less than the
 * memory it would hold, and a learner's 1,000 full notes would otherwise push out everyone else's.
 */
export const decryptedCache = { entries: 4_096, bytes: 16 * 1024 * 1024, valueChars: 8_192 } as const;

/** Memory a kept value takes, at two bytes a character (its stored text and its plain text). */
const keptBytes = (stored: string, plain: string) => 2 * (stored.length + plain.length);

/**
 * AES-256-GCM; text form `v1:<base64 iv>:<base64 ciphertext+tag>`. Decrypted values are kept by
 * their stored text (a random IV makes every write a new text, so a kept value is never stale):
 * a page lists the same notes and profile on every view, and each decryption costs 8–10 µs.
 */
export function createFieldCipher(rawKey: Buffer, cache: { entries: number; bytes: number; valueChars: number } = decryptedCache): FieldCipher {
  // A key object made once: handing the raw bytes to every cipher made Node prepare the key each
  // time, five times the cost of the decryption itself (a notes page decrypts hundreds of fields).
  const key = createSecretKey(rawKey);
  // A separate key for digests, so a digest never reuses the encryption key itself.
  const digestKey = createSecretKey(Buffer.from(hkdfSync("sha256", rawKey, "", "academy field digest v1", 32)));
  const decrypted = new Map<string, string>();
  let decryptedBytes = 0;
  const keep = (stored: string, plain: string) => {
    if (stored.length > cache.valueChars) return;
    decryptedBytes += keptBytes(stored, plain);
    decrypted.set(stored, plain);
    // The oldest kept values go first (a Map iterates in insertion order).
    for (const [oldest, value] of decrypted) {
      if (decrypted.size <= cache.entries && decryptedBytes <= cache.bytes) break;
      decrypted.delete(oldest);
      decryptedBytes -= keptBytes(oldest, value);
    }
  };
  return {
    encrypt(value) {
      try {
        const iv = randomBytes(12);
        const cipher = createCipheriv("aes-256-gcm", key, iv);
        const body = Buffer.concat([cipher.update(value, "utf8"), cipher.final(), cipher.getAuthTag()]);
        return `${version}:${iv.toString("base64")}:${body.toString("base64")}`;
      } catch (cause) {
        throw new EncryptionError("Failed to encrypt value", { cause });
      }
    },
    decrypt(value) {
      const known = decrypted.get(value);
      if (known !== undefined) return known;
      let plain: string;
      try {
        const [tag, ivText, bodyText] = value.split(":");
        if (tag !== version || !ivText || !bodyText) throw new Error("not an encrypted value");
        const iv = Buffer.from(ivText, "base64");
        const body = Buffer.from(bodyText, "base64");
        const decipher = createDecipheriv("aes-256-gcm", key, iv);
        decipher.setAuthTag(body.subarray(body.length - 16));
        plain = Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]).toString("utf8");
      } catch (cause) {
        throw new EncryptionError("Failed to decrypt value", { cause });
      }
      keep(value, plain);
      return plain;
    },
    digest(...parts) {
      // JSON keeps the parts apart: ["ab", "c"] and ["a", "bc"] differ.
      return createHmac("sha256", digestKey).update(JSON.stringify(parts)).digest("base64url");
    },
  };
}

type StringFields<T> = { [K in keyof T]: T[K] extends string | null | undefined ? K : never }[keyof T];

/** Encrypts the named string fields; null and undefined are skipped. */
export function encryptFields<T extends object>(cipher: FieldCipher, record: T, fields: readonly StringFields<T>[]): T {
  const out = { ...record };
  for (const field of fields) {
    const value = out[field];
    if (typeof value === "string") out[field] = cipher.encrypt(value) as T[typeof field];
  }
  return out;
}

/** Decrypts the named string fields; a value that does not decrypt is kept as it is (legacy plaintext). */
export function decryptFields<T extends object>(cipher: FieldCipher, record: T, fields: readonly StringFields<T>[]): T {
  const out = { ...record };
  for (const field of fields) {
    const value = out[field];
    if (typeof value !== "string") continue;
    try {
      out[field] = cipher.decrypt(value) as T[typeof field];
    } catch {
      // Raw value kept: data written before encryption, or by hand.
    }
  }
  return out;
}
