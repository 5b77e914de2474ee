import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { webhookEvents } from "../db/schema.ts";
import { webhookEvent } from "../payments/events.ts";
import { isValidWebhookSignature } from "../payments/signature.ts";
import { applyPayment } from "./fulfilment.ts";
import { applyRefund, refundUnprovidedHosting } from "./refunds.ts";
import type { Shop, Tx } from "./shop.ts";

export interface WebhookDelivery {
  rawBody: string;
  signature: string | undefined;
  /** `x-razorpay-event-id`: the same for every redelivery of one event. */
  eventId: string | undefined;
}

export interface WebhookAnswer {
  status: 200 | 400;
  message: string;
}

/**
 * One webhook delivery. The signature is checked on the raw body before anything is parsed; each
 * event is handled once (by event id) in one transaction with what it changes, so a crash
 * half-way leaves nothing and the provider's redelivery starts afresh. Events may come in any
 * order. Errors other than bad input propagate (a 5xx), which makes the provider retry.
 */
export async function handleWebhook(shop: Shop, delivery: WebhookDelivery): Promise<WebhookAnswer> {
  if (!delivery.signature || !isValidWebhookSignature(shop.provider.webhookSecret, delivery.rawBody, delivery.signature)) {
    return { status: 400, message: "Invalid webhook signature." };
  }
  let json: unknown;
  try {
    json = JSON.parse(delivery.rawBody);
  } catch {
    return { status: 400, message: "The body is not JSON." };
  }
  const parsed = webhookEvent.safeParse(json);
  if (!parsed.success) return { status: 400, message: "The body is not a webhook event we understand." };
  const event = parsed.data;
  const eventId = delivery.eventId || `sha256:${createHash("sha256").update(delivery.rawBody).digest("hex")}`;

  const payment = event.payload.payment?.entity;
  const refund = event.payload.refund?.entity;
  /** What the event changes, in the transaction that records it. */
  const handle = async (tx: Tx): Promise<{ message: string; mail: boolean; refundOrder?: string }> => {
    switch (event.event) {
      case "payment.authorized":
      case "payment.captured":
      case "payment.failed":
      case "order.paid": {
        if (!payment) return { message: "No payment in this event.", mail: false };
        const outcome = await applyPayment(tx, shop, payment);
        if (outcome === "not-provided") return { message: outcome, mail: true, refundOrder: payment.order_id };
        return { message: outcome, mail: outcome === "fulfilled" };
      }
      case "refund.processed":
      case "refund.failed": {
        if (!refund) return { message: "No refund in this event.", mail: false };
        const outcome = await applyRefund(tx, shop, refund);
        return { message: outcome, mail: outcome === "processed" };
      }
      default:
        return { message: `Ignored ${event.event}.`, mail: false };
    }
  };
  const { message, mail, refundOrder } = await shop.db.transaction(async (tx): Promise<{ message: string; mail: boolean; refundOrder?: string }> => {
    const [fresh] = await tx
      .insert(webhookEvents)
      .values({ id: eventId, event: event.event, providerOrderId: payment?.order_id ?? null, providerPaymentId: payment?.id ?? refund?.payment_id ?? null })
      .onConflictDoNothing()
      .returning();
    if (!fresh) return { message: "Already handled.", mail: false };
    const handled = await handle(tx);
    await tx.update(webhookEvents).set({ outcome: handled.message }).where(eq(webhookEvents.id, eventId));
    return handled;
  });
  if (mail) shop.mailQueued();
  if (refundOrder) await refundUnprovidedHosting(shop, refundOrder);
  return { status: 200, message };
}
