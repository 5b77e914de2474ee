import { eq } from "drizzle-orm";
import { decryptFields, encryptFields, type FieldCipher } from "../crypto/field-encryption.ts";
import type { Db } from "../db/client.ts";
import { users } from "../db/schema.ts";
import type { Logger } from "../logger.ts";

/** Spec §3: the user document, as callers see it (decrypted). */
export interface UserDocument {
  uid: string;
  name: string;
  email: string;
  profilePicUrl: string;
  createdAt: Date;
  lastLogin: Date;
}

/** What the identity provider knows about the account. */
export interface AccountProfile {
  id: string;
  name?: string | null;
  email?: string | null;
  image?: string | null;
}

const encryptedFields = ["name", "email", "profilePicUrl"] as const;

/**
 * Creates the document for a new account (name falls back to the display name, e-mail and photo
 * to empty). An existing document is left alone. Failures are rethrown: sign-up must not succeed
 * without it.
 */
export async function createUserDocument(
  db: Db,
  cipher: FieldCipher,
  account: AccountProfile,
  options: { name?: string; now?: Date } = {},
): Promise<void> {
  const now = options.now ?? new Date();
  const values = encryptFields(
    cipher,
    {
      uid: account.id,
      name: options.name?.trim() || account.name?.trim() || "",
      email: account.email ?? "",
      profilePicUrl: account.image ?? "",
      createdAt: now,
      lastLogin: now,
    },
    encryptedFields,
  );
  await db.insert(users).values(values).onConflictDoNothing();
}

/**
 * On every later sign-in only name, profilePicUrl and lastLogin change. A missing document (an
 * account created before documents existed) is created. Failures are logged, never thrown.
 */
export async function recordSignIn(db: Db, cipher: FieldCipher, logger: Logger, account: AccountProfile): Promise<void> {
  try {
    const now = new Date();
    const changes = encryptFields(
      cipher,
      { name: account.name?.trim() ?? "", profilePicUrl: account.image ?? "", lastLogin: now },
      ["name", "profilePicUrl"],
    );
    const updated = await db.update(users).set(changes).where(eq(users.uid, account.id)).returning({ uid: users.uid });
    if (updated.length === 0) await createUserDocument(db, cipher, account, { now });
  } catch (error) {
    logger.error({ err: error, uid: account.id }, "could not update the user document");
  }
}

/** The decrypted document, or null when it is missing or cannot be read (logged). */
export async function readUserDocument(db: Db, cipher: FieldCipher, logger: Logger, uid: string): Promise<UserDocument | null> {
  try {
    const row = (await db.select().from(users).where(eq(users.uid, uid)))[0];
    if (!row) return null;
    const plain = decryptFields(cipher, row, encryptedFields);
    return {
      uid: plain.uid,
      name: plain.name ?? "",
      email: plain.email ?? "",
      profilePicUrl: plain.profilePicUrl ?? "",
      createdAt: plain.createdAt,
      lastLogin: plain.lastLogin,
    };
  } catch (error) {
    logger.error({ err: error, uid }, "could not read the user document");
    return null;
  }
}

/** Changes the fields a person edits on /profile; the caller updates the account itself too. */
export async function updateUserDocument(
  db: Db,
  cipher: FieldCipher,
  uid: string,
  changes: { name?: string; profilePicUrl?: string },
): Promise<void> {
  await db.update(users).set(encryptFields(cipher, changes, ["name", "profilePicUrl"])).where(eq(users.uid, uid));
}
