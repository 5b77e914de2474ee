import { createGoogleStandIn, type GoogleStandIn } from "./auth/google-stand-in.ts";
import { createCliLogin, type CliLogin } from "./auth/cli-login.ts";
import { createPageSessions, type PageSessions } from "./auth/page-session.ts";
import { createAuth, type Auth, type PasswordHashing } from "./auth/index.ts";
import type { Catalog } from "./catalog/index.ts";
import type { FieldCipher } from "./crypto/field-encryption.ts";
import { openKeyring } from "./crypto/keyring.ts";
import type { GoogleSettings } from "./config.ts";
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
  /** The development stand-in for Google, when the settings ask for it; the HTTP app serves it. */
  googleStandIn: GoogleStandIn | null;
  /** Signing the `academy` CLI in from the browser. */
  cliLogin: CliLogin;
  /** The signed-in person of a page request (server/auth/page-session.ts). */
  pageSession: PageSessions;
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
  /** ENCRYPTION_KEY_PREVIOUS: read with it too while `npm run rotate-key` moves values off it. */
  previousEncryptionKey?: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  mailIntervalMs?: number;
  storage: FileStorage;
  google?: GoogleSettings;
  passwordHashing?: PasswordHashing;
}

/** Encryption key → field cipher → mail transport and worker → Better Auth. */
export async function startIdentity(options: IdentityOptions): Promise<Identity> {
  const { db, logger } = options;
  const cipher = await openKeyring(db, { envKey: options.encryptionKey, previousKey: options.previousEncryptionKey, createIfMissing: !options.production });
  const mailTransport = createMailTransport({ smtpUrl: options.smtpUrl, from: options.mailFrom });
  const mailWorker = startMailWorker({ db, transport: mailTransport, logger, intervalMs: options.mailIntervalMs });
  const google = options.google;
  const googleStandIn = google?.standIn
    ? await createGoogleStandIn({
        issuer: google.issuer,
        clientId: google.clientId,
        clientSecret: google.clientSecret,
        notice: "Development stand-in for Google: this page is not Google. Set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET to sign in with real Google accounts.",
      })
    : null;
  const auth = createAuth({
    db,
    publicUrl: options.publicUrl,
    trustedOrigins: options.trustedOrigins ?? [options.publicUrl],
    secret: options.authSecret,
    catalog: options.catalog,
    cipher,
    logger,
    storage: options.storage,
    google: google && { ...google, standIn: googleStandIn ?? undefined },
    passwordHashing: options.passwordHashing,
    sendMail: async (message) => {
      await enqueueMail(db, message);
      mailWorker.nudge();
    },
  });
  return { auth, cipher, mailTransport, mailWorker, googleStandIn, cliLogin: createCliLogin(db, options.authSecret), pageSession: createPageSessions(auth, db) };
}
