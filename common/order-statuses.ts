// The statuses an order, a payment and a refund go through: the database stores these words, and
// every screen names them.

export const orderStatuses = ["created", "paid", "failed", "cancelled", "refunded"] as const;
export type OrderStatus = (typeof orderStatuses)[number];

export const paymentStatuses = ["authorized", "captured", "failed", "refunded"] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

export const refundStatuses = ["requested", "pending", "processed", "failed"] as const;
export type RefundStatus = (typeof refundStatuses)[number];
