import { and, eq, sql } from "drizzle-orm";
import type { FieldCipher } from "../crypto/field-encryption.ts";
import type { Db } from "../db/client.ts";
import { deviceCode, mailOutbox, orders, throttles, verification } from "../db/schema.ts";
import type { Logger } from "../logger.ts";
import type { FileStorage } from "../storage/index.ts";
import { removeOwnPhoto } from "./profile.ts";
import { readUserDocument } from "./user-document.ts";

export interface AccountServices {
  db: Db;
  cipher: FieldCipher;
  storage: FileStorage;
  logger: Logger;
}

/**
 * Erases what the account row does not take with it. Every deletion runs this: Better Auth's
 * delete-user endpoint, which the settings page calls too, runs it just before it deletes the row.
 * Here: mail to the address (the outbox and the development mailbox), limits keyed by it, pending
 * sign-in tokens and CLI sign-in codes, the domain in hosting orders' titles, then the photo files. Deleting the row then removes, by foreign key, the
 * sessions, sign-in methods, user document, notes, progress, enrolments, reviews and certificates,
 * and sets the buyer to null on orders, payments and refunds, which the law makes us keep.
 */
export async function eraseAccountData(services: AccountServices, account: { id: string; email: string; image?: string | null }): Promise<void> {
  const { db, cipher, storage, logger } = services;
  const document = await readUserDocument(db, cipher, logger, account.id);
  const address = account.email.toLowerCase();
  await db.transaction(async (tx) => {
    await tx.delete(mailOutbox).where(sql`lower(${mailOutbox.to}) = ${address}`);
    // Throttle keys end in ":<address>" (see server/auth); a suffix match cannot hit another address.
    await tx.delete(throttles).where(sql`right(${throttles.key}, ${address.length + 1}) = ${`:${address}`}`);
    await tx.delete(verification).where(eq(verification.value, account.id));
    // CLI sign-ins the person approved or denied, not yet collected by the CLI.
    await tx.delete(deviceCode).where(eq(deviceCode.userId, account.id));
    // A hosting invoice kept for the books describes the service by its plan, which is all the law asks; the domain named the
    // person's website, and a payment that bought nothing said why in words that name it too.
    await tx
      .update(orders)
      .set({ title: sql`regexp_replace(${orders.title}, ${String.raw` for \S+$`}, '')`, failureReason: null })
      .where(and(eq(orders.userId, account.id), eq(orders.kind, "website")));
  });
  for (const photo of new Set([account.image, document?.profilePicUrl])) {
    if (photo) await removeOwnPhoto({ db, storage }, account.id, photo);
  }
}
