import { and, eq, gt, isNotNull, isNull, lte, sql } from "drizzle-orm";
// Formatting is shared with the pages; the module is plain functions with no browser dependency.
import { formatDay } from "../../common/format.ts";
import type { Site } from "../catalog/index.ts";
import type { Db } from "../db/client.ts";
import { type ReminderKind, user, websitePeriods, websiteReminders, websites } from "../db/schema.ts";
import { enqueueMail, type MailMessage } from "../mail/outbox.ts";
import { renewalReminderMail } from "../mail/templates.ts";
import { type BillingInterval, expiringWithinDays, graceDays, suspensionDate } from "./rules.ts";

const day = 86_400_000;

type Schedule = { kind: ReminderKind; offsetDays: number }[];

/**
 * Each reminder and when it is due, relative to the expiry; the latest due one is the one sent. A
 * site paid by the month has no 30-day reminder: it would arrive the day after paying.
 */
const schedules: Record<BillingInterval, Schedule> = {
  year: [
    { kind: "30-days", offsetDays: -expiringWithinDays("year") },
    { kind: "7-days", offsetDays: -7 },
    { kind: "1-day", offsetDays: -1 },
    { kind: "expiry-day", offsetDays: 0 },
    { kind: "suspended", offsetDays: graceDays },
  ],
  month: [
    { kind: "7-days", offsetDays: -expiringWithinDays("month") },
    { kind: "1-day", offsetDays: -1 },
    { kind: "expiry-day", offsetDays: 0 },
    { kind: "suspended", offsetDays: graceDays },
  ],
};

/** The reminder due at `now` for a site expiring at `expiresAt`, if any: the latest whose moment has come. */
export function dueReminder(expiresAt: Date, interval: BillingInterval, now: Date): { kind: ReminderKind; dueAt: Date } | null {
  let due: { kind: ReminderKind; dueAt: Date } | null = null;
  for (const step of schedules[interval]) {
    const dueAt = new Date(expiresAt.getTime() + step.offsetDays * day);
    if (dueAt <= now) due = { kind: step.kind, dueAt };
  }
  return due;
}

/** dueReminder's kind, worked out by the database from the same schedules. */
function dueKindSql(now: Date) {
  const latestDue = (schedule: Schedule) =>
    sql.join(
      schedule.toReversed().map((step) => sql`when ${now.toISOString()}::timestamptz >= ${websites.expiresAt} + ${step.offsetDays} * interval '1 day' then ${step.kind}`),
      sql` `,
    );
  return sql`(case when ${websites.billingInterval} = 'month' then (case ${latestDue(schedules.month)} end) else (case ${latestDue(schedules.year)} end) end)`;
}

/**
 * A reminder's subject (after the domain) and its opening sentence. Nothing renews by itself, so each
 * says when the hosting expires (or did) and what renewing keeps.
 */
function reminderText(kind: ReminderKind, domain: string, expiresAt: Date): { headline: string; opening: string } {
  const on = formatDay(expiresAt);
  switch (kind) {
    case "30-days":
      return { headline: `expires on ${on} — renew to keep it online`, opening: `The hosting of ${domain} expires on ${on}. Nothing renews by itself: renew it to keep the website online.` };
    case "7-days":
      return { headline: `expires in 7 days, on ${on}`, opening: `The hosting of ${domain} expires in 7 days, on ${on}. Renew before then to keep the website online without a break.` };
    case "1-day":
      return { headline: `expires tomorrow, on ${on}`, opening: `The hosting of ${domain} expires tomorrow, on ${on}. Renew today to keep the website online.` };
    case "expiry-day":
      return {
        headline: "hosting has expired",
        opening: `The hosting of ${domain} expired on ${on}. The website stays online for ${graceDays} more days; it is suspended on ${formatDay(suspensionDate(expiresAt))} unless you renew.`,
      };
    case "suspended":
      return { headline: "website suspended", opening: `${domain} is offline: its hosting was not renewed after it expired on ${on}. Renew it to bring it back.` };
  }
}

