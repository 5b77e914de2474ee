import { describe, expect, it } from "vitest";
import { ValidationError } from "../errors.ts";
import { normaliseDomain } from "./domain-name.ts";
import { addInterval, daysUntil, nextPeriod, suspensionDate, websiteState } from "./rules.ts";

const at = (iso: string) => new Date(iso);

describe("a website's state", () => {
  const expiresAt = at("2026-06-30T12:00:00Z");
  const state = (now: string) => websiteState({ expiresAt, cancelledAt: null, suspendedAt: null, billingInterval: "year" }, at(now));
  const monthly = (now: string) => websiteState({ expiresAt, cancelledAt: null, suspendedAt: null, billingInterval: "month" }, at(now));

  it("is pending until a first period is paid, and cancelled once the customer lets it go", () => {
    expect(websiteState({ expiresAt: null, cancelledAt: null, suspendedAt: null, billingInterval: "month" }, at("2026-01-01T00:00:00Z"))).toBe("pending");
    expect(websiteState({ expiresAt, cancelledAt: at("2026-05-01T00:00:00Z"), suspendedAt: null, billingInterval: "year" }, at("2026-05-02T00:00:00Z"))).toBe("cancelled");
  });

  it("is suspended while staff keep it offline, whatever its dates, until the customer lets it go", () => {
    expect(websiteState({ expiresAt, cancelledAt: null, suspendedAt: at("2026-05-01T00:00:00Z"), billingInterval: "year" }, at("2026-05-02T00:00:00Z"))).toBe("suspended");
    expect(websiteState({ expiresAt, cancelledAt: at("2026-05-03T00:00:00Z"), suspendedAt: at("2026-05-01T00:00:00Z"), billingInterval: "year" }, at("2026-05-04T00:00:00Z"))).toBe("cancelled");
  });

  it("is active until 30 days are left, then expiring until the expiry itself", () => {
    expect(state("2026-05-31T11:59:59Z")).toBe("active");
    expect(state("2026-05-31T12:00:00Z")).toBe("expiring");
    expect(state("2026-06-30T11:59:59Z")).toBe("expiring");
  });

  it("paid by the month, is active until its last 7 days, not expiring from the day it is paid", () => {
    expect(monthly("2026-05-31T12:00:00Z")).toBe("active");
    expect(monthly("2026-06-23T11:59:59Z")).toBe("active");
    expect(monthly("2026-06-23T12:00:00Z")).toBe("expiring");
    expect(monthly("2026-06-30T12:00:00Z")).toBe("expired");
  });

  it("is expired from the expiry through 15 days of grace, then suspended", () => {
    expect(state("2026-06-30T12:00:00Z")).toBe("expired");
    expect(state("2026-07-15T11:59:59Z")).toBe("expired");
    expect(state("2026-07-15T12:00:00Z")).toBe("suspended");
    expect(suspensionDate(expiresAt)).toEqual(at("2026-07-15T12:00:00Z"));
  });
});

describe("billing periods", () => {
  it("adds a month or a year on the same day and time, or the month's last day when it has none", () => {
    expect(addInterval(at("2026-01-15T09:30:00Z"), "month")).toEqual(at("2026-02-15T09:30:00Z"));
    expect(addInterval(at("2026-01-31T09:30:00Z"), "month")).toEqual(at("2026-02-28T09:30:00Z"));
    expect(addInterval(at("2028-01-31T09:30:00Z"), "month")).toEqual(at("2028-02-29T09:30:00Z"));
    expect(addInterval(at("2026-12-31T23:00:00Z"), "month")).toEqual(at("2027-01-31T23:00:00Z"));
    expect(addInterval(at("2028-02-29T00:00:00Z"), "year")).toEqual(at("2029-02-28T00:00:00Z"));
    expect(addInterval(at("2026-03-31T00:00:00Z"), "month")).toEqual(at("2026-04-30T00:00:00Z"));
  });

  it("extends from the current expiry when renewing early, so no day is lost", () => {
    expect(nextPeriod(at("2026-06-30T12:00:00Z"), at("2026-06-10T08:00:00Z"), "year")).toEqual({
      startsAt: at("2026-06-30T12:00:00Z"),
      endsAt: at("2027-06-30T12:00:00Z"),
    });
  });

  it("starts from now for a first period, on the expiry day itself, in grace and after suspension, never back-dated", () => {
    const now = at("2026-06-30T12:00:00Z");
    expect(nextPeriod(null, now, "month")).toEqual({ startsAt: now, endsAt: at("2026-07-30T12:00:00Z") });
    expect(nextPeriod(now, now, "month").startsAt).toEqual(now);
    expect(nextPeriod(at("2026-06-20T12:00:00Z"), now, "month")).toEqual({ startsAt: now, endsAt: at("2026-07-30T12:00:00Z") });
    expect(nextPeriod(at("2026-01-01T00:00:00Z"), now, "year").startsAt).toEqual(now);
  });

  it("counts whole days left, rounding up", () => {
    const now = at("2026-06-01T12:00:00Z");
    expect(daysUntil(at("2026-06-13T12:00:00Z"), now)).toBe(12);
    expect(daysUntil(at("2026-06-01T17:00:00Z"), now)).toBe(1);
    expect(daysUntil(at("2026-05-30T12:00:00Z"), now)).toBe(-2);
  });
});

/** The message a domain is refused with; fails the test when it is accepted. */
function refusal(input: string): string {
  try {
    normaliseDomain(input);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as Error).message;
  }
  throw new Error(`${input} was accepted`);
}

describe("a website's domain", () => {
  it("is stored lower-cased and trimmed, internationalised names in their ASCII form", () => {
    expect(normaliseDomain("  Shop.Example.IN ")).toBe("shop.example.in");
    expect(normaliseDomain("example.com.")).toBe("example.com");
    expect(normaliseDomain("my-site.co.uk")).toBe("my-site.co.uk");
    expect(normaliseDomain("bücher.example")).toBe("xn--bcher-kva.example");
  });

  it("is refused with what to fix when it is not a bare hostname", () => {
    expect(refusal("")).toMatch(/^Enter your website's domain/);
    expect(refusal("https://shop.example.in")).toMatch(/without http/);
    expect(refusal("shop.example.in/about")).toMatch(/without a path/);
    expect(refusal("shop.example.in:8080")).toMatch(/without a port/);
    expect(refusal("192.168.1.10")).toMatch(/not an IP address/);
    for (const bad of ["localhost", "-shop.example.in", "shop-.example.in", "shop..example.in", "shop_site.example.in", "shop.example.1n", `${"a".repeat(64)}.example.in`, "shop example.in"]) {
      expect(refusal(bad), bad).toMatch(/does not look like a domain/);
    }
  });
});
