import { createCipheriv, createDecipheriv, createSecretKey, randomBytes } from "node:crypto";
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
}

const keyDocumentId = "Encryption";
const version = "v1";

function parseKey(base64: string): Buffer {
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

/** How many decrypted values a cipher keeps: a few thousand short fields, a few megabytes at most. */
const decryptedCacheSize = 4_096;

/**
 * AES-256-GCM; text form `v1:<base64 iv>:<base64 ciphertext+tag>`. Decrypted values are kept by
 * their stored text (a random IV makes every write a new text, so a kept value is never stale):
 * a page lists the same notes and profile on every view, and each decryption costs 8–10 µs.
 */
export function createFieldCipher(rawKey: Buffer, cacheSize = decryptedCacheSize): FieldCipher {
  // A key object made once: handing the raw bytes to every cipher made Node prepare the key each
  // time, five times the cost of the decryption itself (a notes page decrypts hundreds of fields).
  const key = createSecretKey(rawKey);
  const decrypted = new Map<string, string>();
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
      // The oldest kept value goes first (a Map iterates in insertion order).
      if (decrypted.size >= cacheSize) decrypted.delete(decrypted.keys().next().value as string);
      decrypted.set(value, plain);
      return plain;
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
