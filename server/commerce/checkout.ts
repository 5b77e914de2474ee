import { eq } from "drizzle-orm";
import { orders } from "../db/schema.ts";
import { NotFound, ValidationError } from "../errors.ts";
import { isValidPaymentSignature } from "../payments/signature.ts";
import { applyPayment, type PaymentOutcome } from "./fulfilment.ts";
import type { Order } from "./orders.ts";
import { refundUnprovidedHosting } from "./refunds.ts";
import type { Shop } from "./shop.ts";

/** What the provider's checkout posts back to our callback URL (Razorpay's field names). */
export type CheckoutResult =
  | { kind: "success"; orderId: string; paymentId: string; signature: string }
  | { kind: "failure"; orderId: string; paymentId: string | null };

async function orderByProviderId(shop: Shop, providerOrderId: string): Promise<Order> {
  const [order] = await shop.db.select().from(orders).where(eq(orders.providerOrderId, providerOrderId));
  if (!order) throw new NotFound("We could not find the order for this payment.");
  return order;
}

/**
 * The browser's return from checkout. It arrives without our session (the provider posts it from
 * its own site), so a success is trusted only with a valid signature, and a failure only after the
 * provider confirms the payment failed. Returns the order as it now stands.
 */
export async function completeCheckout(shop: Shop, result: CheckoutResult): Promise<{ order: Order; outcome: PaymentOutcome | "unconfirmed" }> {
  const order = await orderByProviderId(shop, result.orderId);
  if (result.kind === "success" && !isValidPaymentSignature(shop.provider.keySecret, result.orderId, result.paymentId, result.signature)) {
    throw new ValidationError("We could not verify this payment. If money left your account, it will be confirmed or returned automatically.");
  }
  if (!result.paymentId) return { order, outcome: "unconfirmed" };
  const payment = await shop.provider.fetchPayment(result.paymentId);
  if (payment.order_id !== result.orderId) throw new ValidationError("This payment belongs to a different order.");
  const outcome = await shop.db.transaction((tx) => applyPayment(tx, shop, payment));
  if (outcome === "fulfilled" || outcome === "not-provided") shop.mailQueued();
  if (outcome === "not-provided") await refundUnprovidedHosting(shop, result.orderId);
  const [current] = await shop.db.select().from(orders).where(eq(orders.id, order.id));
  return { order: current ?? order, outcome };
}
