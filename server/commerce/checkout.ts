import { eq } from "drizzle-orm";
import type { OrderStatus } from "../../common/order-statuses.ts";
import { orders } from "../db/schema.ts";
import { NotFound, ServiceUnavailable, ValidationError } from "../errors.ts";
import { ProviderError, type ProviderPayment } from "../payments/provider.ts";
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
  const outcome = await settlePayment(shop, payment);
  const [current] = await shop.db.select().from(orders).where(eq(orders.id, order.id));
  return { order: current ?? order, outcome };
}

/** Applies what the provider says about one payment, then sends what it queued: the receipt, or the refund of hosting that could not start. */
async function settlePayment(shop: Shop, payment: ProviderPayment): Promise<PaymentOutcome> {
  const outcome = await shop.db.transaction((tx) => applyPayment(tx, shop, payment));
  if (outcome === "fulfilled" || outcome === "not-provided") shop.mailQueued();
  if (outcome === "not-provided") await refundUnprovidedHosting(shop, payment.order_id);
  return outcome;
}

/** What asking the provider about an order found, and the order's status before and after. */
export interface ProviderCheck {
  before: OrderStatus;
  after: OrderStatus;
  payments: { id: string; status: ProviderPayment["status"]; amount: number; method: string; outcome: PaymentOutcome }[];
}

/**
 * Asks the provider for every payment made against `orderId` and applies each as its webhook would
 * have: the fix for "I paid but nothing happened" when both the buyer's return and the webhooks were
 * lost. A captured payment fulfils the order exactly once however often this runs, and beside a
 * callback or webhook arriving at the same moment (applyPayment locks the order).
 */
export async function checkWithProvider(shop: Shop, orderId: string): Promise<ProviderCheck> {
  const [order] = await shop.db.select().from(orders).where(eq(orders.id, orderId));
  if (!order) throw new NotFound("No order has this id.");
  if (!order.providerOrderId) throw new ValidationError("This order was not paid through a payment provider: there is nothing to check.");
  let found: ProviderPayment[];
  try {
    found = await shop.provider.fetchOrderPayments(order.providerOrderId);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    shop.logger.warn({ err: error, orderId }, "could not ask the payment provider about an order");
    throw new ServiceUnavailable("The payment provider did not answer, so nothing changed. Try again in a minute.");
  }
  const settled: ProviderCheck["payments"] = [];
  for (const payment of found) {
    settled.push({ id: payment.id, status: payment.status, amount: payment.amount, method: payment.method, outcome: await settlePayment(shop, payment) });
  }
  const [after] = await shop.db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId));
  return { before: order.status, after: after?.status ?? order.status, payments: settled };
}
