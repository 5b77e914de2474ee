import { formatDay, relativeDays } from "../../common/format.ts";

interface WebsiteSummary {
  state: string;
  expiresAt: Date | null;
  daysLeft: number | null;
  suspendsAt: Date | null;
}

/** "Expires 30 June 2026 · in 12 days", or what a site without an expiry is waiting for. */
export function ExpiryText({ site }: { site: WebsiteSummary }) {
  if (site.state === "cancelled") return <>{site.expiresAt ? `Cancelled: runs until ${formatDay(site.expiresAt)}, then stops` : "Cancelled before it started"}</>;
  if (!site.expiresAt || site.daysLeft === null) return <>Not started: the first payment is not complete</>;
  if (site.state === "expired" && site.suspendsAt) {
    return (
      <>
        Expired {formatDay(site.expiresAt)} · suspended on {formatDay(site.suspendsAt)} unless renewed
      </>
    );
  }
  return (
    <>
      {site.daysLeft > 0 ? "Expires" : "Expired"} {formatDay(site.expiresAt)} · {relativeDays(site.daysLeft)}
    </>
  );
}
