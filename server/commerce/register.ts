import { and, asc, eq, gt, gte, lt } from "drizzle-orm";
import { formatCreditNoteNumber, formatOrderNumber } from "../../common/format.ts";
import type { Site } from "../catalog/index.ts";
import type { Db } from "../db/client.ts";
import { orders, refunds } from "../db/schema.ts";
import { gstinState, placeOfSupply, taxSplit } from "./pricing.ts";

/** One document in the GST sales register: a tax invoice, or a credit note as negative amounts. */
export interface RegisterRow {
  documentType: "Invoice" | "Credit note";
  documentNumber: string;
  /** The day it was issued in India, YYYY-MM-DD. */
  documentDate: string;
  /** For a credit note: the invoice it corrects, and that invoice's date. */
  originalInvoice: string | null;
  originalInvoiceDate: string | null;
  supplyType: "B2B" | "B2C";
  buyerGstin: string | null;
  /** For B2B only: a business's name is on the return; a consumer's is not needed and not exported. */
  buyerName: string | null;
  buyerState: string | null;
  placeOfSupply: string;
  description: string;
  ratePercent: number;
  /** In paise; negative on a credit note. */
  taxable: number;
  cgst: number;
  sgst: number;
  igst: number;
  total: number;
}

/** The register's columns, in the order an accountant's GSTR-1 working sheet has them. */
export const gstRegisterColumns: { key: keyof RegisterRow; label: string; money?: true }[] = [
  { key: "documentType", label: "Document type" },
  { key: "documentNumber", label: "Document number" },
  { key: "documentDate", label: "Document date" },
  { key: "originalInvoice", label: "Original invoice" },
  { key: "originalInvoiceDate", label: "Original invoice date" },
  { key: "supplyType", label: "Supply type" },
  { key: "buyerGstin", label: "Buyer GSTIN" },
  { key: "buyerName", label: "Buyer name" },
  { key: "buyerState", label: "Buyer state" },
  { key: "placeOfSupply", label: "Place of supply" },
  { key: "description", label: "Description" },
  { key: "ratePercent", label: "GST rate %" },
  { key: "taxable", label: "Taxable value", money: true },
  { key: "cgst", label: "CGST", money: true },
  { key: "sgst", label: "SGST", money: true },
  { key: "igst", label: "IGST", money: true },
  { key: "total", label: "Total", money: true },
];

/** Rows read from the database at a time: a year of orders never sits in memory at once. */
export const registerBatchSize = 1000;

const indiaDate = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Kolkata", year: "numeric", month: "2-digit", day: "2-digit" });
const isoDay = (moment: Date) => indiaDate.format(moment);

/** What an invoice row is made of: the order as it was paid. */
export const invoiceColumns = {
  number: orders.number,
  paidAt: orders.paidAt,
  title: orders.title,
  amount: orders.amount,
  taxableAmount: orders.taxableAmount,
  taxAmount: orders.taxAmount,
  taxRatePercent: orders.taxRatePercent,
  buyerGstin: orders.buyerGstin,
  billingName: orders.billingName,
};
type InvoiceFacts = Pick<typeof orders.$inferSelect, keyof typeof invoiceColumns>;

/**
 * The row of an invoice, or of a credit note against it (`sign` −1), whose amounts are the refund's
 * own: the whole invoice's, or for part of the order its share (refundSplit).
 */
function documentRow(site: Site, order: InvoiceFacts, sign: 1 | -1): Omit<RegisterRow, "documentType" | "documentNumber" | "documentDate" | "originalInvoice" | "originalInvoiceDate"> {
  const { cgst, sgst, igst } = taxSplit(order.taxAmount, site.gstin, order.buyerGstin);
  const b2b = order.buyerGstin !== null;
  return {
    supplyType: b2b ? "B2B" : "B2C",
    buyerGstin: order.buyerGstin,
    buyerName: b2b ? order.billingName : null,
    buyerState: order.buyerGstin ? gstinState(order.buyerGstin) : null,
    placeOfSupply: placeOfSupply(site, order.buyerGstin),
    description: order.title,
    ratePercent: order.taxRatePercent,
    taxable: sign * order.taxableAmount,
    cgst: sign * cgst,
    sgst: sign * sgst,
    igst: sign * igst,
    total: sign * order.amount,
  };
}

/**
 * The month's GST sales register: every tax invoice issued (an order paid, for money) from `from`
 * until `to`, by number, then every credit note issued (a refund processed) in the same time, by
 * number, as negative rows. The amounts are the invoices' own, so the register matches them to the
 * paisa. Read in batches, for streaming.
 */
export async function* gstRegister(db: Db, site: Site, period: { from: Date; to: Date }, batchSize = registerBatchSize): AsyncGenerator<RegisterRow> {
  for (let after = 0; ; ) {
    const batch = await db
      .select(invoiceColumns)
      .from(orders)
      .where(and(gte(orders.paidAt, period.from), lt(orders.paidAt, period.to), gt(orders.amount, 0), gt(orders.number, after)))
      .orderBy(asc(orders.number))
      .limit(batchSize);
    for (const order of batch) {
      yield {
        documentType: "Invoice",
        documentNumber: formatOrderNumber(order.number),
        documentDate: isoDay(order.paidAt as Date),
        originalInvoice: null,
        originalInvoiceDate: null,
        ...documentRow(site, order, 1),
      };
    }
    if (batch.length < batchSize) break;
    after = batch.at(-1)?.number ?? after;
  }
  for (let after = 0; ; ) {
    const batch = await db
      .select({
        ...invoiceColumns,
        amount: refunds.amount,
        taxableAmount: refunds.taxableAmount,
        taxAmount: refunds.taxAmount,
        creditNoteNumber: refunds.creditNoteNumber,
        processedAt: refunds.processedAt,
      })
      .from(refunds)
      .innerJoin(orders, eq(orders.id, refunds.orderId))
      .where(and(eq(refunds.status, "processed"), gte(refunds.processedAt, period.from), lt(refunds.processedAt, period.to), gt(refunds.creditNoteNumber, after)))
      .orderBy(asc(refunds.creditNoteNumber))
      .limit(batchSize);
    for (const { creditNoteNumber, processedAt, ...order } of batch) {
      yield {
        documentType: "Credit note",
        documentNumber: formatCreditNoteNumber(creditNoteNumber ?? 0),
        documentDate: isoDay(processedAt as Date),
        originalInvoice: formatOrderNumber(order.number),
        originalInvoiceDate: order.paidAt ? isoDay(order.paidAt) : null,
        ...documentRow(site, order, -1),
      };
    }
    if (batch.length < batchSize) break;
    after = batch.at(-1)?.creditNoteNumber ?? after;
  }
}
