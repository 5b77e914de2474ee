import Razorpay from "razorpay";
import { ProviderError, type PaymentProvider, type ProviderOrder, type ProviderPayment, type ProviderRefund } from "./provider.ts";

export interface RazorpaySettings {
  keyId: string;
  keySecret: string;
  webhookSecret: string;
  /** https://api.razorpay.com; tests point it at a local server that answers as Razorpay does. */
  apiUrl: string;
}

interface AxiosLike {
  defaults: { baseURL: string; timeout: number };
  interceptors: { response: { use(onFulfilled: undefined, onRejected: (error: { response?: unknown; code?: string; message?: string }) => never): void } };
}

/** The SDK rejects with `{ statusCode, error: { code, description } }`; we keep the words. */
function providerError(cause: unknown): ProviderError {
  const detail = cause as { statusCode?: number; error?: { description?: string } } | undefined;
  const description = detail?.error?.description ?? (cause instanceof Error ? cause.message : "no answer");
  return new ProviderError(`Razorpay: ${detail?.statusCode ?? "network"} ${description}`, { cause });
}

async function call<T>(request: () => Promise<unknown>): Promise<T> {
  try {
    return (await request()) as T;
  } catch (cause) {
    throw providerError(cause);
  }
}

/** Razorpay's Orders, Payments and Refunds APIs through the official SDK. */
export function createRazorpayProvider(settings: RazorpaySettings): PaymentProvider {
  const client = new Razorpay({ key_id: settings.keyId, key_secret: settings.keySecret });
  // The SDK has no options for its host or a timeout (it would wait forever); its axios instance is `api.rq`.
  const http = (client.api as unknown as { rq: AxiosLike }).rq;
  http.defaults.baseURL = settings.apiUrl;
  http.defaults.timeout = 15_000;
  // Without a response the SDK's own error mapping throws a TypeError that hides the cause (refused, timed out).
  http.interceptors.response.use(undefined, (error: { response?: unknown; code?: string; message?: string }) => {
    error.response ??= { status: "network", data: { error: { description: `${error.code ?? ""} ${error.message ?? ""}`.trim() } } };
    throw error;
  });
  return {
    kind: "razorpay",
    keyId: settings.keyId,
    keySecret: settings.keySecret,
    webhookSecret: settings.webhookSecret,
    createOrder: (input) =>
      call<ProviderOrder>(() =>
        client.orders.create({ amount: input.amount, currency: input.currency, receipt: input.receipt, notes: input.notes }),
      ),
    fetchPayment: (paymentId) => call<ProviderPayment>(() => client.payments.fetch(paymentId)),
    // Razorpay answers with a collection, newest first.
    fetchOrderPayments: async (providerOrderId) =>
      (await call<{ items: ProviderPayment[] }>(() => client.orders.fetchPayments(providerOrderId))).items.toSorted((a, b) => a.created_at - b.created_at),
    refund: (paymentId, input) =>
      call<ProviderRefund>(() => client.payments.refund(paymentId, { amount: input.amount, speed: "normal", notes: input.notes })),
  };
}
