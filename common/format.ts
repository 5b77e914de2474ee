import type { Money } from "./view-types.ts";

const inr = new Intl.NumberFormat("en-IN", { style: "currency", currency: "INR", maximumFractionDigits: 0 });
const inrPaise = new Intl.NumberFormat("en-IN", { style: "currency", currency: "INR", minimumFractionDigits: 2 });

/** ₹4,999 for whole rupees, ₹4,999.50 otherwise. */
export function formatMoney(money: Money): string {
  const rupees = money.amount / 100;
  return Number.isInteger(rupees) ? inr.format(rupees) : inrPaise.format(rupees);
}

/** An amount in paise, as rupees: formatPaise(699_900) is "₹6,999". */
export function formatPaise(amount: number): string {
  return formatMoney({ amount, currency: "INR" });
}

/** An amount on an invoice: always with paise, so the columns line up (₹4,999.00). */
export function formatInvoiceAmount(amount: number): string {
  return inrPaise.format(amount / 100);
}

/** Paise from rupees as a person types them ("2000", "₹1,499.50"), or null when it is not an amount. */
export function parseRupees(typed: string): number | null {
  const plain = typed.replace(/[₹,\s]/g, "");
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(plain);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}

export function formatDuration(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h === 0) return `${m} min`;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
}

const dateFormat = new Intl.DateTimeFormat("en-IN", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

export function formatDate(iso: string): string {
  return dateFormat.format(new Date(iso));
}

export const levelLabel = { beginner: "Beginner", intermediate: "Intermediate", advanced: "Advanced" } as const;

export const intervalLabel = { month: "per month", year: "per year", once: "one-time" } as const;

export function initials(name: string): string {
  return name
    .split(/\s+/)
    .map((part) => part[0] ?? "")
    .join("")
    .slice(0, 2)
    .toUpperCase();
}

const indiaDay = new Intl.DateTimeFormat("en-IN", { day: "numeric", month: "long", year: "numeric", timeZone: "Asia/Kolkata" });
const indiaMoment = new Intl.DateTimeFormat("en-IN", { dateStyle: "medium", timeStyle: "short", timeZone: "Asia/Kolkata" });

/** The calendar day in India of a moment: "22 November 2026". */
export function formatDay(moment: Date | string): string {
  return indiaDay.format(new Date(moment));
}

/** The moment a calendar day in India ("2026-11-22") begins, or null when `day` is not one. */
export function indiaDayStart(day: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const start = new Date(`${day}T00:00:00+05:30`);
  // A day the calendar does not have (30 February) would roll over into the next month.
  const sameDay = !Number.isNaN(start.getTime()) && new Date(start.getTime() + 5.5 * 3600_000).toISOString().startsWith(day);
  return sameDay ? start : null;
}

/** A moment in Indian time: "22 Nov 2026, 6:30 pm". */
export function formatMoment(moment: Date | string): string {
  return indiaMoment.format(new Date(moment));
}

/** A count of days from today, as a person says it: "in 12 days", "tomorrow", "today", "3 days ago". */
export function relativeDays(days: number): string {
  if (days === 0) return "today";
  if (days === 1) return "tomorrow";
  if (days === -1) return "yesterday";
  return days > 0 ? `in ${days} days` : `${-days} days ago`;
}

/** A GST credit note's serial number: CN-000001. */
export function formatCreditNoteNumber(sequence: number): string {
  return `CN-${String(sequence).padStart(6, "0")}`;
}

/** The number printed on receipts: ACD-000042. */
export function formatOrderNumber(sequence: number): string {
  return `ACD-${String(sequence).padStart(6, "0")}`;
}
