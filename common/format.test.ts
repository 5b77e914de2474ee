import { describe, expect, it } from "vitest";
import { parseRupees } from "./format.ts";

describe("parseRupees", () => {
  it("reads rupees as people type them, into paise", () => {
    expect(parseRupees("2000")).toBe(200_000);
    expect(parseRupees(" ₹1,499.50 ")).toBe(149_950);
    expect(parseRupees("0.5")).toBe(50);
    expect(parseRupees("6999.05")).toBe(699_905);
  });

  it("refuses what is not an amount", () => {
    for (const typed of ["", "abc", "-100", "1.234", "1e3", "12.", "₹", "1 000 000 0000"]) expect(parseRupees(typed), typed).toBeNull();
  });
});
