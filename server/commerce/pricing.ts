import type { Money, Site } from "../catalog/index.ts";

export interface PriceBreakdown {
  currency: Money["currency"];
  /** What the buyer pays. */
  total: number;
  /** The value GST is charged on. */
  taxable: number;
  tax: number;
  ratePercent: number;
  mode: Site["tax"]["mode"];
}

/**
 * The amounts for a catalogue price under the site's tax setting, in paise. Inclusive: the price
 * is what the buyer pays and GST is carved out of it; exclusive: GST is added on top.
 */
export function priceBreakdown(price: Money, tax: Site["tax"]): PriceBreakdown {
  const rate = tax.ratePercent;
  if (tax.mode === "inclusive") {
    const taxable = Math.round((price.amount * 100) / (100 + rate));
    return { currency: price.currency, total: price.amount, taxable, tax: price.amount - taxable, ratePercent: rate, mode: tax.mode };
  }
  const gst = Math.round((price.amount * rate) / 100);
  return { currency: price.currency, total: price.amount + gst, taxable: price.amount, tax: gst, ratePercent: rate, mode: tax.mode };
}

/**
 * Place of supply is the seller's state when the buyer's address is not on record (B2C), so GST
 * is an intra-state supply: half CGST, half SGST.
 */
export function gstSplit(tax: number): { cgst: number; sgst: number } {
  const cgst = Math.floor(tax / 2);
  return { cgst, sgst: tax - cgst };
}
