import { and, eq, lt } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { cliLoginRequests, deviceCode, mailOutbox, rateLimit, session, throttles, verification } from "../db/schema.ts";
import { purgeDeletedNotes } from "../notes/index.ts";
import { expireUnpaidWebsites } from "../websites/index.ts";

/** Copies of sent mail are kept this long (the privacy policy says so), then deleted. */
export const sentMailRetentionDays = 90;

const day = 86_400_000;

/**
 * Expired links and codes are kept a day past their end, so someone who follows a stale one is
 * told it expired rather than that it never existed; counters outlive their longest window (an hour).
 */
const graceMs = day;

export interface CleanUpCounts {
  sessions: number;
  verifications: number;
  deviceCodes: number;
  cliLoginRequests: number;
  rateLimits: number;
  throttles: number;
  sentMail: number;
  deletedNotes: number;
  unpaidWebsites: number;
}

const count = (rows: unknown[]) => rows.length;

/**
 * Removes what has run its course: expired sessions, verification tokens and CLI codes, rate-limit
 * counters whose windows are long over, sent mail past its retention, notes deleted more than
 * a day ago, and websites left unpaid for a week (with their orders still waiting for payment). Each is one statement over rows nobody can use any more, so running it twice, or in
 * two processes at once, removes nothing else.
 */
export async function cleanUp(db: Db, now: Date): Promise<CleanUpCounts> {
  const stale = new Date(now.getTime() - graceMs);
  return {
    sessions: count(await db.delete(session).where(lt(session.expiresAt, now)).returning({ id: session.id })),
    verifications: count(await db.delete(verification).where(lt(verification.expiresAt, stale)).returning({ id: verification.id })),
    deviceCodes: count(await db.delete(deviceCode).where(lt(deviceCode.expiresAt, stale)).returning({ id: deviceCode.id })),
    cliLoginRequests: count(await db.delete(cliLoginRequests).where(lt(cliLoginRequests.createdAt, stale)).returning({ code: cliLoginRequests.userCode })),
    rateLimits: count(await db.delete(rateLimit).where(lt(rateLimit.lastRequest, stale.getTime())).returning({ id: rateLimit.id })),
    throttles: count(await db.delete(throttles).where(lt(throttles.windowStartedAt, stale)).returning({ key: throttles.key })),
    sentMail: count(
      await db
        .delete(mailOutbox)
        .where(and(eq(mailOutbox.status, "sent"), lt(mailOutbox.sentAt, new Date(now.getTime() - sentMailRetentionDays * day))))
        .returning({ id: mailOutbox.id }),
    ),
    deletedNotes: await purgeDeletedNotes(db, now),
    unpaidWebsites: await expireUnpaidWebsites(db, now),
  };
}
