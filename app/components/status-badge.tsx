import type { ReactNode } from "react";
import type { OrderStatus, PaymentStatus, RefundStatus } from "../../common/order-statuses.ts";
import { stateLabels, type WebsiteState } from "../../common/website-states.ts";

export type BadgeTone = "success" | "warning" | "danger" | "info" | "neutral";

const toneClass: Record<BadgeTone, string> = {
  success: "bg-emerald-100 text-emerald-800 ring-emerald-600/20 dark:bg-emerald-900/60 dark:text-emerald-100 dark:ring-emerald-400/30",
  warning: "bg-amber-100 text-amber-900 ring-amber-600/20 dark:bg-amber-900/60 dark:text-amber-100 dark:ring-amber-400/30",
  danger: "bg-red-100 text-red-800 ring-red-600/20 dark:bg-red-900/60 dark:text-red-100 dark:ring-red-400/30",
  info: "bg-brand-100 text-brand-800 ring-brand-600/20 dark:bg-brand-900/70 dark:text-brand-100 dark:ring-brand-300/30",
  neutral: "bg-slate-100 text-slate-700 ring-slate-500/20 dark:bg-slate-800 dark:text-slate-200 dark:ring-slate-400/30",
};

const dotClass: Record<BadgeTone, string> = {
  success: "bg-emerald-600 dark:bg-emerald-300",
  warning: "bg-amber-500 dark:bg-amber-300",
  danger: "bg-red-600 dark:bg-red-300",
  info: "bg-brand-600 dark:bg-brand-300",
  neutral: "bg-slate-500 dark:bg-slate-400",
};

/** A coloured pill for a status; the word carries the meaning, the colour only repeats it. */
export function StatusBadge({ tone, children }: { tone: BadgeTone; children: ReactNode }) {
  return (
    <span
      className={`inline-flex w-fit items-center gap-1.5 whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset print:bg-transparent print:text-black print:ring-black/30 ${toneClass[tone]}`}
    >
      <span aria-hidden="true" className={`size-1.5 rounded-full ${dotClass[tone]}`} />
      {children}
    </span>
  );
}

export interface StatusLabel {
  label: string;
  tone: BadgeTone;
}

const orderLabels: Record<OrderStatus, StatusLabel> = {
  created: { label: "Awaiting payment", tone: "warning" },
  paid: { label: "Paid", tone: "success" },
  failed: { label: "Failed", tone: "danger" },
  cancelled: { label: "Cancelled", tone: "neutral" },
  refunded: { label: "Refunded", tone: "info" },
};

/** A refund under way outranks the order's own status: the buyer has already lost access. */
export function orderStatusLabel(order: { status: OrderStatus; refund: { status: RefundStatus } | null }): StatusLabel {
  if (order.refund && (order.refund.status === "requested" || order.refund.status === "pending")) {
    return { label: "Refund in progress", tone: "warning" };
  }
  // Paid, with part of it given back as goodwill (a whole refund makes the order refunded).
  if (order.status === "paid" && order.refund?.status === "processed") return { label: "Part refunded", tone: "info" };
  return orderLabels[order.status];
}

export function OrderStatusBadge({ order }: { order: { status: OrderStatus; refund: { status: RefundStatus } | null } }) {
  const { label, tone } = orderStatusLabel(order);
  return <StatusBadge tone={tone}>{label}</StatusBadge>;
}

const paymentLabels: Record<PaymentStatus, StatusLabel> = {
  authorized: { label: "Authorised", tone: "info" },
  captured: { label: "Successful", tone: "success" },
  failed: { label: "Failed", tone: "danger" },
  refunded: { label: "Refunded", tone: "neutral" },
};

export function PaymentStatusBadge({ status }: { status: PaymentStatus }) {
  const { label, tone } = paymentLabels[status];
  return <StatusBadge tone={tone}>{label}</StatusBadge>;
}

const refundLabels: Record<RefundStatus, StatusLabel> = {
  requested: { label: "Refund requested", tone: "warning" },
  pending: { label: "Refund pending with the bank", tone: "warning" },
  processed: { label: "Refunded", tone: "info" },
  failed: { label: "Refund failed", tone: "danger" },
};

export function RefundStatusBadge({ status }: { status: RefundStatus }) {
  const { label, tone } = refundLabels[status];
  return <StatusBadge tone={tone}>{label}</StatusBadge>;
}

export const websiteTones: Record<WebsiteState, BadgeTone> = {
  pending: "warning",
  active: "success",
  expiring: "warning",
  expired: "danger",
  suspended: "danger",
  cancelled: "neutral",
};

export function WebsiteStatusBadge({ state }: { state: WebsiteState }) {
  return <StatusBadge tone={websiteTones[state]}>{stateLabels[state]}</StatusBadge>;
}
