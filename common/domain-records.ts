// What the website page shows of a customer's DNS: the records to set and what a lookup found. The
// lookup itself is the server's (server/websites/domain-check.ts).

/** One kind of record as found: ours, absent, or pointing elsewhere (with what it points at). */
export type RecordFinding = { found: "ours" } | { found: "none" } | { found: "other"; values: string[] };

/** "unknown": the lookup failed or took too long, which says nothing about the domain. */
export type DomainOutcome = "pointed" | "not-pointed" | "unknown";

export interface DomainFindings {
  /** The domain's own A and AAAA records, and www's CNAME (or addresses). */
  a: RecordFinding;
  aaaa: RecordFinding;
  www: RecordFinding;
}

/** A record the customer creates where their domain's DNS is managed. */
export interface DnsRecordToSet {
  type: "A" | "AAAA" | "CNAME";
  /** "@" is the domain itself. */
  name: "@" | "www";
  value: string;
  /** Which finding tells whether it is set. */
  finding: keyof DomainFindings;
}
