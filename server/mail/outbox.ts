import { and, asc, desc, eq, lte, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { mailOutbox } from "../db/schema.ts";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
}

export interface MailTransport {
  kind: "outbox" | "smtp";
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** Stores a mail for the worker; callers never talk to SMTP themselves, so no mail is lost to a crash. */
export async function enqueueMail(db: Db, message: MailMessage): Promise<void> {
  await db.insert(mailOutbox).values(message);
}

export const maxAttempts = 8;

/** Seconds to wait after the n-th failed attempt: 30 s, 1 min, 2 min … capped at 6 h. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(30 * 2 ** (attempts - 1), 6 * 60 * 60);
}

/**
 * Sends up to `batch` due mails. Rows are locked with SKIP LOCKED, so several processes can run
 * workers on one database without sending a mail twice. Returns how many were handled.
 */
export async function deliverDueMail(db: Db, transport: MailTransport, batch = 10): Promise<{ sent: number; failed: number }> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.status, "pending"), lte(mailOutbox.nextAttemptAt, sql`now()`)))
      .orderBy(asc(mailOutbox.createdAt))
      .limit(batch)
      .for("update", { skipLocked: true });
    let sent = 0;
    let failed = 0;
    for (const mail of due) {
      try {
        await transport.send(mail);
        await tx
          .update(mailOutbox)
          .set({ status: "sent", sentAt: sql`now()`, attempts: mail.attempts + 1, lastError: null })
          .where(eq(mailOutbox.id, mail.id));
        sent += 1;
      } catch (error) {
        const attempts = mail.attempts + 1;
        await tx
          .update(mailOutbox)
          .set({
            attempts,
            lastError: (error as Error).message.slice(0, 500),
            status: attempts >= maxAttempts ? "failed" : "pending",
            nextAttemptAt: sql`now() + make_interval(secs => ${retryDelaySeconds(attempts)})`,
          })
          .where(eq(mailOutbox.id, mail.id));
        failed += 1;
      }
    }
    return { sent, failed };
  });
}

export interface MailboxEntry extends MailMessage {
  createdAt: Date;
}

/** The development mailbox: mail delivered to the outbox transport, newest first. */
export async function listMailbox(db: Db, to?: string): Promise<MailboxEntry[]> {
  return db
    .select({
      to: mailOutbox.to,
      subject: mailOutbox.subject,
      text: mailOutbox.text,
      html: mailOutbox.html,
      links: mailOutbox.links,
      createdAt: mailOutbox.createdAt,
    })
    .from(mailOutbox)
    .where(to ? sql`lower(${mailOutbox.to}) = lower(${to})` : undefined)
    .orderBy(desc(mailOutbox.createdAt))
    .limit(200);
}
