// The renewal-reminder job over 100,000 websites on PostgreSQL: the time of a run that queues the
// due reminders, of a second run at the same moment (which must send nothing), and of two workers
// racing, with a check that every due website got exactly one reminder and one mail.
import { sql } from "drizzle-orm";
import { loadCatalog } from "../server/catalog/index.ts";
import { fromPostgres } from "../server/db/client.ts";
import { queueDueReminders } from "../server/websites/index.ts";
import path from "node:path";
import { root } from "./server.ts";

export interface RemindersResult {
  websites: number;
  due: number;
  firstRunMs: number;
  repeatRunMs: number;
  racingRunMs: number;
  sent: { first: number; repeat: number; racing: number };
  exactlyOnce: boolean;
}

const count = 100_000;
const day = 86_400_000;

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: Math.round(performance.now() - started) };
}

export async function remindersBench(databaseUrl: string): Promise<RemindersResult> {
  const database = fromPostgres(databaseUrl);
  try {
    await database.migrate();
    const { db } = database;
    const catalog = await loadCatalog(path.join(root, "content"));
    const now = new Date("2027-03-01T06:00:00Z");
    // 1,000 customers with 100 websites each, expiring one every few minutes across ±200 days of `now`,
    // each paid a year before its expiry; a tenth cancelled.
    await db.execute(sql`insert into "user" (id, name, email, email_verified, created_at, updated_at)
      select 'bench-' || g, 'Customer ' || g, 'customer-' || g || '@example.com', true, now(), now() from generate_series(1, 1000) g`);
    await db.execute(sql`insert into websites (user_id, service_id, domain, plan_id, billing_interval, started_at, expires_at, cancelled_at, cancelled_by)
      select 'bench-' || (1 + g % 1000), 'website-hosting', 'site-' || g || '.example.in', 'starter-yearly', 'year',
        ${now}::timestamptz + ((g * 345.6) || ' seconds')::interval - interval '200 days' - interval '1 year',
        ${now}::timestamptz + ((g * 345.6) || ' seconds')::interval - interval '200 days',
        case when g % 10 = 0 then ${now}::timestamptz - interval '300 days' end,
        case when g % 10 = 0 then 'owner' end
      from generate_series(1, ${count}) g`);
    await db.execute(sql`insert into orders (user_id, kind, website_id, plan_id, title, currency, amount, taxable_amount, tax_amount, tax_rate_percent, tax_mode, provider, idempotency_key, status)
      select user_id, 'website', id, plan_id, 'Starter (Yearly) hosting for ' || domain, 'INR', 1499000, 1270339, 228661, 18, 'inclusive', 'sandbox', 'bench-' || id, 'paid' from websites`);
    await db.execute(sql`insert into website_periods (website_id, order_id, plan_id, starts_at, ends_at, created_at)
      select w.id, o.id, w.plan_id, w.started_at, w.expires_at, w.started_at from websites w join orders o on o.website_id = w.id`);
    await db.execute(sql`analyze`);
    const due = Number(
      (
        (await db.execute(
          sql`select count(*)::int as n from websites where cancelled_at is null and expires_at <= ${new Date(now.getTime() + 30 * day)} and expires_at > ${new Date(now.getTime() - 16 * day)}`,
        )) as unknown as { rows: { n: number }[] }
      ).rows[0]?.n ?? 0,
    );
    const options = { site: catalog.site, publicUrl: "https://academy.example", now };
    const first = await timed(() => queueDueReminders(db, options));
    const repeat = await timed(() => queueDueReminders(db, options));
    // A day later, two workers at once: each website's next reminder, if one came due, is sent once.
    const later = { ...options, now: new Date(now.getTime() + day) };
    const racing = await timed(() => Promise.all([queueDueReminders(db, later), queueDueReminders(db, later)]));
    const check = (
      (await db.execute(sql`select
          (select count(*) from website_reminders)::int as reminders,
          (select count(*) from mail_outbox where subject like 'site-%')::int as mails,
          (select count(*) from (select website_id, expires_at from website_reminders group by website_id, expires_at, kind having count(*) > 1) d)::int as doubled`)) as unknown as {
        rows: { reminders: number; mails: number; doubled: number }[];
      }
    ).rows[0];
    const sent = { first: first.value.sent, repeat: repeat.value.sent, racing: racing.value[0].sent + racing.value[1].sent };
    return {
      websites: count,
      due,
      firstRunMs: first.ms,
      repeatRunMs: repeat.ms,
      racingRunMs: racing.ms,
      sent,
      exactlyOnce: sent.repeat === 0 && check !== undefined && check.doubled === 0 && check.reminders === check.mails && check.reminders === sent.first + sent.racing,
    };
  } finally {
    await database.close();
  }
}

export function printReminders(r: RemindersResult) {
  console.log(`\nRenewal reminders over ${r.websites.toLocaleString("en")} websites on PostgreSQL (${r.due.toLocaleString("en")} within the reminder window)`);
  console.log(`  first run   ${r.firstRunMs} ms, ${r.sent.first} reminders queued`);
  console.log(`  same moment ${r.repeatRunMs} ms, ${r.sent.repeat} queued (target 0)`);
  console.log(`  a day later, two workers at once ${r.racingRunMs} ms, ${r.sent.racing} queued`);
  console.log(`  every reminder once, each with its mail: ${r.exactlyOnce ? "yes" : "NO"}`);
}
