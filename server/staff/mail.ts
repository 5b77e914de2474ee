import { and, desc, eq, gt, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { mailOutbox, user } from "../db/schema.ts";
import { recordAudit, type Actor } from "./audit.ts";
import { olderThan, toTheMillisecond, type TimeCursor } from "./pages.ts";

export const outboxPageSize = 50;

const queuedAt = toTheMillisecond(mailOutbox.createdAt);

export interface OutboxEntry {
  id: string;
  to: string;
  subject: string;
  status: "pending" | "sent" | "failed";
  attempts: number;
  lastError: string | null;
  createdAt: Date;
  sentAt: Date | null;
  nextAttemptAt: Date;
  /** The account the mail went to, if there still is one: where a new link is sent from. */
  customerId: string | null;
}

export interface OutboxFilter {
  status?: OutboxEntry["status"];
  /** One recipient's address, as typed. */
  to?: string;
  before?: TimeCursor;
}

/**
 * The outbox, newest first: who each mail went to, its subject and how delivery went. Never a
 * mail's text: sign-in and reset mails carry links that work for whoever holds them.
 */
export async function listOutbox(db: Db, filter: OutboxFilter = {}): Promise<{ mails: OutboxEntry[]; next: TimeCursor | null }> {
  const conditions: (SQL | undefined)[] = [
    filter.status ? eq(mailOutbox.status, filter.status) : undefined,
    filter.to ? eq(mailOutbox.to, filter.to.trim().toLowerCase()) : undefined,
    filter.before ? olderThan(queuedAt, mailOutbox.id, filter.before) : undefined,
  ];
  const rows = await db
    .select({
      id: mailOutbox.id,
      to: mailOutbox.to,
      subject: mailOutbox.subject,
      status: mailOutbox.status,
      attempts: mailOutbox.attempts,
      lastError: mailOutbox.lastError,
      createdAt: mailOutbox.createdAt,
      sentAt: mailOutbox.sentAt,
      nextAttemptAt: mailOutbox.nextAttemptAt,
      customerId: user.id,
    })
    .from(mailOutbox)
    .leftJoin(user, eq(user.email, mailOutbox.to))
    .where(and(...conditions))
    .orderBy(desc(queuedAt), desc(mailOutbox.id))
    .limit(outboxPageSize + 1);
  const mails = rows.slice(0, outboxPageSize);
  const last = mails.at(-1);
  return { mails, next: rows.length > outboxPageSize && last ? { createdAt: last.createdAt, id: last.id } : null };
}

/**
 * Sends every mail that is waiting out a retry now, rather than at its next attempt: for after the
 * mail server is working again. Mails given up on are not sent again (their text is not kept, as it
 * may hold sign-in links); a new link is sent from the customer's page.
 */
export async function retryWaitingMail(db: Db, actor: Actor): Promise<string> {
  return db.transaction(async (tx) => {
    const waiting = await tx
      .update(mailOutbox)
      .set({ nextAttemptAt: sql`now()` })
      .where(and(eq(mailOutbox.status, "pending"), gt(mailOutbox.attempts, 0), gt(mailOutbox.nextAttemptAt, sql`now()`)))
      .returning({ id: mailOutbox.id });
    if (waiting.length === 0) return "No mail is waiting for a retry.";
    await recordAudit(tx, actor, { action: "mail.retry", subject: { kind: "outbox", id: "waiting" }, after: { mails: waiting.length } });
    return `${waiting.length} ${waiting.length === 1 ? "mail goes" : "mails go"} out again now.`;
  });
}
