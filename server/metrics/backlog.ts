import { inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { mailOutbox, sandboxWebhooks, scheduledJobs } from "../db/schema.ts";

export interface Backlog {
  mailPending: number;
  mailFailed: number;
  /** Age of the oldest mail still to be sent; 0 when none is. */
  mailOldestPendingSeconds: number;
  /** Sandbox webhooks not yet delivered; null when the sandbox is not the payment provider. */
  webhooksPending: number | null;
  /** Each scheduled job: how long it has been due without a run finishing (0 when not due), and whether its last run failed. */
  jobs: { name: string; overdueSeconds: number; lastRunFailed: boolean }[];
}

/**
 * The work waiting in the database, counted on the indexes the workers use. Bounded in time at
 * both ends: the server cancels the statements after `timeoutMs`, and the caller stops waiting
 * then too, also when no pooled connection is free to ask with.
 */
export function readBacklog(db: Db, options: { webhooks: boolean; timeoutMs: number }): Promise<Backlog> {
  const read = db.transaction(async (tx) => {
    await tx.execute(sql.raw(`set local statement_timeout = ${Math.round(options.timeoutMs)}`));
    const [mail] = await tx
      .select({
        pending: sql<number>`(count(*) filter (where ${mailOutbox.status} = 'pending'))::int`,
        failed: sql<number>`(count(*) filter (where ${mailOutbox.status} = 'failed'))::int`,
        oldestPendingSeconds: sql<number>`coalesce(extract(epoch from now() - min(${mailOutbox.createdAt}) filter (where ${mailOutbox.status} = 'pending')), 0)::float8`,
      })
      .from(mailOutbox)
      .where(inArray(mailOutbox.status, ["pending", "failed"]));
    const webhooks = options.webhooks
      ? (await tx.select({ pending: sql<number>`count(*)::int` }).from(sandboxWebhooks).where(isNull(sandboxWebhooks.deliveredAt)))[0]
      : undefined;
    const jobs = await tx
      .select({
        name: scheduledJobs.name,
        overdueSeconds: sql<number>`greatest(extract(epoch from now() - ${scheduledJobs.nextRunAt}), 0)::float8`,
        lastRunFailed: sql<boolean>`${scheduledJobs.lastError} is not null`,
      })
      .from(scheduledJobs);
    return {
      jobs,
      mailPending: mail?.pending ?? 0,
      mailFailed: mail?.failed ?? 0,
      mailOldestPendingSeconds: mail?.oldestPendingSeconds ?? 0,
      webhooksPending: webhooks ? webhooks.pending : null,
    };
  });
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`The backlog counts took longer than ${options.timeoutMs} ms to read.`)), options.timeoutMs);
  });
  // A read that loses the race still finishes (or is cancelled) on its own; its outcome is no longer wanted.
  read.catch(() => {});
  return Promise.race([read, late]).finally(() => clearTimeout(timer));
}
