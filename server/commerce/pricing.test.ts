import { describe, expect, it } from "vitest";
import { gstSplit, placeOfSupply, priceBreakdown, refundSplit, taxSplit } from "./pricing.ts";

describe("priceBreakdown", () => {
  it("carves 18% GST out of an inclusive price, the parts adding up to the price", () => {
    const b = priceBreakdown({ amount: 699_900, currency: "INR" }, { mode: "inclusive", ratePercent: 18 });
    expect(b).toEqual({ currency: "INR", total: 699_900, taxable: 593_136, tax: 106_764, ratePercent: 18, mode: "inclusive" });
  });

  it("adds GST on top of an exclusive price", () => {
    const b = priceBreakdown({ amount: 499_900, currency: "INR" }, { mode: "exclusive", ratePercent: 18 });
    expect(b).toMatchObject({ total: 589_882, taxable: 499_900, tax: 89_982 });
  });

  it("charges nothing for a free course", () => {
    expect(priceBreakdown({ amount: 0, currency: "INR" }, { mode: "exclusive", ratePercent: 18 })).toMatchObject({ total: 0, tax: 0 });
  });
});

describe("gstSplit", () => {
  it("splits tax into CGST and SGST that add up to the whole, odd paise going to SGST", () => {
    expect(gstSplit(106_764)).toEqual({ cgst: 53_382, sgst: 53_382 });
    expect(gstSplit(89_983)).toEqual({ cgst: 44_991, sgst: 44_992 });
  });
});

describe("refundSplit", () => {
  const order = { amount: 699_900, taxableAmount: 593_136, taxAmount: 106_764 };

  it("states the invoice's own split for a refund of the whole order", () => {
    expect(refundSplit(order, 699_900)).toEqual({ taxableAmount: 593_136, taxAmount: 106_764 });
  });

  it("gives part of a refund the invoice's share of GST, the parts adding up to the refund", () => {
    // ₹2,000 of ₹6,999 at 18% inclusive: 106,764 × 200,000 / 699,900 = 30,508.07 paise of GST.
    expect(refundSplit(order, 200_000)).toEqual({ taxableAmount: 169_492, taxAmount: 30_508 });
    expect(refundSplit(order, 1)).toEqual({ taxableAmount: 1, taxAmount: 0 });
  });
});

describe("taxSplit and placeOfSupply", () => {
  const site = { gstin: "29AAKCA1234F1Z5", address: { line1: "42 Residency Road", city: "Bengaluru", state: "Karnataka", postalCode: "560025", country: "India" } };

  it("charges CGST and SGST within the seller's state: to a person, or to a business registered there", () => {
    expect(taxSplit(106_764, site.gstin, null)).toEqual({ cgst: 53_382, sgst: 53_382, igst: 0 });
    expect(taxSplit(106_764, site.gstin, "29ABCDE1234F1Z5")).toEqual({ cgst: 53_382, sgst: 53_382, igst: 0 });
    expect(placeOfSupply(site)).toBe("Karnataka (29)");
    expect(placeOfSupply(site, "29ABCDE1234F1Z5")).toBe("Karnataka (29)");
  });

  it("charges IGST to a business registered in another state, whose state is the place of supply", () => {
    expect(taxSplit(106_764, site.gstin, "27AAACA1234A1Z5")).toEqual({ cgst: 0, sgst: 0, igst: 106_764 });
    expect(placeOfSupply(site, "27AAACA1234A1Z5")).toBe("Maharashtra (27)");
  });
});
