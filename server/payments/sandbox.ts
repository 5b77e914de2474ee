import { randomBytes, randomUUID } from "node:crypto";
import { and, asc, eq, inArray, isNull, lte, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { sandboxOrders, sandboxPayments, sandboxRefunds, sandboxWebhooks } from "../db/schema.ts";
import { inRounds } from "../jobs/rounds.ts";
import type { Logger } from "../logger.ts";
import { ProviderError, type PaymentProvider, type ProviderOrder, type ProviderPayment, type ProviderRefund } from "./provider.ts";
import { paymentSignature, webhookSignature } from "./signature.ts";

/** Ids the sandbox hands out (`order_…`, `pay_…`) are letters, digits and underscores; anything else names nothing. */
const isEntityId = (id: string) => /^\w{1,64}$/.test(id);

/**
 * A local stand-in for Razorpay: it keeps its own books in sandbox_* tables (so, like Razorpay,
 * it outlives our process), answers with Razorpay's entities, signs checkout callbacks and
 * webhooks with Razorpay's algorithms, and delivers webhooks at least once, late, out of order
 * and twice, so the real code paths for all of that run on every purchase.
 */

const idAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** Razorpay-shaped ids: a prefix and 14 base62 characters. */
function entityId(prefix: "order" | "pay" | "rfnd"): string {
  const bytes = randomBytes(14);
  return `${prefix}_${Array.from(bytes, (b) => idAlphabet[b % idAlphabet.length]).join("")}`;
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

type SandboxPaymentRow = typeof sandboxPayments.$inferSelect;
type SandboxOrderRow = typeof sandboxOrders.$inferSelect;

function paymentEntity(row: SandboxPaymentRow): ProviderPayment & { entity: "payment"; captured: boolean } {
  return {
    id: row.id,
    entity: "payment",
    order_id: row.orderId,
    amount: row.amount,
    currency: row.currency,
    status: row.status,
    method: row.method,
    captured: row.status === "captured" || row.status === "refunded",
    amount_refunded: row.amountRefunded,
    error_code: row.errorCode,
    error_description: row.errorDescription,
    error_source: row.errorSource,
    error_step: row.errorStep,
    error_reason: row.errorReason,
    created_at: seconds(row.createdAt),
  };
}

function orderEntity(row: SandboxOrderRow): ProviderOrder & Record<string, unknown> {
  return {
    id: row.id,
    entity: "order",
    amount: row.amount,
    amount_paid: row.status === "paid" ? row.amount : 0,
    amount_due: row.status === "paid" ? 0 : row.amount,
    currency: row.currency,
    receipt: row.receipt,
    status: row.status,
    attempts: row.attempts,
    notes: row.notes,
    created_at: seconds(row.createdAt),
  };
}

function refundEntity(row: typeof sandboxRefunds.$inferSelect): ProviderRefund & { entity: "refund" } {
  return {
    id: row.id,
    entity: "refund",
    payment_id: row.paymentId,
    amount: row.amount,
    currency: row.currency,
    notes: row.notes,
    status: row.status,
    created_at: seconds(row.createdAt),
  };
}

type Entities = { payment?: object; order?: object; refund?: object };

/** A webhook body exactly as Razorpay builds one. */
function eventBody(event: string, entities: Entities, now: Date): string {
  const payload = Object.fromEntries(Object.entries(entities).map(([name, entity]) => [name, { entity }]));
  return JSON.stringify({
    entity: "event",
    account_id: "acc_SandboxAcademy01",
    event,
    contains: Object.keys(entities),
    payload,
    created_at: seconds(now),
  });
}

type Queue = { event: string; entities: Entities; delayMs: number; copies?: number };

export type SandboxOutcome = "pay" | "decline";
export const sandboxMethods = ["upi", "card", "netbanking", "wallet"] as const;
export type SandboxMethod = (typeof sandboxMethods)[number];

/** The fields the checkout posts to the merchant's callback URL, as Razorpay's redirect mode does. */
export type CallbackFields = Record<string, string>;

/** Queues webhooks; `copies` > 1 redelivers one event under the same event id, as Razorpay does. */
async function queue(tx: Pick<Db, "insert">, now: Date, items: Queue[]): Promise<void> {
  for (const item of items) {
    const body = eventBody(item.event, item.entities, now);
    const eventId = `evt_${randomUUID().replaceAll("-", "").slice(0, 14)}`;
    for (let copy = 0; copy < (item.copies ?? 1); copy++) {
      await tx.insert(sandboxWebhooks).values({
        eventId,
        event: item.event,
        body,
        deliverAt: new Date(now.getTime() + item.delayMs + copy * 400),
      });
    }
  }
}

export interface SandboxGateway extends PaymentProvider {
  kind: "sandbox";
  findOrder(orderId: string): Promise<ProviderOrder & { notes: Record<string, string> } | null>;
  /** The buyer presses "Pay" or "Decline" on the sandbox checkout page. */
  pay(orderId: string, choice: { outcome: SandboxOutcome; method: SandboxMethod }): Promise<CallbackFields>;
  /** Sends the webhooks that are due; returns how many were answered 2xx. */
  deliverDueWebhooks(deliver: (request: Request) => Promise<Response>, webhookUrl: string): Promise<number>;
  /** Milliseconds until the next undelivered webhook falls due (0 or less: due now), by the database's clock; null when none waits. */
  nextWebhookDueIn(): Promise<number | null>;
  /** Calls `listener` after each payment or refund that queued webhooks has committed. */
  onQueued(listener: () => void): void;
}

const nothing = (): void => {};

export function createSandboxGateway(db: Db, secrets: { keySecret: string; webhookSecret: string }): SandboxGateway {
  let queued: () => void = nothing;
  return {
    kind: "sandbox",
    keyId: "rzp_test_sandbox",
    keySecret: secrets.keySecret,
    webhookSecret: secrets.webhookSecret,

    async createOrder(input) {
      const [row] = await db
        .insert(sandboxOrders)
        .values({ id: entityId("order"), amount: input.amount, currency: input.currency, receipt: input.receipt, notes: input.notes })
        .returning();
      if (!row) throw new ProviderError("The sandbox could not create the order.");
      return orderEntity(row);
    },

    async fetchPayment(paymentId) {
      const [row] = await db.select().from(sandboxPayments).where(eq(sandboxPayments.id, paymentId));
      if (!row) throw new ProviderError("The id provided does not exist");
      return paymentEntity(row);
    },

    async fetchOrderPayments(providerOrderId) {
      const rows = await db.select().from(sandboxPayments).where(eq(sandboxPayments.orderId, providerOrderId)).orderBy(asc(sandboxPayments.createdAt), asc(sandboxPayments.id));
      return rows.map(paymentEntity);
    },

    async refund(paymentId, input) {
      const made = await db.transaction(async (tx) => {
        const [payment] = await tx.select().from(sandboxPayments).where(eq(sandboxPayments.id, paymentId)).for("update");
        if (!payment) throw new ProviderError("The id provided does not exist");
        if (payment.status !== "captured") throw new ProviderError("The payment has been fully refunded already or is not captured");
        if (input.amount > payment.amount - payment.amountRefunded) throw new ProviderError("The refund amount is more than the amount captured");
        const now = new Date();
        const [refund] = await tx
          .insert(sandboxRefunds)
          .values({ id: entityId("rfnd"), paymentId, amount: input.amount, currency: payment.currency, notes: input.notes })
          .returning();
        const refunded = payment.amountRefunded + input.amount;
        const [updated] = await tx
          .update(sandboxPayments)
          .set({ amountRefunded: refunded, status: refunded === payment.amount ? "refunded" : payment.status })
          .where(eq(sandboxPayments.id, paymentId))
          .returning();
        if (!refund || !updated) throw new ProviderError("The sandbox could not record the refund.");
        const processed = { ...refundEntity(refund), status: "processed" as const, speed_processed: "normal" };
        await tx.update(sandboxRefunds).set({ status: "processed" }).where(eq(sandboxRefunds.id, refund.id));
        // Banks take days; the sandbox takes two seconds, and says so only by webhook.
        await queue(tx, now, [{ event: "refund.processed", entities: { refund: processed, payment: paymentEntity(updated) }, delayMs: 2000 }]);
        return refundEntity(refund);
      });
      queued();
      return made;
    },

    async findOrder(orderId) {
      if (!isEntityId(orderId)) return null;
      const [row] = await db.select().from(sandboxOrders).where(eq(sandboxOrders.id, orderId));
      return row ? { ...orderEntity(row), notes: row.notes } : null;
    },

    async pay(orderId, choice) {
      if (!isEntityId(orderId)) throw new ProviderError("The id provided does not exist");
      const fields = await db.transaction(async (tx): Promise<CallbackFields> => {
        const [order] = await tx.select().from(sandboxOrders).where(eq(sandboxOrders.id, orderId)).for("update");
        if (!order) throw new ProviderError("The id provided does not exist");
        const now = new Date();
        if (order.status === "paid") {
          // A second press after paying: Razorpay would not take the money twice either.
          const [paid] = await tx
            .select()
            .from(sandboxPayments)
            .where(and(eq(sandboxPayments.orderId, orderId), eq(sandboxPayments.status, "captured")));
          if (!paid) throw new ProviderError("The order is paid but its payment is missing");
          return { razorpay_payment_id: paid.id, razorpay_order_id: orderId, razorpay_signature: paymentSignature(secrets.keySecret, orderId, paid.id) };
        }
        const declined = choice.outcome === "decline";
        const [payment] = await tx
          .insert(sandboxPayments)
          .values({
            id: entityId("pay"),
            orderId,
            amount: order.amount,
            currency: order.currency,
            method: choice.method,
            status: declined ? "failed" : "captured",
            ...(declined && {
              errorCode: "BAD_REQUEST_ERROR",
              errorDescription: "Your payment has been declined by your bank. Please try again or use another payment method.",
              errorSource: "bank",
              errorStep: "payment_authorization",
              errorReason: "payment_failed",
            }),
          })
          .returning();
        if (!payment) throw new ProviderError("The sandbox could not record the payment.");
        const [updatedOrder] = await tx
          .update(sandboxOrders)
          .set({ status: declined ? "attempted" : "paid", attempts: sql`${sandboxOrders.attempts} + 1` })
          .where(eq(sandboxOrders.id, orderId))
          .returning();
        const entity = paymentEntity(payment);
        if (declined) {
          await queue(tx, now, [{ event: "payment.failed", entities: { payment: entity }, delayMs: 300 }]);
          return {
            "error[code]": entity.error_code ?? "",
            "error[description]": entity.error_description ?? "",
            "error[source]": entity.error_source ?? "",
            "error[step]": entity.error_step ?? "",
            "error[reason]": entity.error_reason ?? "",
            "error[metadata]": JSON.stringify({ payment_id: entity.id, order_id: orderId }),
          };
        }
        const authorized = { ...entity, status: "authorized" as const, captured: false };
        await queue(tx, now, [
          // Captured first, delivered twice with one event id; "authorized" arrives after it; order.paid comes late.
          { event: "payment.captured", entities: { payment: entity }, delayMs: 300, copies: 2 },
          { event: "payment.authorized", entities: { payment: authorized }, delayMs: 1200 },
          { event: "order.paid", entities: { payment: entity, order: orderEntity(updatedOrder ?? order) }, delayMs: 3000 },
        ]);
        return { razorpay_payment_id: entity.id, razorpay_order_id: orderId, razorpay_signature: paymentSignature(secrets.keySecret, orderId, entity.id) };
      });
      queued();
      return fields;
    },

    async deliverDueWebhooks(deliver, webhookUrl) {
      // Lease due deliveries for 30 s instead of holding a transaction while our handler runs;
      // a crash leaves them to be retried once the lease runs out.
      const due = await db
        .update(sandboxWebhooks)
        .set({ deliverAt: sql`now() + interval '30 seconds'`, attempts: sql`${sandboxWebhooks.attempts} + 1` })
        .where(
          inArray(
            sandboxWebhooks.id,
            db
              .select({ id: sandboxWebhooks.id })
              .from(sandboxWebhooks)
              .where(and(isNull(sandboxWebhooks.deliveredAt), lte(sandboxWebhooks.deliverAt, sql`now()`)))
              .orderBy(asc(sandboxWebhooks.deliverAt))
              .limit(20)
              .for("update", { skipLocked: true }),
          ),
        )
        .returning();
      let delivered = 0;
      for (const hook of due.toSorted((a, b) => a.deliverAt.getTime() - b.deliverAt.getTime())) {
        let error: string | null = null;
        try {
          const response = await deliver(
            new Request(webhookUrl, {
              method: "POST",
              headers: {
                "Content-Type": "application/json",
                "X-Razorpay-Signature": webhookSignature(secrets.webhookSecret, hook.body),
                "X-Razorpay-Event-Id": hook.eventId,
                "User-Agent": "Razorpay-Webhook/v1 (Academy sandbox)",
              },
              body: hook.body,
            }),
          );
          if (!response.ok) error = `HTTP ${response.status}: ${(await response.text()).slice(0, 200)}`;
        } catch (cause) {
          error = (cause as Error).message.slice(0, 200);
        }
        if (error === null) {
          delivered += 1;
          await db.update(sandboxWebhooks).set({ deliveredAt: sql`now()`, lastError: null }).where(eq(sandboxWebhooks.id, hook.id));
        } else {
          const backoffSeconds = Math.min(2 ** hook.attempts, 300);
          await db
            .update(sandboxWebhooks)
            .set({ lastError: error, deliverAt: sql`now() + make_interval(secs => ${backoffSeconds})` })
            .where(eq(sandboxWebhooks.id, hook.id));
        }
      }
      return delivered;
    },

    async nextWebhookDueIn() {
      const [next] = await db
        .select({ inMs: sql<number | null>`(extract(epoch from min(${sandboxWebhooks.deliverAt}) - now()) * 1000)::float8` })
        .from(sandboxWebhooks)
        .where(isNull(sandboxWebhooks.deliveredAt));
      return next?.inMs ?? null;
    },

    onQueued(listener) {
      queued = listener;
    },
  };
}

export interface SandboxWebhookWorker {
  stop(): Promise<void>;
}

/**
 * Delivers the sandbox's webhooks as each falls due, woken by the payments and refunds that queue
 * them, and looks every `idleMs` for any queued elsewhere (another process, a crash before delivery).
 */
export function startSandboxWebhooks(options: {
  gateway: SandboxGateway;
  deliver: (request: Request) => Promise<Response>;
  webhookUrl: string;
  logger: Logger;
  idleMs?: number;
}): SandboxWebhookWorker {
  const { gateway, logger } = options;
  const idleMs = options.idleMs ?? 10_000;
  let timer: NodeJS.Timeout | undefined;
  const rounds = inRounds(async () => {
    let nextInMs = idleMs;
    try {
      await gateway.deliverDueWebhooks(options.deliver, options.webhookUrl);
      nextInMs = (await gateway.nextWebhookDueIn()) ?? idleMs;
    } catch (error) {
      logger.error({ err: error }, "sandbox webhook delivery failed");
    }
    clearTimeout(timer);
    // A floor, so a row another process holds while it delivers is not asked about in a busy loop.
    timer = setTimeout(rounds.run, Math.min(idleMs, Math.max(50, nextInMs)));
    timer.unref();
    return false;
  });

  gateway.onQueued(rounds.run);
  rounds.run();
  return {
    async stop() {
      await rounds.stop();
      clearTimeout(timer);
    },
  };
}
