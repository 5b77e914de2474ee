import { describe, expect, it } from "vitest";
import { invoiceAmounts } from "./invoice-amounts.ts";

describe("invoiceAmounts", () => {
  it("splits GST into CGST and SGST at half the rate each, after a coupon's discount from the listed price", () => {
    const figures = { amount: 559_920, taxableAmount: 474_508, cgst: 42_706, sgst: 42_706, igst: 0 };
    expect(invoiceAmounts(figures, 18, { code: "TWENTY", amount: 118_628 })).toEqual({
      listed: 593_136,
      discount: ["Discount (coupon TWENTY)", -118_628],
      taxed: [
        ["Taxable value", 474_508],
        ["CGST @ 9%", 42_706],
        ["SGST @ 9%", 42_706],
      ],
      total: 559_920,
    });
  });

  it("states IGST alone to a business in another state, and no discount without a coupon", () => {
    const figures = { amount: 699_900, taxableAmount: 593_136, cgst: 0, sgst: 0, igst: 106_764 };
    expect(invoiceAmounts(figures, 18, null)).toEqual({
      listed: 593_136,
      discount: null,
      taxed: [
        ["Taxable value", 593_136],
        ["IGST @ 18%", 106_764],
      ],
      total: 699_900,
    });
  });
});
