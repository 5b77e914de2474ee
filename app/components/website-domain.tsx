import type { DnsRecordToSet, DomainFindings, DomainOutcome, RecordFinding } from "../../common/domain-records.ts";
import { formatMoment } from "../../common/format.ts";
import { StatusBadge, type StatusLabel } from "./status-badge.tsx";
import { cardClass } from "./ui/card.tsx";
import { CopyButton } from "./ui/copy-button.tsx";

export interface DomainView {
  domain: string;
  /** Null when the records are not configured here: the customer writes to us for them. */
  records: DnsRecordToSet[] | null;
  check: { outcome: DomainOutcome; checkedAt: Date; records: DomainFindings | null } | null;
}

const outcomeLabels: Record<DomainOutcome, StatusLabel> = {
  pointed: { label: "Points at us", tone: "success" },
  "not-pointed": { label: "Not pointed at us yet", tone: "warning" },
  unknown: { label: "Not checked just now", tone: "neutral" },
};

function outcomeText(outcome: DomainOutcome, domain: string): string {
  if (outcome === "pointed") return `${domain} points at our servers: every record below is set.`;
  if (outcome === "unknown") return `We could not check ${domain}'s records just now. This page tries again in a minute; the records to set are below.`;
  return `Create the records below where ${domain}'s DNS is managed (usually the company you registered it with), and remove any other A, AAAA or www records. Changes can take up to 48 hours to reach everyone.`;
}

/** What a lookup found of one record, as the customer acts on it. */
function findingText(record: DnsRecordToSet, finding: RecordFinding): string {
  if (finding.found === "ours") return "Set";
  if (finding.found === "none") return "Not set yet";
  return `${record.name === "www" ? "www" : "The domain"} points at ${finding.values.join(", ")} now: change or remove that record.`;
}

/** The records that point a customer's domain at us, each with a copy button, and what the latest check found of them. */
export function WebsiteDomain({ domain, records, check }: DomainView) {
  const found = check?.records ?? null;
  // Addresses of a kind we serve none of (IPv6 unconfigured) have no row of their own to say so.
  const strayIpv6 = found?.aaaa.found === "other" && !records?.some((record) => record.type === "AAAA") ? found.aaaa.values : [];
  return (
    <section aria-labelledby="domain-heading" className={cardClass({ className: "mt-8 p-5" })}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="domain-heading" className="font-semibold text-slate-950 dark:text-white">
          Point your domain at us
        </h3>
        {check && <StatusBadge tone={outcomeLabels[check.outcome].tone}>{outcomeLabels[check.outcome].label}</StatusBadge>}
      </div>
      {records && check ? (
        <>
          <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">{outcomeText(check.outcome, domain)}</p>
          <ul className="mt-4 space-y-3">
            {records.map((record) => (
              <li key={`${record.type}-${record.value}`} className="rounded-xl bg-slate-50 p-3 text-sm dark:bg-slate-800/60">
                <dl className="grid grid-cols-[4.5rem_1fr] gap-x-3 gap-y-1">
                  <dt className="text-slate-600 dark:text-slate-400">Type</dt>
                  <dd className="font-medium text-slate-950 dark:text-white">{record.type}</dd>
                  <dt className="text-slate-600 dark:text-slate-400">Name</dt>
                  <dd className="font-mono text-slate-950 dark:text-white">{record.name}</dd>
                  <dt className="text-slate-600 dark:text-slate-400">Value</dt>
                  <dd className="flex flex-wrap items-center gap-x-3 gap-y-1">
                    <span className="break-all font-mono text-slate-950 dark:text-white">{record.value}</span>
                    <CopyButton value={record.value} label={`the ${record.type} record's value`} />
                  </dd>
                  {found && (
                    <>
                      <dt className="text-slate-600 dark:text-slate-400">Now</dt>
                      <dd className="text-slate-800 dark:text-slate-200">{findingText(record, found[record.finding])}</dd>
                    </>
                  )}
                </dl>
              </li>
            ))}
          </ul>
          {strayIpv6.length > 0 && (
            <p className="mt-3 text-sm text-slate-800 dark:text-slate-200">
              Remove {domain}&apos;s AAAA records too: they point at {strayIpv6.join(", ")}, and we serve no IPv6 address.
            </p>
          )}
          <p className="mt-3 text-xs text-slate-600 dark:text-slate-400">
            The name @ stands for {domain} itself; some DNS hosts want it left empty instead. Checked {formatMoment(check.checkedAt)}; this page looks again every five minutes.
          </p>
        </>
      ) : (
        <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">Write to us for the DNS records that point {domain} at our servers, and we will help you set them.</p>
      )}
    </section>
  );
}
