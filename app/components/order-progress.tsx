import { useCallback } from "react";
import { Form, useNavigation, useSubmit } from "react-router";
import type { OrderStatus } from "../../common/order-statuses.ts";
import { useReloadWhile } from "../lib/use-reload-while.ts";
import { FormAlert } from "./form-alert.tsx";

interface OrderProgress {
  id: string;
  number: string;
  status: OrderStatus;
  failureReason: string | null;
}

/** What a checkout page says about its action's error and the order it is showing. */
export function OrderAlerts({ error, order, waiting }: { error: string | null; order: OrderProgress | null; waiting: boolean }) {
  return (
    <div className="mt-4 space-y-3" aria-live="polite">
      {error && <FormAlert>{error}</FormAlert>}
      {order?.status === "failed" && <FormAlert>{order.failureReason ?? "The payment did not go through. Nothing was charged."}</FormAlert>}
      {order?.status === "cancelled" && <FormAlert tone="info">{order.failureReason ?? "This order was cancelled. Nothing was charged."}</FormAlert>}
      {order?.status === "refunded" && <FormAlert tone="info">Order {order.number} was refunded.</FormAlert>}
      {waiting && order && (
        <FormAlert tone="info">We are waiting for the payment provider to confirm order {order.number}. This page updates by itself.</FormAlert>
      )}
    </div>
  );
}

/** "Cancel this order", for an order still waiting for the provider. */
export function CancelOrderForm({ orderId, className = "" }: { orderId: string; className?: string }) {
  return (
    <Form method="post" className="mt-3">
      <input type="hidden" name="intent" value="cancel" />
      <input type="hidden" name="orderId" value={orderId} />
      <button
        type="submit"
        className={`text-sm font-medium text-slate-600 underline underline-offset-2 hover:text-slate-950 dark:text-slate-400 dark:hover:text-white ${className}`}
      >
        Cancel this order
      </button>
    </Form>
  );
}

/**
 * A checkout page's state: whether its form is posting, how closing the provider's checkout cancels
 * the order, and whether a payment is still being settled, in which case the page looks again every
 * two seconds for a minute (the provider tells us within seconds).
 */
export function useCheckout(checkout: { orderId: string } | null, order: OrderProgress | null) {
  const navigation = useNavigation();
  const submit = useSubmit();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const dismiss = useCallback(() => {
    if (checkout) void submit({ intent: "cancel", orderId: checkout.orderId }, { method: "post" });
  }, [checkout, submit]);
  const waiting = order?.status === "created" && !checkout;
  useReloadWhile(waiting, { intervalMs: 2000, limit: 30 });
  return { busy, dismiss, waiting };
}
