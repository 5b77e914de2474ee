import { createAuth, type Auth } from "./auth/index.ts";
import type { Catalog } from "./catalog/index.ts";
import { createFieldCipher, loadEncryptionKey, type FieldCipher } from "./crypto/field-encryption.ts";
import type { Db } from "./db/client.ts";
import type { Logger } from "./logger.ts";
import type { FileStorage } from "./storage/index.ts";
import { enqueueMail, type MailTransport } from "./mail/outbox.ts";
import { createMailTransport } from "./mail/transport.ts";
import { startMailWorker, type MailWorker } from "./mail/worker.ts";

export interface Identity {
  auth: Auth;
  cipher: FieldCipher;
  mailTransport: MailTransport;
  mailWorker: MailWorker;
}

export interface IdentityOptions {
  db: Db;
  logger: Logger;
  catalog: () => Catalog;
  production: boolean;
  publicUrl: string;
  /** Origins Better Auth accepts requests from; PUBLIC_URL's alone unless given. */
  trustedOrigins?: string[];
  authSecret: string;
  encryptionKey: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  mailIntervalMs?: number;
  storage: FileStorage;
  google?: { clientId: string; clientSecret: string; issuer: string };
}

/** Encryption key → field cipher → mail transport and worker → Better Auth. */
export async function startIdentity(options: IdentityOptions): Promise<Identity> {
  const { db, logger } = options;
  const key = await loadEncryptionKey(db, { envKey: options.encryptionKey, createIfMissing: !options.production });
  const cipher = createFieldCipher(key);
  const mailTransport = createMailTransport({ smtpUrl: options.smtpUrl, from: options.mailFrom });
  const mailWorker = startMailWorker({ db, transport: mailTransport, logger, intervalMs: options.mailIntervalMs });
  const auth = createAuth({
    db,
    publicUrl: options.publicUrl,
    trustedOrigins: options.trustedOrigins ?? [options.publicUrl],
    secret: options.authSecret,
    catalog: options.catalog,
    cipher,
    logger,
    storage: options.storage,
    google: options.google,
    sendMail: async (message) => {
      await enqueueMail(db, message);
      mailWorker.nudge();
    },
  });
  return { auth, cipher, mailTransport, mailWorker };
}
