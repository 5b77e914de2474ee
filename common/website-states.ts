// A hosted website's states and how every page and mail names them; the rules that decide a
// state are the server's (server/websites/rules.ts).

export type WebsiteState = "pending" | "active" | "expiring" | "expired" | "suspended" | "cancelled";

export const stateLabels: Record<WebsiteState, string> = {
  pending: "Awaiting payment",
  active: "Active",
  expiring: "Expiring soon",
  expired: "Expired: renew now",
  suspended: "Suspended",
  cancelled: "Cancelled",
};

/** A website not paid for this many days after it was last started is removed by the hourly clean-up. */
export const unpaidWebsiteDays = 7;
