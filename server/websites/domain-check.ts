import { Resolver } from "node:dns/promises";
import type { DnsRecordToSet, DomainFindings, DomainOutcome, RecordFinding } from "../../common/domain-records.ts";

/** The records a customer sets so their domain reaches our servers (HOSTING_ADDRESSES, HOSTING_WWW_TARGET). */
export interface HostingTarget {
  ipv4: string[];
  ipv6: string[];
  /** Where `www` points by CNAME; null: at the customer's own domain, which then carries our addresses. */
  wwwTarget: string | null;
}

/** What the check needs of node:dns/promises' Resolver; tests give a stub. */
export interface DnsLookup {
  resolve4(name: string): Promise<string[]>;
  resolve6(name: string): Promise<string[]>;
  resolveCname(name: string): Promise<string[]>;
}

export interface DomainCheck {
  outcome: DomainOutcome;
  checkedAt: Date;
  /** Null when the outcome is unknown. */
  records: DomainFindings | null;
}

/** The records a customer creates so `domain` reaches us: an A (and AAAA) record per address, and `www` by CNAME. */
export function recordsToSet(target: HostingTarget, domain: string): DnsRecordToSet[] {
  return [
    ...target.ipv4.map((value) => ({ type: "A" as const, name: "@" as const, value, finding: "a" as const })),
    ...target.ipv6.map((value) => ({ type: "AAAA" as const, name: "@" as const, value, finding: "aaaa" as const })),
    { type: "CNAME", name: "www", value: target.wwwTarget ?? domain, finding: "www" },
  ];
}

export interface DomainChecker {
  /** The records to show; null when the operator has not configured where customers point (production without HOSTING_ADDRESSES). */
  target: HostingTarget | null;
  /** Where the domain points, from the cache when it was looked up recently; never throws. */
  check(domain: string): Promise<DomainCheck | null>;
}

/** A result is reused this long; a failed lookup only briefly, so a passing fault is not shown for minutes. */
const checkedTtlMs = 5 * 60_000;
const failedTtlMs = 30_000;
/** Domains remembered at once; the least recently asked go first. */
const cacheEntries = 1_000;
/** A whole check (its lookups run together) gives up after this long. */
const checkTimeoutMs = 3_000;

/** The system's resolvers, or `servers` (HOSTING_DNS_SERVERS), asked with a short timeout and one retry. */
export function systemLookup(servers: string[] | null): DnsLookup {
  const resolver = new Resolver({ timeout: 1_000, tries: 2 });
  if (servers) resolver.setServers(servers);
  return resolver;
}

const hostName = (name: string) => name.toLowerCase().replace(/\.$/, "");

/** No record of the kind, or no such name, is an answer; any other failure is not. */
async function answers(lookup: Promise<string[]>): Promise<string[]> {
  try {
    return (await lookup).map(hostName);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ENODATA" || code === "ENOTFOUND") return [];
    throw error;
  }
}

function finding(found: string[], expected: string[]): RecordFinding {
  const others = found.filter((value) => !expected.includes(value));
  if (others.length > 0) return { found: "other", values: others };
  // No address of a kind we do not serve (IPv6 unconfigured) is as it should be.
  if (found.length === 0 && expected.length > 0) return { found: "none" };
  return { found: "ours" };
}

async function lookUp(lookup: DnsLookup, target: HostingTarget, domain: string, now: Date): Promise<DomainCheck> {
  const www = `www.${domain}`;
  const [a, aaaa, cname] = await Promise.all([answers(lookup.resolve4(domain)), answers(lookup.resolve6(domain)), answers(lookup.resolveCname(www))]);
  // A `www` with our addresses of its own (some DNS hosts do not allow a CNAME there) serves as well as the CNAME.
  const wwwFinding = cname.length > 0 ? finding(cname, [target.wwwTarget ?? domain]) : finding(await answers(lookup.resolve4(www)), target.ipv4);
  const records = { a: finding(a, target.ipv4), aaaa: finding(aaaa, target.ipv6), www: wwwFinding };
  const pointed = Object.values(records).every((record) => record.found === "ours");
  return { outcome: pointed ? "pointed" : "not-pointed", checkedAt: now, records };
}

/**
 * Looks up where customers' domains point, for their website page only: each domain at most once
 * every few minutes per process (a bounded cache; a lookup in flight is shared), each check cut
 * short after a few seconds, and a failure answered as "unknown" rather than thrown.
 */
export function createDomainChecker(options: { target: HostingTarget | null; lookup: DnsLookup; clock?: () => Date; timeoutMs?: number }): DomainChecker {
  const { target, lookup } = options;
  const clock = options.clock ?? (() => new Date());
  const timeoutMs = options.timeoutMs ?? checkTimeoutMs;
  const cache = new Map<string, { until: number; result: Promise<DomainCheck> }>();

  async function fresh(domain: string, now: Date, activeTarget: HostingTarget): Promise<DomainCheck> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`The DNS lookup of ${domain} took longer than ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      return await Promise.race([lookUp(lookup, activeTarget, domain, now), timeout]);
    } catch {
      return { outcome: "unknown", checkedAt: now, records: null };
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    target,
    async check(domain) {
      if (!target) return null;
      const now = clock();
      const cached = cache.get(domain);
      cache.delete(domain);
      if (cached && cached.until > now.getTime()) {
        cache.set(domain, cached);
        return cached.result;
      }
      const result = fresh(domain, now, target);
      const entry = { until: now.getTime() + checkedTtlMs, result };
      cache.set(domain, entry);
      if (cache.size > cacheEntries) cache.delete(cache.keys().next().value as string);
      const done = await result;
      if (done.outcome === "unknown") entry.until = now.getTime() + failedTtlMs;
      return done;
    },
  };
}