/** The reminder `kind` for a website, to its owner: when it expires (or did) and a link to renew it. */
export function reminderMail(
  site: Site,
  publicUrl: string,
  to: { email: string; name: string },
  website: { kind: ReminderKind; id: string; domain: string; expiresAt: Date },
): MailMessage {
  return renewalReminderMail(site, to, {
    domain: website.domain,
    ...reminderText(website.kind, website.domain, website.expiresAt),
    renewUrl: `${publicUrl}/account/services/websites/${website.id}/renew`,
  });
}

export interface ReminderRun {
  sent: number;
  /** Websites looked at in this run. */
  examined: number;
}

/**
 * Queues the renewal reminders due at `now`, at most `batch` websites per transaction until none
 * is left. Each website is claimed with FOR UPDATE SKIP LOCKED, so processes running this at once
 * share the work; the reminder row and its mail are written in one transaction (the outbox), so a
 * reminder is sent once even when a process dies between the two. A reminder whose moment came
 * before the site's latest payment is skipped (renewed in the meantime, or bought with less time
 * to run); a cancelled site gets none.
 */
export async function queueDueReminders(
  db: Db,
  options: { site: Site; publicUrl: string; now: Date; batch?: number },
): Promise<ReminderRun> {
  const { now, batch = 500 } = options;
  // Only sites whose latest reminder moment may have come and whose last one (suspension) is not long past.
  const from = new Date(now.getTime() - (graceDays + 1) * day);
  const until = new Date(now.getTime() + expiringWithinDays("year") * day);
  const run: ReminderRun = { sent: 0, examined: 0 };
  let after = "00000000-0000-0000-0000-000000000000";
  for (;;) {
    const page = await db.transaction(async (tx) => {
      const candidates = await tx
        .select({
          id: websites.id,
          domain: websites.domain,
          expiresAt: websites.expiresAt,
          billingInterval: websites.billingInterval,
          email: user.email,
          name: user.name,
          lastPaidAt: sql<Date>`(select max(${websitePeriods.createdAt}) from ${websitePeriods} where ${websitePeriods.websiteId} = ${websites.id})`.mapWith(
            (value: string | Date) => new Date(value),
          ),
        })
        .from(websites)
        .innerJoin(user, eq(user.id, websites.userId))
        .where(
          and(
            isNull(websites.cancelledAt),
            isNotNull(websites.expiresAt),
            gt(websites.expiresAt, from),
            lte(websites.expiresAt, until),
            gt(websites.id, after),
            // Not the sites whose latest due reminder is already sent: a run every few minutes stays cheap.
            sql`not exists (select 1 from ${websiteReminders} where ${websiteReminders.websiteId} = ${websites.id}
              and ${websiteReminders.expiresAt} = ${websites.expiresAt} and ${websiteReminders.kind} = ${dueKindSql(now)})`,
          ),
        )
        .orderBy(websites.id)
        .limit(batch)
        .for("update", { of: websites, skipLocked: true });
      let sent = 0;
      for (const site of candidates) {
        if (!site.expiresAt) continue;
        const due = dueReminder(site.expiresAt, site.billingInterval, now);
        if (!due || due.dueAt < site.lastPaidAt) continue;
        const [claimed] = await tx
          .insert(websiteReminders)
          .values({ websiteId: site.id, kind: due.kind, expiresAt: site.expiresAt, sentAt: now })
          .onConflictDoNothing()
          .returning();
        if (!claimed) continue;
        await enqueueMail(tx, reminderMail(options.site, options.publicUrl, site, { kind: due.kind, id: site.id, domain: site.domain, expiresAt: site.expiresAt }));
        sent++;
      }
      return { sent, examined: candidates.length, last: candidates.at(-1)?.id };
    });
    run.sent += page.sent;
    run.examined += page.examined;
    if (!page.last || page.examined < batch) return run;
    after = page.last;
  }
}
