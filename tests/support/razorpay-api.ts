// A local stand-in for api.razorpay.com in tests: the Orders, Payments and Refunds endpoints our
// provider calls, answering with Razorpay's entities and error bodies, plus controls a test uses
// to play the buyer (pay), Razorpay's back office (processRefund) and its webhook sender.
import { randomBytes, randomInt } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** Razorpay sends an empty JSON array, not an object, when an entity has no notes. */
export type Notes = Record<string, string> | never[];

export interface RazorpayOrder {
  id: string;
  entity: "order";
  amount: number;
  amount_paid: number;
  amount_due: number;
  currency: string;
  receipt: string | null;
  offer_id: null;
  status: "created" | "attempted" | "paid";
  attempts: number;
  notes: Notes;
  created_at: number;
}

export type PaymentMethod = "card" | "netbanking" | "wallet" | "upi";

export interface RazorpayPayment {
  id: string;
  entity: "payment";
  amount: number;
  currency: string;
  status: "captured" | "refunded" | "failed";
  order_id: string;
  invoice_id: null;
  international: boolean;
  method: PaymentMethod;
  amount_refunded: number;
  refund_status: "partial" | "full" | null;
  captured: boolean;
  description: string | null;
  card_id: string | null;
  bank: string | null;
  wallet: string | null;
  vpa: string | null;
  email: string;
  contact: string;
  notes: Notes;
  fee: number | null;
  tax: number | null;
  error_code: string | null;
  error_description: string | null;
  error_source: string | null;
  error_step: string | null;
  error_reason: string | null;
  acquirer_data: Record<string, string | null>;
  created_at: number;
}

export interface RazorpayRefund {
  id: string;
  entity: "refund";
  amount: number;
  currency: string;
  payment_id: string;
  notes: Notes;
  receipt: string | null;
  acquirer_data: { arn: string | null };
  created_at: number;
  batch_id: null;
  status: "pending" | "processed" | "failed";
  speed_processed: "normal" | "instant";
  speed_requested: "normal" | "optimum";
}

export interface RecordedRequest {
  method: string;
  /** Without the query string. */
  path: string;
  authorization: string | undefined;
  /** Parsed JSON; the raw text when it is not JSON. */
  body: unknown;
  /** The status we answered with. */
  status: number;
}

export interface FakeRazorpay {
  /** The base URL to give the provider as `apiUrl`. */
  url: string;
  requests: RecordedRequest[];
  /** The buyer completes checkout for a Razorpay order; a capture is automatic, as with Razorpay's default capture setting. */
  pay(orderId: string, attempt: { method: PaymentMethod; outcome: "captured" | "failed" }): RazorpayPayment;
  /** The bank confirms a pending refund. */
  processRefund(refundId: string): RazorpayRefund;
  /** A webhook body exactly as Razorpay builds one, to be signed with the webhook secret. */
  webhookBody(event: string, entities: { payment?: object; order?: object; refund?: object }): string;
  close(): Promise<void>;
}

const idAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** Razorpay's ids: a prefix and 14 base62 characters. */
function entityId(prefix: string): string {
  return `${prefix}_${Array.from(randomBytes(14), (b) => idAlphabet[b % idAlphabet.length]).join("")}`;
}

const digits = (count: number) => Array.from({ length: count }, () => randomInt(10)).join("");
const unixNow = () => Math.floor(Date.now() / 1000);

class RazorpayApiError extends Error {
  readonly status: number;
  readonly body: { error: Record<string, unknown> };
  constructor(status: number, error: Record<string, unknown>) {
    super(String(error.description));
    this.status = status;
    this.body = { error: { code: "BAD_REQUEST_ERROR", metadata: {}, ...error } };
  }
}

/** Razorpay's answer to a request it will not act on; descriptions follow its error index where it has one. */
function badRequest(description: string, extra: Record<string, unknown> = {}): RazorpayApiError {
  return new RazorpayApiError(400, {
    description,
    source: "business",
    step: "payment_initiation",
    reason: "input_validation_failed",
    ...extra,
  });
}

const unauthenticated = (description: string) =>
  new RazorpayApiError(401, { description, source: "NA", step: "NA", reason: "NA" });

function notesFrom(value: unknown): Notes {
  if (value === undefined || value === null) return [];
  if (typeof value !== "object" || Array.isArray(value)) throw badRequest("The notes field must be an object.", { field: "notes" });
  const entries = Object.entries(value);
  if (entries.length > 15) throw badRequest("Number of fields in notes should be less than or equal to 15", { field: "notes" });
  for (const [key, note] of entries) {
    if (typeof note !== "string" || note.length > 256) {
      throw badRequest(`notes.${key} must be a string of at most 256 characters.`, { field: "notes" });
    }
  }
  return entries.length === 0 ? [] : (Object.fromEntries(entries) as Record<string, string>);
}

