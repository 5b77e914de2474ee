import { createHmac, timingSafeEqual } from "node:crypto";

function hmacHex(secret: string, data: string): string {
  return createHmac("sha256", secret).update(data).digest("hex");
}

function sameHex(expected: string, given: string): boolean {
  const a = Buffer.from(expected, "utf8");
  const b = Buffer.from(given, "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Razorpay's checkout signature: HMAC-SHA256 of `order_id|payment_id` with the key secret, in hex. */
export function paymentSignature(keySecret: string, orderId: string, paymentId: string): string {
  return hmacHex(keySecret, `${orderId}|${paymentId}`);
}

export function isValidPaymentSignature(keySecret: string, orderId: string, paymentId: string, signature: string): boolean {
  return sameHex(paymentSignature(keySecret, orderId, paymentId), signature);
}

/** Razorpay's webhook signature: HMAC-SHA256 of the raw request body with the webhook secret, in hex. */
export function webhookSignature(webhookSecret: string, rawBody: string): string {
  return hmacHex(webhookSecret, rawBody);
}

export function isValidWebhookSignature(webhookSecret: string, rawBody: string, signature: string): boolean {
  return sameHex(webhookSignature(webhookSecret, rawBody), signature);
}
