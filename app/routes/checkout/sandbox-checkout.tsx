import { useEffect, useRef } from "react";
import { data, Form, useNavigation } from "react-router";
import { appServices } from "../../../server/context.ts";
import { callbackPath, ProviderError, type SandboxMethod, sandboxMethods } from "../../../server/payments/index.ts";
import { formatPaise } from "../../../common/format.ts";
import type { Route } from "./+types/sandbox-checkout";
import { Button } from "../../components/ui/button.tsx";
import { z } from "zod";
import { refused, replyProblem, succeeded, type FormReply } from "../../../common/forms.ts";
import { readForm } from "../forms.server.ts";

function gateway(context: Route.LoaderArgs["context"]) {
  const { sandbox } = context.get(appServices);
  if (!sandbox) throw data(null, { status: 404 });
  return sandbox;
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const order = await gateway(context).findOrder(params.orderId);
  if (!order) throw data(null, { status: 404 });
  return {
    merchant: context.get(appServices).catalog.site.name,
    methods: sandboxMethods,
    callbackPath,
    order: {
      id: order.id,
      amount: order.amount,
      status: order.status,
      description: order.notes.course_title ?? "",
      courseId: order.notes.course_id ?? "",
      ourOrderId: order.notes.order_id ?? "",
    },
  };
}

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export const meta: Route.MetaFunction = () => [{ title: "Sandbox checkout — no money moves" }, { name: "robots", content: "noindex" }];

const methodLabels: Record<SandboxMethod, string> = { upi: "UPI", card: "Card", netbanking: "Net banking", wallet: "Wallet" };

const choose = "Choose a payment method, then Pay or Decline.";
const paymentForm = z.object({ outcome: z.enum(["pay", "decline"], { error: choose }), method: z.enum(sandboxMethods, { error: choose }) });

/** The gateway's reply: the one form reply, with the fields to post back to the shop once paid or declined. */
type SandboxReply = FormReply & { callback?: Record<string, string> };

export async function action({ params, request, context }: Route.ActionArgs) {
  const sandbox = gateway(context);
  const form = await readForm(request, paymentForm);
  if (!form.ok) return data<SandboxReply>(form.reply.data, form.reply.init ?? {});
  try {
    return data<SandboxReply>({ ...succeeded(form), callback: await sandbox.pay(params.orderId, form.value) });
  } catch (error) {
    if (error instanceof ProviderError) return data<SandboxReply>(refused(form, error.message), { status: 404 });
    throw error;
  }
}

/** Posts the result to the shop's callback URL, as Razorpay Checkout does in redirect mode; a button does it without JavaScript. */
/**
 * Posts the payment result to the shop. With script, the shop's page then replaces this one in the
 * history, as a hosted checkout does, so Back from it does not return to the gateway; without, the
 * form posts as it stands.
 */
function ReturnToShop({ fields, target }: { fields: Record<string, string>; target: string }) {
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const post = () => form.current?.submit();
    fetch(target, { method: "POST", body: new URLSearchParams(fields) }).then(
      (response) => (response.ok && response.redirected ? window.location.replace(response.url) : post()),
      post,
    );
  }, [fields, target]);
  return (
    <form ref={form} method="post" action={target} className="mt-6 text-center">
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <p role="status" className="text-sm text-slate-600 dark:text-slate-400">
        Returning you to the shop…
      </p>
      <button type="submit" className="mt-3 rounded-full bg-slate-900 px-5 py-2.5 text-sm font-semibold text-white dark:bg-white dark:text-slate-900">
        Return to the shop
      </button>
    </form>
  );
}

export default function SandboxCheckout({ loaderData, actionData }: Route.ComponentProps) {
  const { merchant, methods, order } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const amount = formatPaise(order.amount);
  return (
    <div className="mx-auto max-w-md px-4 py-10">
      <p className="rounded-t-2xl bg-amber-400 px-5 py-2 text-center text-sm font-bold text-amber-950">Sandbox — no money moves</p>
      <div className="rounded-b-2xl border border-t-0 border-slate-200 bg-white p-6 shadow-lg dark:border-slate-800 dark:bg-slate-900">
        <h1 className="text-lg font-semibold text-slate-950 dark:text-white">{merchant}</h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{order.description}</p>
        <p className="mt-4 text-3xl font-bold tabular-nums text-slate-950 dark:text-white">{amount}</p>
        <p className="mt-1 font-mono text-xs text-slate-500 dark:text-slate-400">{order.id}</p>

        {actionData?.callback ? (
          <ReturnToShop fields={actionData.callback} target={loaderData.callbackPath} />
        ) : (
          <Form method="post" className="mt-6">
            {replyProblem(actionData) && (
              <p role="alert" className="mb-4 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
                {replyProblem(actionData)}
              </p>
            )}
            {order.status === "paid" && (
              <p role="status" className="mb-4 rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200">
                This order is already paid. Pressing Pay returns you to the shop without charging again.
              </p>
            )}
            <fieldset>
              <legend className="text-sm font-medium text-slate-800 dark:text-slate-200">Pay with</legend>
              <div className="mt-2 grid grid-cols-2 gap-2">
                {methods.map((method, i) => (
                  <label
                    key={method}
                    className="flex cursor-pointer items-center gap-2 rounded-lg border border-slate-200 px-3 py-2 text-sm has-checked:border-brand-600 has-checked:bg-brand-50 dark:border-slate-700 dark:has-checked:bg-slate-800"
                  >
                    <input type="radio" name="method" value={method} defaultChecked={i === 0} />
                    {methodLabels[method]}
                  </label>
                ))}
              </div>
            </fieldset>
            <div className="mt-6 grid gap-3">
              <Button
                type="submit"
                name="outcome"
                value="pay"
                disabled={busy}
                size="lg"
              >
                Pay
              </Button>
              <Button
                type="submit"
                name="outcome"
                value="decline"
                disabled={busy}
                variant="secondary"
                size="lg"
              >
                Decline
              </Button>
            </div>
            <p className="mt-3 text-xs text-slate-600 dark:text-slate-400">
              Pay succeeds as a captured payment of {amount}; Decline fails as a bank decline would. Either way the shop hears
              about it by a signed callback and signed webhooks, exactly as from Razorpay.
            </p>
          </Form>
        )}
        {!actionData?.callback && order.courseId && order.ourOrderId && (
          <Form method="post" action={`/courses/${order.courseId}/confirm`} className="mt-4 text-center">
            <input type="hidden" name="intent" value="cancel" />
            <input type="hidden" name="orderId" value={order.ourOrderId} />
            <button type="submit" className="text-sm font-medium text-slate-600 underline underline-offset-2 hover:text-slate-950 dark:text-slate-400 dark:hover:text-white">
              Cancel and return to the shop
            </button>
          </Form>
        )}
      </div>
    </div>
  );
}
