import { describe, expect, it } from "vitest";
import { gstSplit, priceBreakdown, refundSplit } from "./pricing.ts";

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
