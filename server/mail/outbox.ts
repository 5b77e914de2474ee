import { and, asc, desc, eq, inArray, lte, sql } from "drizzle-orm";
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
 * How long a claimed mail waits for its sender before another process may take it over. A batch
 * starts no send after `sendWindowSeconds`, and one send is bounded by the SMTP timeouts
 * (transport.ts, about 40 s at worst), so a live sender always finishes inside its claim.
 */
export const mailLeaseSeconds = 60;
const sendWindowSeconds = 15;

/** A mail the transport refused or could not reach its server for. */
export interface MailFailure {
  mailId: string;
  attempts: number;
  /** True when that was the last attempt: the mail is marked failed and not tried again. */
  gaveUp: boolean;
  /** Seconds until the next attempt, when there is one. */
  retryInSeconds: number | null;
  /** The transport's reason (an SMTP reply, a refused connection). */
  reason: string;
}

/**
 * What is kept of a mail once it has left: who it went to, its subject and when, for support. The
 * body goes: its links sign people in, reset passwords and verify addresses until they expire, and
 * the table is in every backup for the 90 days sent mail is kept. The outbox transport keeps it,
 * since there the table is the development mailbox people read their mail in.
 */
const sentBody = { text: "", html: "", links: [] as string[] };

/**
 * Sends up to `batch` due mails. They are claimed first, in one statement with SKIP LOCKED, by
 * pushing their next attempt past a lease, so several processes never send one mail at once and no
 * transaction stays open while SMTP answers. Each mail's outcome is written as soon as it is known:
 * a process that dies mid-batch leaves the mails it sent marked sent, and the rest due again when
 * the lease ends. Returns how many were handled (sent or failed; a mail handed back is neither),
 * and tells `failed` of each failure as it happens.
 */
export async function deliverDueMail(
  db: Db,
  transport: MailTransport,
  options: { batch?: number; clock?: () => number; failed?: (failure: MailFailure) => void } = {},
): Promise<{ sent: number; failed: number }> {
  const { batch = 10, clock = Date.now } = options;
  const claimed = await db
    .update(mailOutbox)
    .set({ nextAttemptAt: sql`now() + make_interval(secs => ${mailLeaseSeconds})` })
    .where(
      inArray(
        mailOutbox.id,
        db
          .select({ id: mailOutbox.id })
          .from(mailOutbox)
          .where(and(eq(mailOutbox.status, "pending"), lte(mailOutbox.nextAttemptAt, sql`now()`)))
          .orderBy(asc(mailOutbox.createdAt))
          .limit(batch)
          .for("update", { skipLocked: true }),
      ),
    )
    .returning();
  let sent = 0;
  let failed = 0;
  const forgetBody = transport.kind === "outbox" ? {} : sentBody;
  const claimedAt = clock();
  const queue = claimed.toSorted((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  for (const [index, mail] of queue.entries()) {
    if (clock() - claimedAt > sendWindowSeconds * 1000) {
      // SMTP is slow today: what is left goes back at once, for this or another process's next round.
      await db.update(mailOutbox).set({ nextAttemptAt: sql`now()` }).where(inArray(mailOutbox.id, queue.slice(index).map((m) => m.id)));
      break;
    }
    try {
      await transport.send(mail);
      await db
        .update(mailOutbox)
        .set({ status: "sent", sentAt: sql`now()`, attempts: mail.attempts + 1, lastError: null, ...forgetBody })
        .where(eq(mailOutbox.id, mail.id));
      sent += 1;
    } catch (error) {
      const attempts = mail.attempts + 1;
      const gaveUp = attempts >= maxAttempts;
      const reason = (error as Error).message.slice(0, 500);
      await db
        .update(mailOutbox)
        .set({
          attempts,
          lastError: reason,
          status: gaveUp ? "failed" : "pending",
          nextAttemptAt: sql`now() + make_interval(secs => ${retryDelaySeconds(attempts)})`,
          // A mail given up on is never sent: its links are of no use to anyone but a reader of the backups.
          ...(gaveUp ? forgetBody : {}),
        })
        .where(eq(mailOutbox.id, mail.id));
      failed += 1;
      options.failed?.({ mailId: mail.id, attempts, gaveUp, retryInSeconds: gaveUp ? null : retryDelaySeconds(attempts), reason });
    }
  }
  return { sent, failed };
}

export interface MailboxEntry extends MailMessage {
  createdAt: Date;
}

/** The development mailbox: mail delivered to the outbox transport, newest first. */
export async function listMailbox(db: Db, to?: string): Promise<MailboxEntry[]> {
  // No mail went to an address with a NUL or a broken Unicode sequence, and PostgreSQL refuses to compare one.
  if (to !== undefined && (to.includes("\u0000") || !to.isWellFormed())) return [];
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
