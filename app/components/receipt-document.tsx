import type { ReactNode } from "react";
import type { ReceiptView } from "../../common/view-types.ts";
import { formatDay, formatInvoiceAmount as exact, formatMoment, formatPaise } from "../../common/format.ts";
import { invoiceAmounts } from "../../common/invoice-amounts.ts";
import { cardClass } from "./ui/card.tsx";

/** Services accounting code for commercial training and coaching services. */
/** How the invoice describes each kind of order, with its GST services code (SAC). */
const invoiceLines = {
  course: { description: "Online course: commercial training and coaching services", sac: "999293" },
  website: { description: "Website hosting and maintenance: hosting and IT infrastructure provisioning services", sac: "998315" },
} as const;

const ones = ["", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Eleven", "Twelve", "Thirteen", "Fourteen", "Fifteen", "Sixteen", "Seventeen", "Eighteen", "Nineteen"];
const tens = ["", "", "Twenty", "Thirty", "Forty", "Fifty", "Sixty", "Seventy", "Eighty", "Ninety"];

function belowHundred(n: number): string {
  if (n < 20) return ones[n] ?? "";
  const unit = n % 10;
  return `${tens[Math.floor(n / 10)]}${unit ? `-${ones[unit]}` : ""}`;
}

function belowThousand(n: number): string {
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  return [hundreds ? `${ones[hundreds]} Hundred` : "", rest ? belowHundred(rest) : ""].filter(Boolean).join(" ");
}

/** Whole rupees in the Indian system (crore, lakh, thousand): 1,25,000 → "One Lakh Twenty-Five Thousand". */
function rupeesInWords(n: number): string {
  if (n === 0) return "Zero";
  const crore = Math.floor(n / 10_000_000);
  const lakh = Math.floor((n % 10_000_000) / 100_000);
  const thousand = Math.floor((n % 100_000) / 1000);
  const rest = n % 1000;
  return [
    crore ? `${crore >= 100 ? rupeesInWords(crore) : belowHundred(crore)} Crore` : "",
    lakh ? `${belowHundred(lakh)} Lakh` : "",
    thousand ? `${belowHundred(thousand)} Thousand` : "",
    rest ? belowThousand(rest) : "",
  ]
    .filter(Boolean)
    .join(" ");
}

function amountInWords(paise: number): string {
  const rupees = Math.floor(paise / 100);
  const rest = paise % 100;
  return `Rupees ${rupeesInWords(rupees)}${rest ? ` and ${belowHundred(rest)} Paise` : ""} Only`;
}

const term = "text-slate-600 dark:text-slate-400 print:text-slate-700";
const value = "font-medium text-slate-950 dark:text-white print:text-black";
const label = "text-xs font-semibold uppercase tracking-wide text-slate-500 print:text-slate-600 dark:text-slate-400";

function Block({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div>
      <h2 className={label}>{title}</h2>
      <div className="mt-2 text-sm leading-6">{children}</div>
    </div>
  );
}

/**
 * The tax invoice itself: on the receipt page, in print, and as the HTML file the CLI saves. It
 * shows the order as it was paid and never changes; with `asCreditNote`, the same supply is the
 * GST credit note that corrects it after a refund.
 */
export function ReceiptDocument({ r, asCreditNote = false }: { r: ReceiptView; asCreditNote?: boolean }) {
  const credit = asCreditNote ? r.creditNote : null;
  // A credit note states what was refunded (the whole invoice, or part of it), and only that: no coupon.
  const amounts = invoiceAmounts(credit ?? r, r.taxRatePercent, credit ? null : r.discount);
  const listedTaxable = amounts.listed;
  const taxRows: [string, number][] = [...(amounts.discount ? [["Listed price", listedTaxable] as [string, number], amounts.discount] : []), ...amounts.taxed];
  const documentName = credit ? "credit note" : "invoice";
  const cell = "px-2 py-3 first:pl-0 last:pr-0 sm:px-4 sm:first:pl-4 sm:last:pr-4";
  return (
    <article
      aria-labelledby="invoice-heading"
      className={cardClass({ raised: true, className: "mt-6 p-5 text-slate-800 sm:p-10 dark:text-slate-200 print:mt-0 print:rounded-none print:border-0 print:bg-white print:p-0 print:text-black print:shadow-none" })}
    >
      <header className="flex flex-col gap-6 border-b border-slate-200 pb-6 sm:flex-row-reverse sm:justify-between dark:border-slate-800 print:border-slate-300">
        <div className="sm:text-right">
          <h1 id="invoice-heading" className="text-2xl font-bold tracking-tight text-slate-950 dark:text-white print:text-black">
            {credit ? "Credit note" : "Tax invoice"}
          </h1>
          <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm sm:justify-end">
            {credit && (
              <>
                <dt className={term}>Credit note number</dt>
                <dd className="font-mono font-semibold text-slate-950 dark:text-white print:text-black">{credit.number}</dd>
                <dt className={term}>Date of issue</dt>
                <dd className={value}>{formatDay(credit.issuedAt)}</dd>
              </>
            )}
            <dt className={term}>{credit ? "Against invoice" : "Invoice number"}</dt>
            <dd className={credit ? value : "font-mono font-semibold text-slate-950 dark:text-white print:text-black"}>{r.number}</dd>
            <dt className={term}>{credit ? "Invoice date" : "Date of payment"}</dt>
            <dd className={value}>{formatDay(r.paidAt ?? r.createdAt)}</dd>
            <dt className={term}>Place of supply</dt>
            <dd className={value}>{r.placeOfSupply}</dd>
          </dl>
        </div>
        <div className="text-sm leading-6">
          <p className="text-lg font-bold text-slate-950 dark:text-white print:text-black">{r.seller.legalName}</p>
          <address className="not-italic">
            {r.seller.addressLines.map((line) => (
              <span key={line} className="block">
                {line}
              </span>
            ))}
          </address>
          <p className="mt-2">
            GSTIN <span className="font-mono font-medium text-slate-950 dark:text-white print:text-black">{r.seller.gstin}</span>
          </p>
          <p>
            {r.seller.email} · {r.seller.phone}
          </p>
        </div>
      </header>

      <div className="grid gap-6 border-b border-slate-200 py-6 sm:grid-cols-2 dark:border-slate-800 print:border-slate-300">
        <Block title="Billed to">
          <p className="font-medium text-slate-950 dark:text-white print:text-black">{r.buyer.name}</p>
          <p className="break-all">{r.buyer.email}</p>
          {r.buyer.gstin && (
            <p>
              GSTIN <span className="font-mono font-medium text-slate-950 dark:text-white print:text-black">{r.buyer.gstin}</span>
            </p>
          )}
        </Block>
        <Block title="Payment">
          {r.free ? (
            <p>No payment was needed: this course was free.</p>
          ) : r.payment ? (
            <dl className="grid grid-cols-[auto_1fr] gap-x-4">
              <dt className="text-slate-600 dark:text-slate-400 print:text-slate-700">Method</dt>
              <dd className="font-medium text-slate-950 dark:text-white print:text-black">{r.payment.method}</dd>
              <dt className="text-slate-600 dark:text-slate-400 print:text-slate-700">Payment ID</dt>
              <dd className="break-all font-mono text-slate-950 dark:text-white print:text-black">{r.payment.providerPaymentId}</dd>
              {credit?.providerRefundId && (
                <>
                  <dt className="text-slate-600 dark:text-slate-400 print:text-slate-700">Refund ID</dt>
                  <dd className="break-all font-mono text-slate-950 dark:text-white print:text-black">{credit.providerRefundId}</dd>
                </>
              )}
            </dl>
          ) : (
            <p>The payment record is not available.</p>
          )}
        </Block>
      </div>

      <div className="mt-6 overflow-x-auto print:overflow-visible">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{credit ? `Items credited by ${credit.number}` : `Items on invoice ${r.number}`}</caption>
          <thead>
            <tr className="border-b border-slate-200 text-slate-600 dark:border-slate-800 dark:text-slate-400 print:border-slate-300 print:text-slate-700">
              <th scope="col" className={`${cell} font-semibold`}>
                Description
              </th>
              <th scope="col" className={`${cell} hidden font-semibold sm:table-cell`}>
                SAC
              </th>
              <th scope="col" className={`${cell} text-right font-semibold`}>
                Qty
              </th>
              <th scope="col" className={`${cell} text-right font-semibold`}>
                Taxable value
              </th>
            </tr>
          </thead>
          <tbody>
            <tr className="border-b border-slate-200 dark:border-slate-800 print:border-slate-300">
              <th scope="row" className={`${cell} font-normal`}>
                <span className="block font-medium text-slate-950 dark:text-white print:text-black">{r.title}</span>
                <span className="block text-slate-600 dark:text-slate-400 print:text-slate-700">{invoiceLines[r.kind].description}</span>
                <span className="mt-1 block text-slate-600 sm:hidden dark:text-slate-400">
                  SAC <span className="font-mono">{invoiceLines[r.kind].sac}</span>
                </span>
              </th>
              <td className={`${cell} hidden font-mono sm:table-cell`}>{invoiceLines[r.kind].sac}</td>
              <td className={`${cell} text-right tabular-nums`}>1</td>
              <td className={`${cell} text-right tabular-nums`}>{exact(listedTaxable)}</td>
            </tr>
          </tbody>
        </table>
      </div>

      <div className="mt-6 flex flex-col gap-6 sm:flex-row sm:justify-between">
        <div className="text-sm sm:max-w-xs">
          <h2 className={label}>Amount in words</h2>
          <p className="mt-2 font-medium text-slate-950 dark:text-white print:text-black">{amountInWords(amounts.total)}</p>
          {r.taxMode === "inclusive" && <p className="mt-2 text-slate-600 dark:text-slate-400 print:text-slate-700">The price includes GST.</p>}
        </div>
        <table className="w-full text-sm sm:w-80">
          <caption className="sr-only">Tax breakdown</caption>
          <tbody className="tabular-nums">
            {taxRows.map(([name, paise]) => (
              <tr key={name}>
                <th scope="row" className="py-1.5 text-left font-normal text-slate-600 dark:text-slate-400 print:text-slate-700">
                  {name}
                </th>
                <td className="py-1.5 text-right">{exact(paise)}</td>
              </tr>
            ))}
            <tr className="border-t border-slate-300 text-base font-bold text-slate-950 dark:border-slate-700 dark:text-white print:border-slate-400 print:text-black">
              <th scope="row" className="pt-3 text-left">
                Total
              </th>
              <td className="pt-3 text-right">{exact(amounts.total)}</td>
            </tr>
          </tbody>
        </table>
      </div>

      {credit && (
        <p className="mt-6 rounded-lg border border-brand-200 bg-brand-50 px-4 py-3 text-sm text-brand-900 dark:border-brand-800 dark:bg-slate-800 dark:text-brand-100 print:border-slate-300 print:bg-white print:text-black">
          {credit.whole ? `This credit note cancels invoice ${r.number} in full: ` : `This credit note reduces invoice ${r.number} of ${formatPaise(r.amount)}: `}
          {formatPaise(credit.amount)}, GST included, was refunded on {formatDay(credit.issuedAt)} to the account it was paid from.
        </p>
      )}

      <footer className="mt-8 border-t border-slate-200 pt-4 text-xs leading-5 text-slate-500 dark:border-slate-800 dark:text-slate-400 print:border-slate-300 print:text-slate-600">
        <p>
          This is a computer-generated {documentName} and needs no signature. Order placed {formatMoment(r.createdAt)}. Questions? Write to{" "}
          {r.seller.email}.
        </p>
      </footer>
    </article>
  );
}
