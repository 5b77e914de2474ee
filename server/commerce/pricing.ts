import type { Money, Site } from "../catalog/index.ts";

/** The state named by a GSTIN's first two digits; only the codes we are likely to meet are named. */
const gstStates: Record<string, string> = {
  "07": "Delhi",
  "09": "Uttar Pradesh",
  "19": "West Bengal",
  "24": "Gujarat",
  "27": "Maharashtra",
  "29": "Karnataka",
  "32": "Kerala",
  "33": "Tamil Nadu",
  "36": "Telangana",
  "37": "Andhra Pradesh",
};

/** The state a GSTIN is registered in, as "Karnataka (29)"; `fallback` names a code not listed. */
export function gstinState(gstin: string, fallback = "State"): string {
  const code = gstin.slice(0, 2);
  return `${gstStates[code] ?? fallback} (${code})`;
}

/**
 * Where a supply takes place, as invoices print it: for a business that gave its GSTIN, the state it
 * is registered in; for anyone else, whose address is not on record, the seller's state (see taxSplit).
 */
export function placeOfSupply(site: Pick<Site, "gstin" | "address">, buyerGstin: string | null = null): string {
  return buyerGstin ? gstinState(buyerGstin) : gstinState(site.gstin, site.address.state);
}

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

/** GST within one state: half CGST, half SGST, the odd paisa to SGST. */
export function gstSplit(tax: number): { cgst: number; sgst: number } {
  const cgst = Math.floor(tax / 2);
  return { cgst, sgst: tax - cgst };
}

/**
 * How an order's GST is charged, by its place of supply (placeOfSupply): in the seller's own state as
 * CGST and SGST; to a business registered in another state (its GSTIN's first two digits) as IGST.
 */
export function taxSplit(tax: number, sellerGstin: string, buyerGstin: string | null): { cgst: number; sgst: number; igst: number } {
  if (buyerGstin && buyerGstin.slice(0, 2) !== sellerGstin.slice(0, 2)) return { cgst: 0, sgst: 0, igst: tax };
  return { ...gstSplit(tax), igst: 0 };
}

/**
 * How much of a refund of `amount` paise is GST, for its credit note: the invoice's own split when
 * the whole order is refunded, else the invoice's share of GST, to the nearest paisa.
 */
export function refundSplit(order: { amount: number; taxableAmount: number; taxAmount: number }, amount: number): { taxableAmount: number; taxAmount: number } {
  if (amount === order.amount) return { taxableAmount: order.taxableAmount, taxAmount: order.taxAmount };
  const taxAmount = Math.round((order.taxAmount * amount) / order.amount);
  return { taxableAmount: amount - taxAmount, taxAmount };
}
