import { desc, eq } from "drizzle-orm";
import { appServices, viewerContext } from "../../server/context.ts";
import { account, mailOutbox, session, user } from "../../server/db/schema.ts";
import { exportNotes } from "../../server/notes/index.ts";
import { readUserDocument } from "../../server/users/user-document.ts";
import type { Route } from "./+types/settings-export";

/** "Download my data": everything we hold on the signed-in person, decrypted, as one JSON file. */
export async function loader({ context }: Route.LoaderArgs) {
  const viewer = context.get(viewerContext);
  if (!viewer) return new Response("Sign in to download your data.", { status: 401 });
  const { db, cipher, logger } = context.get(appServices);
  const [profile, document, sessions, accounts, mails, notes] = await Promise.all([
    db.select({ id: user.id, name: user.name, email: user.email, emailVerified: user.emailVerified, image: user.image, createdAt: user.createdAt, updatedAt: user.updatedAt }).from(user).where(eq(user.id, viewer.id)),
    readUserDocument(db, cipher, logger, viewer.id),
    db.select({ createdAt: session.createdAt, lastSeenAt: session.updatedAt, expiresAt: session.expiresAt, ipAddress: session.ipAddress, userAgent: session.userAgent }).from(session).where(eq(session.userId, viewer.id)),
    db.select({ provider: account.providerId, createdAt: account.createdAt }).from(account).where(eq(account.userId, viewer.id)),
    db.select({ subject: mailOutbox.subject, status: mailOutbox.status, createdAt: mailOutbox.createdAt, sentAt: mailOutbox.sentAt }).from(mailOutbox).where(eq(mailOutbox.to, viewer.email)).orderBy(desc(mailOutbox.createdAt)),
    exportNotes(db, cipher, viewer.id),
  ]);
  const body = JSON.stringify({ exportedAt: new Date().toISOString(), account: profile[0], userDocument: document, signInMethods: accounts, sessions, mail: mails, notes }, null, 2);
  return new Response(body, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": 'attachment; filename="academy-my-data.json"',
      "Cache-Control": "no-store",
    },
  });
}
