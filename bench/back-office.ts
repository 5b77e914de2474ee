// The back office on PostgreSQL at scale. Customer search over 100,000 accounts (with 100,000 orders
// and 20,000 websites): p50, p95 and max of each kind of query support staff type, run 200 times each
// after a warm-up, beside a `select 1` round trip on the same database (target p95 ≤ 100 ms). Then
// the GST sales register of a month with 100,000 invoices and 5,000 credit notes, streamed to the
// end in a child process (back-office-export.ts, with the server's Node flags): its time, rows/s,
// bytes and peak resident memory once loaded, beside a child that only loads and opens the database
// and beside one plain select of the same invoices' columns (no CSV).
import { execFileSync } from "node:child_process";
import path from "node:path";
import { and, asc, gt, gte, lt, sql, type SQL } from "drizzle-orm";
import { invoiceColumns } from "../server/commerce/index.ts";
import { fromPostgres, type Db } from "../server/db/client.ts";
import { orders } from "../server/db/schema.ts";
import { monthIn, searchCustomers } from "../server/staff/index.ts";
import type { ExportChildResult } from "./back-office-export.ts";
import { root, serverNodeFlags as nodeFlags, serverStartEnv as startEnv } from "./server.ts";

export interface Latency {
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

export interface SearchRun extends Latency {
  kind: string;
  query: string;
  /** People the search returned. */
  found: number;
}

export interface BackOfficeResult {
  customers: number;
  orders: number;
  websites: number;
  runsPerQuery: number;
  search: SearchRun[];
  selectOne: Latency;
  register: {
    month: string;
    invoices: number;
    creditNotes: number;
    rows: number;
    bytes: number;
    ms: number;
    rowsPerSecond: number;
    /**
     * Peak resident memory after loading, of the process that exported and of one that only opened
     * the database; and the peak while loading the server's modules, before either.
     */
    peakRssMb: number;
    openOnlyRssMb: number;
    loadingPeakRssMb: number;
    /** One select of the invoices' columns, mapped to objects by drizzle as the export reads them. */
    plainSelectMs: number;
  };
}

const customers = 100_000;
const websites = 20_000;
const warmup = 20;
const runs = 200;


const round1 = (value: number) => Math.round(value * 10) / 10;
const mb = (kb: number) => Math.round(kb / 1024);

/** Nearest-rank percentile. */
const percentile = (sorted: number[], p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] as number;

async function latency(work: () => Promise<unknown>): Promise<Latency> {
  for (let i = 0; i < warmup; i++) await work();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await work();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { p50Ms: round1(percentile(samples, 50)), p95Ms: round1(percentile(samples, 95)), maxMs: round1(samples.at(-1) as number) };
}

const rowsOf = async <T>(db: Db, query: SQL) => (await db.execute(query)) as unknown as { rows: T[] };

/**
 * 100,000 accounts named from a few common first and last names (a tenth are Kumar), each with one
 * course order paid in October 2026 in India, a tenth of them by a business with a GSTIN; every
 * fifth account has a website; every twentieth order is refunded in the same month, with its
 * payment and credit note.
 */
async function seed(db: Db) {
  await db.execute(sql`insert into "user" (id, name, email, email_verified, created_at, updated_at)
    select 'bench-' || g, first || ' ' || last, lower(first) || '.' || lower(last) || g || '@example.com', true,
      timestamp '2026-11-01' - g * interval '1 minute', timestamp '2026-11-01' - g * interval '1 minute'
    from generate_series(1, ${customers}) g,
      lateral (select (array['Aarav','Priya','Rohan','Ananya','Vikram','Meera','Arjun','Kavya'])[1 + g % 8] as first,
        (array['Kumar','Sharma','Rao','Iyer','Singh','Patel','Nair','Gupta','Reddy','Das'])[1 + (g / 8) % 10] as last) names`);
  await db.execute(sql`insert into websites (user_id, service_id, domain, plan_id, billing_interval, started_at, expires_at)
    select 'bench-' || (g * 5), 'website-hosting', 'site-' || g || '.example.in', 'starter-yearly', 'year',
      timestamptz '2026-06-01 00:00+05:30', timestamptz '2027-06-01 00:00+05:30'
    from generate_series(1, ${websites}) g`);
  // Paid one every 25 s from 1 October, the last on the 29th; numbered in the order they were paid.
  await db.execute(sql`insert into orders (user_id, kind, course_id, title, currency, amount, taxable_amount, tax_amount, tax_rate_percent, tax_mode, buyer_gstin, provider, idempotency_key, status, created_at, updated_at, paid_at)
    select 'bench-' || g, 'course', 'webdevfrontendcourse', 'Front-End Web Development', 'INR', 699900, 593136, 106764, 18, 'inclusive',
      case when g % 10 = 0 then '29ABCDE1234F1Z5' end, 'sandbox', 'bench-' || g, 'paid', paid - interval '2 minutes', paid, paid
    from generate_series(1, ${customers}) g, lateral (select timestamptz '2026-10-01 00:00+05:30' + g * interval '25 seconds' as paid) moment
    order by g`);
  await db.execute(sql`insert into payments (order_id, user_id, provider_payment_id, amount, currency, status, method, amount_refunded, created_at, updated_at)
    select id, user_id, 'pay_bench_' || number, amount, 'INR', case when number % 20 = 0 then 'refunded' else 'captured' end, 'upi',
      case when number % 20 = 0 then amount else 0 end, paid_at, paid_at
    from orders`);
  await db.execute(sql`update orders set status = 'refunded', refunded_at = paid_at + interval '1 day' where number % 20 = 0`);
  await db.execute(sql`insert into refunds (order_id, payment_id, user_id, amount, taxable_amount, tax_amount, currency, status, created_at, processed_at, credit_note_number)
    select id, payment_id, user_id, amount, taxable_amount, tax_amount, 'INR', 'processed', refunded_at, refunded_at, nextval('credit_note_numbers')
    from (select o.id, p.id as payment_id, o.user_id, o.amount, o.taxable_amount, o.tax_amount, o.refunded_at from orders o join payments p on p.order_id = o.id
      where o.status = 'refunded' order by o.refunded_at) refunded`);
  await db.execute(sql`analyze`);
}

/** The customer searches, then the register export in child processes; `databaseUrl` names an empty database. */
export async function backOfficeBench(databaseUrl: string): Promise<BackOfficeResult> {
  const database = fromPostgres(databaseUrl);
  try {
    await database.migrate();
    const { db } = database;
    await seed(db);
    const email = (await rowsOf<{ email: string }>(db, sql`select email from "user" where id = 'bench-4242'`)).rows[0]?.email ?? "";
    const queries = [
      { kind: "full e-mail", query: email },
      { kind: "part of a name", query: "kumar" },
      { kind: "order number", query: "ACD-000042" },
      { kind: "domain", query: "site-123.example.in" },
      { kind: "no match", query: "zzqx-nobody" },
    ];
    const search: SearchRun[] = [];
    for (const { kind, query } of queries) {
      const found = (await searchCustomers(db, query)).length;
      search.push({ kind, query, found, ...(await latency(() => searchCustomers(db, query))) });
    }
    const selectOne = await latency(() => db.execute(sql`select 1`));

    const period = monthIn("2026-10", new Date("2026-11-15T06:00:00Z"));
    const counts = (
      await rowsOf<{ invoices: number; credit_notes: number }>(
        db,
        sql`select (select count(*) from orders where paid_at >= ${period.from} and paid_at < ${period.to})::int as invoices,
          (select count(*) from refunds where status = 'processed' and processed_at >= ${period.from} and processed_at < ${period.to})::int as credit_notes`,
      )
    ).rows[0];
    const plainStarted = performance.now();
    await db
      .select(invoiceColumns)
      .from(orders)
      .where(and(gte(orders.paidAt, period.from), lt(orders.paidAt, period.to), gt(orders.amount, 0)))
      .orderBy(asc(orders.number));
    const plainSelectMs = Math.round(performance.now() - plainStarted);

    const child = (mode: "export" | "open") =>
      JSON.parse(
        execFileSync(process.execPath, [...nodeFlags, path.join(root, "bench/back-office-export.ts"), databaseUrl, mode], {
          cwd: root,
          env: { ...process.env, ...startEnv },
          encoding: "utf8",
          stdio: ["ignore", "pipe", "inherit"],
        }),
      ) as ExportChildResult;
    const openOnly = child("open");
    const exported = child("export");
    const ms = exported.ms ?? 0;
    const rows = exported.rows ?? 0;
    return {
      customers,
      orders: customers,
      websites,
      runsPerQuery: runs,
      search,
      selectOne,
      register: {
        month: period.month,
        invoices: counts?.invoices ?? 0,
        creditNotes: counts?.credit_notes ?? 0,
        rows,
        bytes: exported.bytes ?? 0,
        ms,
        rowsPerSecond: ms > 0 ? Math.round((rows / ms) * 1000) : 0,
        peakRssMb: mb(exported.maxRssKb),
        openOnlyRssMb: mb(openOnly.maxRssKb),
        loadingPeakRssMb: mb(exported.loadingMaxRssKb),
        plainSelectMs,
      },
    };
  } finally {
    await database.close();
  }
}

export function printBackOffice(r: BackOfficeResult) {
  console.log(
    `\nBack office on PostgreSQL: customer search over ${r.customers.toLocaleString("en")} accounts (${r.orders.toLocaleString("en")} orders, ${r.websites.toLocaleString("en")} websites), ${r.runsPerQuery} runs each`,
  );
  for (const s of r.search) {
    console.log(
      `  ${s.kind.padEnd(15)}${`“${s.query}”`.padEnd(32)}${`${s.found} found`.padEnd(10)}p50 ${s.p50Ms} ms · p95 ${s.p95Ms} ms (target ≤ 100 ms) · max ${s.maxMs} ms`,
    );
  }
  console.log(`  reference: select 1 round trip p50 ${r.selectOne.p50Ms} ms · p95 ${r.selectOne.p95Ms} ms · max ${r.selectOne.maxMs} ms`);
  const g = r.register;
  console.log(`GST sales register for ${g.month}: ${g.invoices.toLocaleString("en")} invoices and ${g.creditNotes.toLocaleString("en")} credit notes, streamed in a child process`);
  console.log(`  ${g.rows.toLocaleString("en")} rows, ${(g.bytes / 1024 / 1024).toFixed(1)} MB in ${g.ms} ms (${g.rowsPerSecond.toLocaleString("en")} rows/s)`);
  console.log(`  reference: one plain select of the invoices' columns ${g.plainSelectMs} ms`);
  console.log(`  peak RSS ${g.peakRssMb} MB, of which ${g.peakRssMb - g.openOnlyRssMb} MB above a process that only opened the database (${g.openOnlyRssMb} MB)`);
  console.log(`  (peaks after loading: loading the server's modules and the catalogue peaked at ${g.loadingPeakRssMb} MB before the export)`);
}
