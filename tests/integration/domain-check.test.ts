import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDomainChecker, systemLookup, type DnsLookup, type HostingTarget } from "../../server/websites/index.ts";
import { elsewhereAddress, startDnsServer } from "../support/dns-server.ts";
import { noDomains } from "./helpers.ts";

const target: HostingTarget = { ipv4: ["192.0.2.10"], ipv6: ["2001:db8::10"], wwwTarget: null };

/** A resolver that knows `records` (by name, then type) and counts what it is asked. */
function stubLookup(records: Record<string, { a?: string[]; aaaa?: string[]; cname?: string[] }>) {
  const asked: string[] = [];
  const answer = (name: string, kind: "a" | "aaaa" | "cname") => {
    asked.push(`${kind} ${name}`);
    const found = records[name]?.[kind];
    return found ? Promise.resolve(found) : Promise.reject(Object.assign(new Error(`ENODATA ${name}`), { code: "ENODATA" }));
  };
  const lookup: DnsLookup = { resolve4: (name) => answer(name, "a"), resolve6: (name) => answer(name, "aaaa"), resolveCname: (name) => answer(name, "cname") };
  return { lookup, asked };
}

describe("checking where a customer's domain points", () => {
  it("says a domain points at us when its address records and www are ours", async () => {
    const { lookup } = stubLookup({ "shop.example.in": { a: ["192.0.2.10"], aaaa: ["2001:db8::10"] }, "www.shop.example.in": { cname: ["shop.example.in."] } });
    const check = await createDomainChecker({ target, lookup }).check("shop.example.in");
    expect(check).toMatchObject({ outcome: "pointed", records: { a: { found: "ours" }, aaaa: { found: "ours" }, www: { found: "ours" } } });
  });

  it("names the records that are missing or point elsewhere", async () => {
    const { lookup } = stubLookup({ "shop.example.in": { a: ["192.0.2.10", "198.51.100.7"], aaaa: ["2001:db8::99"] } });
    const check = await createDomainChecker({ target, lookup }).check("shop.example.in");
    expect(check).toMatchObject({
      outcome: "not-pointed",
      records: { a: { found: "other", values: ["198.51.100.7"] }, aaaa: { found: "other", values: ["2001:db8::99"] }, www: { found: "none" } },
    });
    expect((await createDomainChecker({ target, lookup: noDomains }).check("nobody.example.in"))?.records).toEqual({ a: { found: "none" }, aaaa: { found: "none" }, www: { found: "none" } });
  });

  it("accepts www with our addresses instead of a CNAME, or a CNAME to the configured target, and no AAAA where we serve no IPv6", async () => {
    const v4only: HostingTarget = { ipv4: ["192.0.2.10"], ipv6: [], wwwTarget: "sites.academy.example.in" };
    const direct = stubLookup({ "shop.example.in": { a: ["192.0.2.10"] }, "www.shop.example.in": { a: ["192.0.2.10"] } });
    expect(await createDomainChecker({ target: v4only, lookup: direct.lookup }).check("shop.example.in")).toMatchObject({ outcome: "pointed" });
    const named = stubLookup({ "shop.example.in": { a: ["192.0.2.10"] }, "www.shop.example.in": { cname: ["sites.academy.example.in"] } });
    expect(await createDomainChecker({ target: v4only, lookup: named.lookup }).check("shop.example.in")).toMatchObject({ outcome: "pointed" });
  });

  it("looks a domain up once in five minutes, sharing a lookup in flight, and again after that", async () => {
    const { lookup, asked } = stubLookup({ "shop.example.in": { a: ["192.0.2.10"] } });
    let now = new Date("2026-12-01T10:00:00Z");
    const checker = createDomainChecker({ target, lookup, clock: () => now });
    await Promise.all([checker.check("shop.example.in"), checker.check("shop.example.in")]);
    const once = asked.length;
    now = new Date("2026-12-01T10:04:59Z");
    expect((await checker.check("shop.example.in"))?.checkedAt).toEqual(new Date("2026-12-01T10:00:00Z"));
    expect(asked).toHaveLength(once);
    now = new Date("2026-12-01T10:05:01Z");
    expect((await checker.check("shop.example.in"))?.checkedAt).toEqual(now);
    expect(asked).toHaveLength(once * 2);
  });

  it("remembers a bounded number of domains, dropping the least recently asked", async () => {
    const { lookup, asked } = stubLookup({});
    const checker = createDomainChecker({ target, lookup });
    for (let i = 0; i <= 1_000; i++) await checker.check(`site-${i}.example.in`);
    const count = () => asked.filter((question) => question === "a site-0.example.in").length;
    await checker.check("site-1000.example.in");
    await checker.check("site-0.example.in");
    expect(count()).toBe(2);
    const before = asked.length;
    await checker.check("site-1000.example.in");
    expect(asked).toHaveLength(before);
  });

  it("answers 'unknown', never an error, when the resolver fails or is too slow, and asks again soon after", async () => {
    const failing: DnsLookup = { ...noDomains, resolve4: () => Promise.reject(Object.assign(new Error("queryA ESERVFAIL"), { code: "ESERVFAIL" })) };
    let now = new Date("2026-12-01T10:00:00Z");
    const checker = createDomainChecker({ target, lookup: failing, clock: () => now });
    expect(await checker.check("shop.example.in")).toEqual({ outcome: "unknown", checkedAt: now, records: null });
    const hanging: DnsLookup = { ...noDomains, resolve6: () => new Promise(() => {}) };
    expect(await createDomainChecker({ target, lookup: hanging, timeoutMs: 20 }).check("shop.example.in")).toMatchObject({ outcome: "unknown", records: null });
    now = new Date("2026-12-01T10:00:31Z");
    expect((await checker.check("shop.example.in"))?.checkedAt).toEqual(now);
  });

  it("looks nothing up, and shows no records, when no hosting addresses are configured", async () => {
    const { lookup, asked } = stubLookup({});
    expect(await createDomainChecker({ target: null, lookup }).check("shop.example.in")).toBeNull();
    expect(asked).toEqual([]);
  });
});

describe("node's resolver, asking a DNS server over UDP", () => {
  let server: Awaited<ReturnType<typeof startDnsServer>>;
  beforeAll(async () => {
    server = await startDnsServer(target);
  });
  afterAll(() => server.close());

  it("finds a pointed domain, one pointing elsewhere, one that does not exist, and a failing server", async () => {
    const checker = createDomainChecker({ target, lookup: systemLookup([server.address]) });
    expect(await checker.check("pointed-a.example.in")).toMatchObject({ outcome: "pointed" });
    expect(await checker.check("elsewhere-a.example.in")).toMatchObject({ outcome: "not-pointed", records: { a: { found: "other", values: [elsewhereAddress] }, aaaa: { found: "none" }, www: { found: "none" } } });
    expect(await checker.check("nobody-a.example.in")).toMatchObject({ outcome: "not-pointed", records: { a: { found: "none" } } });
    expect(await checker.check("broken-a.example.in")).toMatchObject({ outcome: "unknown" });
  });
});
