import { eq } from "drizzle-orm";
import type { Catalog, Site } from "../catalog/index.ts";
import type { Db, Tx } from "../db/client.ts";
import { enrolments, user } from "../db/schema.ts";
import { enqueueMail, type MailMessage } from "../mail/outbox.ts";
import type { Logger } from "../logger.ts";
import type { PaymentProvider } from "../payments/provider.ts";

/** What the commerce functions work with; one per process, shared by pages, API and workers. */
export interface Shop {
  db: Db;
  provider: PaymentProvider;
  catalog: () => Catalog;
  publicUrl: string;
  logger: Logger;
  /** Wakes the mail worker once a transaction that queued mail has committed. */
  mailQueued: () => void;
  now: () => Date;
}

export type { Tx };

/** Where a buyer starts learning a course they own: the course home of the player. */
export function coursePlayerPath(courseId: string): string {
  return `/courses/${courseId}/MainPage`;
}

/**
 * Queues a mail to the buyer inside the caller's transaction, so it goes out only if the change
 * commits. A buyer who deleted their account (no user id) gets no mail.
 */
export async function mailBuyer(
  tx: Tx,
  shop: Shop,
  userId: string | null,
  letter: (site: Site, to: { email: string; name: string }) => MailMessage,
): Promise<void> {
  if (!userId) return;
  const [to] = await tx.select({ email: user.email, name: user.name }).from(user).where(eq(user.id, userId));
  if (to) await enqueueMail(tx, letter(shop.catalog().site, to));
}

/** Gives the buyer access to the course for this order; access revoked by an earlier refund comes back. */
export async function grantAccess(tx: Tx, order: { id: string; userId: string; courseId: string }, now: Date): Promise<void> {
  await tx
    .insert(enrolments)
    .values({ userId: order.userId, courseId: order.courseId, orderId: order.id })
    .onConflictDoUpdate({
      target: [enrolments.userId, enrolments.courseId],
      set: { status: "active", orderId: order.id, revokedAt: null, createdAt: now },
    });
}