function methodDetails(method: PaymentMethod): Pick<RazorpayPayment, "card_id" | "bank" | "wallet" | "vpa" | "acquirer_data"> {
  const none = { card_id: null, bank: null, wallet: null, vpa: null };
  switch (method) {
    case "card":
      return { ...none, card_id: entityId("card"), acquirer_data: { auth_code: digits(6) } };
    case "netbanking":
      return { ...none, bank: "HDFC", acquirer_data: { bank_transaction_id: digits(7) } };
    case "wallet":
      return { ...none, wallet: "paytm", acquirer_data: { transaction_id: null } };
    case "upi":
      return { ...none, vpa: "gaurav.kumar@exampleupi", acquirer_data: { rrn: digits(12), upi_transaction_id: null } };
  }
}

function found<T>(entity: T | undefined): T {
  if (!entity) throw badRequest("The id provided does not exist");
  return entity;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  let text = "";
  for await (const chunk of req) text += chunk;
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function jsonObject(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (body && typeof body === "object" && !Array.isArray(body)) return body as Record<string, unknown>;
  throw badRequest("The request body must be a JSON object.");
}

/** Not Razorpay's: lets a browser test pay an order as the buyer would in Checkout. */
export const testPayPath = "/__test/pay";

/** Starts the stand-in on `port` (default: a free one); it accepts only the given key pair, as HTTP Basic auth. */
export async function start(credentials: { keyId: string; keySecret: string; port?: number }): Promise<FakeRazorpay> {
  const orders = new Map<string, RazorpayOrder>();
  const payments = new Map<string, RazorpayPayment>();
  const refunds = new Map<string, RazorpayRefund>();
  const requests: RecordedRequest[] = [];
  const accountId = entityId("acc");

  function authenticate(header: string | undefined) {
    const encoded = header?.match(/^Basic (.+)$/)?.[1];
    const decoded = encoded ? Buffer.from(encoded, "base64").toString() : "";
    const split = decoded.indexOf(":");
    const keyId = split < 0 ? decoded : decoded.slice(0, split);
    if (keyId !== credentials.keyId) throw unauthenticated("The api key provided is invalid");
    if (decoded.slice(split + 1) !== credentials.keySecret) throw unauthenticated("Authentication failed");
  }

  function createOrder(body: Record<string, unknown>): RazorpayOrder {
    const { amount, currency, receipt } = body;
    if (amount === undefined) throw badRequest("The amount field is required.", { field: "amount" });
    if (typeof amount !== "number" || !Number.isInteger(amount)) throw badRequest("The amount must be an integer.", { field: "amount" });
    if (amount < 100) {
      throw badRequest("Order amount less than minimum amount allowed", {
        field: "amount",
        step: "order_creation",
        reason: "amount_less_than_minimum_amount",
      });
    }
    if (typeof currency !== "string" || !/^[A-Z]{3}$/.test(currency)) throw badRequest("Currency is not supported", { field: "currency" });
    if (receipt !== undefined && (typeof receipt !== "string" || receipt.length > 40)) {
      throw badRequest("The receipt may not be greater than 40 characters.", { field: "receipt" });
    }
    const order: RazorpayOrder = {
      id: entityId("order"),
      entity: "order",
      amount,
      amount_paid: 0,
      amount_due: amount,
      currency,
      receipt: receipt ?? null,
      offer_id: null,
      status: "created",
      attempts: 0,
      notes: notesFrom(body.notes),
      created_at: unixNow(),
    };
    orders.set(order.id, order);
    return order;
  }

  function refundPayment(paymentId: string, body: Record<string, unknown>): RazorpayRefund {
    const payment = found(payments.get(paymentId));
    if (!payment.captured) throw badRequest("Only captured payments can be refunded", { field: "payment_id" });
    const refundable = payment.amount - payment.amount_refunded;
    if (refundable === 0) throw badRequest("The payment has been fully refunded already");
    const amount = body.amount ?? refundable;
    if (typeof amount !== "number" || !Number.isInteger(amount) || amount < 100) {
      throw badRequest("The amount must be an integer of at least 100.", { field: "amount" });
    }
    if (amount > refundable) throw badRequest("The refund amount provided is greater than amount captured", { field: "amount" });
    const speed = body.speed ?? "normal";
    if (speed !== "normal" && speed !== "optimum") throw badRequest("The selected speed is invalid.", { field: "speed" });
    const receipt = body.receipt ?? null;
    if (receipt !== null && (typeof receipt !== "string" || receipt.length > 40)) {
      throw badRequest("The receipt may not be greater than 40 characters.", { field: "receipt" });
    }
    const refund: RazorpayRefund = {
      id: entityId("rfnd"),
      entity: "refund",
      amount,
      currency: payment.currency,
      payment_id: payment.id,
      notes: notesFrom(body.notes),
      receipt,
      acquirer_data: { arn: null },
      created_at: unixNow(),
      batch_id: null,
      status: "pending",
      speed_processed: speed === "optimum" ? "instant" : "normal",
      speed_requested: speed,
    };
    refunds.set(refund.id, refund);
    payment.amount_refunded += amount;
    const full = payment.amount_refunded === payment.amount;
    payment.refund_status = full ? "full" : "partial";
    if (full) payment.status = "refunded";
    return refund;
  }

  function answer(method: string, path: string, body: unknown): unknown {
    const parts = path.split("/").filter(Boolean);
    const route = `${method} /${parts.map((part, index) => (index === 2 ? ":id" : part)).join("/")}`;
    switch (route) {
      case "POST /v1/orders":
        return createOrder(jsonObject(body));
      case "GET /v1/orders/:id":
        return found(orders.get(parts[2] ?? ""));
      case "GET /v1/orders/:id/payments": {
        const order = found(orders.get(parts[2] ?? ""));
        const items = [...payments.values()].filter((payment) => payment.order_id === order.id).toReversed();
        return { entity: "collection", count: items.length, items };
      }
      case "GET /v1/payments/:id":
        return found(payments.get(parts[2] ?? ""));
      case "GET /v1/refunds/:id":
        return found(refunds.get(parts[2] ?? ""));
      case "POST /v1/payments/:id/refund":
        return refundPayment(parts[2] ?? "", jsonObject(body));
      default:
        throw new RazorpayApiError(404, { description: "The requested URL was not found on the server." });
    }
  }

  const control: Pick<FakeRazorpay, "pay" | "processRefund" | "webhookBody"> = {
    pay(orderId, attempt) {
      const order = orders.get(orderId);
      if (!order) throw new Error(`No Razorpay order ${orderId}`);
      if (order.status === "paid") throw new Error(`Razorpay order ${orderId} is already paid`);
      const captured = attempt.outcome === "captured";
      const fee = Math.round(order.amount * 0.02);
      const payment: RazorpayPayment = {
        id: entityId("pay"),
        entity: "payment",
        amount: order.amount,
        currency: order.currency,
        status: captured ? "captured" : "failed",
        order_id: order.id,
        invoice_id: null,
        international: false,
        method: attempt.method,
        amount_refunded: 0,
        refund_status: null,
        captured,
        description: null,
        ...methodDetails(attempt.method),
        email: "gaurav.kumar@example.com",
        contact: "+919000090000",
        notes: [],
        // Razorpay's fee includes 18% GST on it, which `tax` shows separately.
        fee: captured ? fee + Math.round(fee * 0.18) : null,
        tax: captured ? Math.round(fee * 0.18) : null,
        error_code: captured ? null : "BAD_REQUEST_ERROR",
        error_description: captured ? null : "Your payment could not be completed as it was declined by your bank.",
        error_source: captured ? null : "bank",
        error_step: captured ? null : "payment_authorization",
        error_reason: captured ? null : "payment_failed",
        created_at: unixNow(),
      };
      payments.set(payment.id, payment);
      order.attempts += 1;
      if (captured) Object.assign(order, { status: "paid", amount_paid: order.amount, amount_due: 0 });
      else order.status = "attempted";
      return structuredClone(payment);
    },
    processRefund(refundId) {
      const refund = refunds.get(refundId);
      if (!refund) throw new Error(`No Razorpay refund ${refundId}`);
      Object.assign(refund, { status: "processed", acquirer_data: { arn: digits(14) } });
      return structuredClone(refund);
    },
    webhookBody(event, entities) {
      const payload = Object.fromEntries(Object.entries(entities).map(([name, entity]) => [name, { entity }]));
      return JSON.stringify({ entity: "event", account_id: accountId, event, contains: Object.keys(entities), payload, created_at: unixNow() });
    },
  };

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? "GET";
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    const body = await readBody(req);
    let status = 200;
    let payload: unknown;
    try {
      if (method === "POST" && path === testPayPath) {
        // Stands in for the buyer in Razorpay Checkout, for browser tests that cannot reach it.
        const { order_id, method: paidWith, outcome } = jsonObject(body) as { order_id: string; method: PaymentMethod; outcome: "captured" | "failed" };
        payload = control.pay(order_id, { method: paidWith, outcome });
      } else {
        authenticate(req.headers.authorization);
        payload = answer(method, path, body);
      }
    } catch (error) {
      // A fault in this stand-in answers as Razorpay's own outages do, with the cause shown.
      const refused =
        error instanceof RazorpayApiError ? error : new RazorpayApiError(500, { code: "SERVER_ERROR", description: String(error) });
      status = refused.status;
      payload = refused.body;
    }
    requests.push({ method, path, authorization: req.headers.authorization, body, status });
    res.writeHead(status, { "Content-Type": "application/json; charset=UTF-8" });
    res.end(JSON.stringify(payload));
  });

  await new Promise<void>((resolve) => server.listen(credentials.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    ...control,
    close() {
      server.closeAllConnections();
      return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

// `node tests/support/razorpay-api.ts`: run it on its own for the browser tests of the Razorpay provider.
if (import.meta.main) {
  const fake = await start({
    keyId: process.env.RAZORPAY_KEY_ID ?? "",
    keySecret: process.env.RAZORPAY_KEY_SECRET ?? "",
    port: Number(process.env.RAZORPAY_FAKE_PORT ?? 4330),
  });
  process.stdout.write(`Razorpay stand-in at ${fake.url}\n`);
}
