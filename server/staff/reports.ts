import { and, asc, eq, gte, lt, sql } from "drizzle-orm";
import { formatOrderNumber, indiaDayStart } from "../../common/format.ts";
import type { Site } from "../catalog/index.ts";
import { gstRegister, gstRegisterColumns, registerBatchSize } from "../commerce/index.ts";
import type { Db } from "../db/client.ts";
import { orders, payments } from "../db/schema.ts";
import { ValidationError } from "../errors.ts";
import { recordAudit, type Actor } from "./audit.ts";

/** A calendar month in India, "2026-11": when it starts and when the next one does. */
export function monthIn(value: string, now: Date): { month: string; from: Date; to: Date } {
  const match = /^(\d{4})-(\d{2})$/.exec(value.trim());
  const from = match ? indiaDayStart(`${match[1]}-${match[2]}-01`) : null;
  if (!match || !from) throw new ValidationError(`Choose a month as YYYY-MM, such as 2026-11; “${value.slice(0, 20)}” is not one.`);
  const [year, month] = [Number(match[1]), Number(match[2])];
  const next = month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, "0")}-01`;
  if (from > now) throw new ValidationError(`${value} has not begun yet: there is nothing to report.`);
  return { month: `${match[1]}-${match[2]}`, from, to: indiaDayStart(next) as Date };
}

/** An amount in paise, for a cell. */
type Paise = { paise: number };
const rupees = (paise: number): Paise => ({ paise });

/** Paise as rupees with two decimals and no separators, as spreadsheets read them: -5931.36. */
const rupeeText = ({ paise }: Paise) => `${paise < 0 ? "-" : ""}${Math.floor(Math.abs(paise) / 100)}.${String(Math.abs(paise) % 100).padStart(2, "0")}`;

/**
 * One CSV cell (RFC 4180). Text a spreadsheet would run as a formula (a name typed as "=HYPERLINK(…)")
 * is kept as text with a leading apostrophe; numbers and amounts are written as they are.
 */
function cell(value: string | number | Paise | null): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  if (typeof value === "object") return rupeeText(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const line = (cells: (string | number | Paise | null)[]) => `${cells.map(cell).join(",")}\r\n`;

/** Lines of text as a byte stream, pulled one at a time so a slow download holds back the database reads. */
function streamOf(lines: AsyncIterable<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = lines[Symbol.asyncIterator]();
  return new ReadableStream({
    async pull(controller) {
      // Send a few hundred lines per chunk rather than one per write.
      let chunk = "";
      while (chunk.length < 64 * 1024) {
        const next = await iterator.next();
        if (next.done) {
          if (chunk) controller.enqueue(encoder.encode(chunk));
          controller.close();
          return;
        }
        chunk += next.value;
      }
      controller.enqueue(encoder.encode(chunk));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

export interface Export {
  filename: string;
  body: ReadableStream<Uint8Array>;
}

/** The month's GST sales register as CSV, streamed; writing that it was made to the audit log. */
export async function gstRegisterCsv(deps: { db: Db; site: Site; batchSize?: number }, actor: Actor, month: string, now = new Date()): Promise<Export> {
  const period = monthIn(month, now);
  await recordAudit(deps.db, actor, { action: "report.gst-register", subject: { kind: "report", id: period.month } });
  async function* lines() {
    yield line(gstRegisterColumns.map((column) => column.label));
    for await (const row of gstRegister(deps.db, deps.site, period, deps.batchSize)) {
      yield line(gstRegisterColumns.map(({ key, money }) => (money ? rupees(row[key] as number) : row[key])));
    }
  }
  return { filename: `gst-sales-register-${period.month}.csv`, body: streamOf(lines()) };
}

// Microseconds since 1970, exact where a JavaScript Date would round, to page by (time, id).
const paymentMicros = sql<string>`(extract(epoch from ${payments.createdAt}) * 1000000)::bigint`;

/** A page of the month's payments, oldest first, after the payment `after` names. */
function paymentBatch(db: Db, period: { from: Date; to: Date }, after: { micros: string; id: string } | null, size: number) {
  return db
    .select({
      micros: paymentMicros,
      id: payments.id,
      createdAt: payments.createdAt,
      providerPaymentId: payments.providerPaymentId,
      number: orders.number,
      method: payments.method,
      status: payments.status,
      amount: payments.amount,
      amountRefunded: payments.amountRefunded,
      currency: payments.currency,
      failureReason: payments.failureReason,
    })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .where(
      and(
        gte(payments.createdAt, period.from),
        lt(payments.createdAt, period.to),
        after ? sql`(${paymentMicros}, ${payments.id}) > (${after.micros}::bigint, ${after.id}::uuid)` : undefined,
      ),
    )
    .orderBy(asc(paymentMicros), asc(payments.id))
    .limit(size);
}
type PaymentRow = Awaited<ReturnType<typeof paymentBatch>>[number];

/** The payments export's columns: the heading, and the cell of a payment. */
const paymentColumns: { label: string; cell: (payment: PaymentRow) => string | number | Paise | null }[] = [
  { label: "Date", cell: (payment) => payment.createdAt.toISOString() },
  { label: "Payment id", cell: (payment) => payment.providerPaymentId },
  { label: "Order number", cell: (payment) => formatOrderNumber(payment.number) },
  { label: "Method", cell: (payment) => payment.method },
  { label: "Status", cell: (payment) => payment.status },
  { label: "Amount", cell: (payment) => rupees(payment.amount) },
  { label: "Refunded", cell: (payment) => rupees(payment.amountRefunded) },
  { label: "Currency", cell: (payment) => payment.currency },
  { label: "Failure", cell: (payment) => payment.failureReason },
];

/** The month's payments as the provider reported them, as CSV, streamed: no names or e-mails, only order numbers. */
export async function paymentsCsv(deps: { db: Db; batchSize?: number }, actor: Actor, month: string, now = new Date()): Promise<Export> {
  const batchSize = deps.batchSize ?? registerBatchSize;
  const period = monthIn(month, now);
  await recordAudit(deps.db, actor, { action: "report.payments", subject: { kind: "report", id: period.month } });
  async function* lines() {
    yield line(paymentColumns.map((column) => column.label));
    let after: { micros: string; id: string } | null = null;
    for (;;) {
      const batch = await paymentBatch(deps.db, period, after, batchSize);
      for (const payment of batch) yield line(paymentColumns.map((column) => column.cell(payment)));
      const last = batch.at(-1);
      if (batch.length < batchSize || !last) break;
      after = { micros: last.micros, id: last.id };
    }
  }
  return { filename: `payments-${period.month}.csv`, body: streamOf(lines()) };
}
