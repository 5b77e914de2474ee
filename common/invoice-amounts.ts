/** What an invoice (or its credit note) states of its money, in paise. */
export interface InvoiceFigures {
  amount: number;
  taxableAmount: number;
  cgst: number;
  sgst: number;
  igst: number;
}

/**
 * The amounts of an invoice in the order it prints them, for the invoice itself and the receipt mail
 * that repeats them: the listed price (taxable value before a coupon), the coupon's discount, the
 * taxable value, GST as CGST and SGST, or as IGST to a business in another state, and the total.
 */
export function invoiceAmounts(figures: InvoiceFigures, taxRatePercent: number, discount: { code: string; amount: number } | null) {
  const gst: [string, number][] =
    figures.igst > 0
      ? [[`IGST @ ${taxRatePercent}%`, figures.igst]]
      : [
          [`CGST @ ${taxRatePercent / 2}%`, figures.cgst],
          [`SGST @ ${taxRatePercent / 2}%`, figures.sgst],
        ];
  return {
    listed: figures.taxableAmount + (discount?.amount ?? 0),
    discount: discount ? ([`Discount (coupon ${discount.code})`, -discount.amount] as [string, number]) : null,
    /** From the taxable value down to the last line before the total. */
    taxed: [["Taxable value", figures.taxableAmount], ...gst] as [string, number][],
    total: figures.amount,
  };
}
