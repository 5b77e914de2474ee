import { describe, expect, it } from "vitest";
import { couponDiscount, couponLabel, discountedPrice } from "./coupons.ts";

const inclusive = { mode: "inclusive", ratePercent: 18 } as const;

describe("couponDiscount", () => {
  it("takes a share rounded to the paisa, or an amount, never more than the price", () => {
    expect(couponDiscount({ kind: "percent", value: 20 }, 699_900)).toBe(139_980);
    expect(couponDiscount({ kind: "percent", value: 33 }, 99_999)).toBe(33_000);
    expect(couponDiscount({ kind: "amount", value: 50_000 }, 699_900)).toBe(50_000);
    expect(couponDiscount({ kind: "amount", value: 900_000 }, 699_900)).toBe(699_900);
  });
});

describe("discountedPrice", () => {
  it("works GST out on what is left, and states the discount as the taxable value it took away", () => {
    const { price, discount } = discountedPrice({ amount: 699_900, currency: "INR" }, inclusive, { kind: "percent", value: 20 });
    expect(price).toMatchObject({ total: 559_920, taxable: 474_508, tax: 85_412 });
    expect(discount).toBe(593_136 - 474_508);
  });

  it("leaves the price alone without a coupon, and at nothing when the coupon takes it all", () => {
    expect(discountedPrice({ amount: 699_900, currency: "INR" }, inclusive, null)).toMatchObject({ price: { total: 699_900 }, discount: 0 });
    expect(discountedPrice({ amount: 699_900, currency: "INR" }, inclusive, { kind: "percent", value: 100 })).toMatchObject({ price: { total: 0, tax: 0 }, discount: 593_136 });
  });
});

describe("couponLabel", () => {
  it("says what a coupon takes off", () => {
    expect(couponLabel({ kind: "percent", value: 20 })).toBe("20% off");
    expect(couponLabel({ kind: "amount", value: 50_000 })).toBe("₹500 off");
  });
});
