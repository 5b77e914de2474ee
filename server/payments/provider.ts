/**
 * What the shop needs from a payment gateway, in Razorpay's terms and shapes: both providers
 * (Razorpay itself, and the sandbox that imitates it) answer with Razorpay's entities.
 */

/** Razorpay's payment entity, the fields we read. */
export interface ProviderPayment {
  id: string;
  order_id: string;
  amount: number;
  currency: string;
  status: "created" | "authorized" | "captured" | "refunded" | "failed";
  method: string;
  amount_refunded: number;
  error_code: string | null;
  error_description: string | null;
  error_source: string | null;
  error_step: string | null;
  error_reason: string | null;
  created_at: number;
}

/** Razorpay's refund entity, the fields we read. */
export interface ProviderRefund {
  id: string;
  payment_id: string;
  amount: number;
  currency: string;
  notes: Record<string, string>;
  status: "pending" | "processed" | "failed";
  created_at: number;
}

export interface ProviderOrder {
  id: string;
  amount: number;
  currency: string;
  receipt: string | null;
  status: "created" | "attempted" | "paid";
}

export interface CreateOrderInput {
  amount: number;
  currency: string;
  /** Our order id, shown in the provider's dashboard. */
  receipt: string;
  notes: Record<string, string>;
}

/** The gateway could not be reached or refused the request; nothing was charged by this call. */
export class ProviderError extends Error {
  override name = "ProviderError";
}

export interface PaymentProvider {
  kind: "razorpay" | "sandbox";
  /** The public key id the browser's checkout is opened with. */
  keyId: string;
  /** Signs checkout callbacks (`order_id|payment_id`). */
  keySecret: string;
  /** Signs webhook bodies. */
  webhookSecret: string;
  createOrder(input: CreateOrderInput): Promise<ProviderOrder>;
  fetchPayment(paymentId: string): Promise<ProviderPayment>;
  /** Every payment attempted for one of the provider's orders, oldest first. */
  fetchOrderPayments(providerOrderId: string): Promise<ProviderPayment[]>;
  /** A full refund of a captured payment; `notes.refund_id` carries our refund id back in webhooks. */
  refund(paymentId: string, input: { amount: number; notes: Record<string, string> }): Promise<ProviderRefund>;
}
