import { z } from "zod";

const payment = z.object({
  id: z.string().min(1),
  entity: z.literal("payment"),
  order_id: z.string().min(1),
  amount: z.number().int().nonnegative(),
  currency: z.string().length(3),
  status: z.enum(["created", "authorized", "captured", "refunded", "failed"]),
  method: z.string().default("unknown"),
  amount_refunded: z.number().int().nonnegative().default(0),
  error_code: z.string().nullable().default(null),
  error_description: z.string().nullable().default(null),
  error_source: z.string().nullable().default(null),
  error_step: z.string().nullable().default(null),
  error_reason: z.string().nullable().default(null),
  created_at: z.number().int(),
});

const refund = z.object({
  id: z.string().min(1),
  entity: z.literal("refund"),
  payment_id: z.string().min(1),
  amount: z.number().int().nonnegative(),
  currency: z.string().length(3),
  // Razorpay sends an empty array, not an object, when a refund has no notes.
  notes: z.union([z.record(z.string(), z.string()), z.array(z.never()).transform(() => ({}))]).default({}),
  status: z.enum(["pending", "processed", "failed"]),
  created_at: z.number().int(),
});

/** A Razorpay webhook body, the events and fields we act on; anything else passes through unread. */
export const webhookEvent = z.object({
  entity: z.literal("event"),
  event: z.string().min(1),
  contains: z.array(z.string()).default([]),
  payload: z.object({
    payment: z.object({ entity: payment }).optional(),
    refund: z.object({ entity: refund }).optional(),
  }),
  created_at: z.number().int(),
});

export type WebhookEvent = z.infer<typeof webhookEvent>;
