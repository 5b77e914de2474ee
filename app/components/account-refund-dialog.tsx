import { useEffect, useId, useRef } from "react";
import { Form, useNavigation } from "react-router";

// Invoker commands open the dialog before (or without) JavaScript in current browsers; React
// does not know the attributes yet, so they are passed as plain lowercase ones.
const invoke = (target: string) => ({ commandfor: target, command: "show-modal" }) as Record<string, string>;

/**
 * "Request a refund" and its confirmation. The dialog is modal, so Escape and Cancel close it and
 * focus returns to the button. It closes itself once the request has been answered; the page then
 * shows the outcome.
 */
export function RefundDialog({ orderId, courseTitle, amount, retry = false }: { orderId: string; courseTitle: string; amount: string; retry?: boolean }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formData?.get("orderId") === orderId;
  const wasSubmitting = useRef(false);

  useEffect(() => {
    if (submitting) wasSubmitting.current = true;
    else if (wasSubmitting.current) {
      wasSubmitting.current = false;
      dialog.current?.close();
    }
  }, [submitting]);

  const label = retry ? "Try the refund again" : "Request a refund";
  return (
    <>
      <button
        type="button"
        {...invoke(`${id}-dialog`)}
        onClick={(event) => {
          event.preventDefault();
          if (!dialog.current?.open) dialog.current?.showModal();
        }}
        className="rounded-full border border-slate-300 px-4 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-50 dark:border-slate-700 dark:text-slate-100 dark:hover:bg-slate-800"
      >
        {label}
        <span className="sr-only"> for {courseTitle}</span>
      </button>
      <dialog
        ref={dialog}
        id={`${id}-dialog`}
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-text`}
        className="m-auto w-[calc(100%-2rem)] max-w-md rounded-2xl border border-slate-200 bg-white p-6 text-slate-800 shadow-xl backdrop:bg-slate-950/60 backdrop:backdrop-blur-sm dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200"
      >
        <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-950 dark:text-white">
          Refund {courseTitle}?
        </h2>
        <p id={`${id}-text`} className="mt-3 text-sm leading-6">
          You will lose access to <strong className="font-semibold text-slate-950 dark:text-white">{courseTitle}</strong> straight away, and{" "}
          <strong className="font-semibold text-slate-950 dark:text-white">{amount}</strong> goes back to the account you paid with.
        </p>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">Refunds normally reach you within 5–7 business days.</p>
        <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <form method="dialog">
            <button
              type="submit"
              className="w-full rounded-full border border-slate-300 px-5 py-2.5 text-sm font-semibold hover:bg-slate-50 sm:w-auto dark:border-slate-700 dark:hover:bg-slate-800"
            >
              Cancel
            </button>
          </form>
          <Form method="post">
            <input type="hidden" name="intent" value="refund" />
            <input type="hidden" name="orderId" value={orderId} />
            {retry && <input type="hidden" name="retry" value="1" />}
            <button
              type="submit"
              disabled={submitting}
              className="w-full rounded-full bg-red-700 px-5 py-2.5 text-sm font-semibold text-white hover:bg-red-800 disabled:opacity-60 sm:w-auto"
            >
              {submitting ? "Requesting refund…" : "Yes, refund me"}
            </button>
          </Form>
        </div>
      </dialog>
    </>
  );
}
