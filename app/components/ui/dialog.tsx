import { type ReactNode, useEffect, useId, useRef } from "react";
import { Form } from "react-router";
import { Button, type ButtonStyle } from "./button.tsx";

// Invoker commands open the dialog before (or without) JavaScript in current browsers; React
// does not know the attributes yet, so they are passed as plain lowercase ones.
const invoke = (target: string) => ({ commandfor: target, command: "show-modal" }) as Record<string, string>;

interface ConfirmDialogProps {
  /** The button that opens the dialog, and its look. */
  trigger: ReactNode;
  triggerStyle: ButtonStyle;
  title: ReactNode;
  /** What will happen, read out as the dialog's description. */
  children: ReactNode;
  /** The fields the confirming POST sends (intent and ids). */
  fields: Record<string, string>;
  /** Fields the person fills in before confirming (a reason), sent with `fields`. */
  inputs?: ReactNode;
  confirmLabel: string;
  /** The button that closes the dialog and does nothing, named for what it keeps ("Keep my website"). */
  dismissLabel?: string;
  pendingLabel: string;
  pending: boolean;
  preventScrollReset?: boolean;
}

/**
 * A destructive action behind a modal confirmation: Escape and the dismiss button close it and focus returns
 * to the button; confirming posts `fields` to the page's action, and the dialog closes once that
 * has been answered, so the page can show the outcome.
 */
export function ConfirmDialog({ trigger, triggerStyle, title, children, fields, inputs, confirmLabel, dismissLabel = "Cancel", pendingLabel, pending, preventScrollReset }: ConfirmDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const wasPending = useRef(false);

  useEffect(() => {
    if (pending) wasPending.current = true;
    else if (wasPending.current) {
      wasPending.current = false;
      dialog.current?.close();
    }
  }, [pending]);

  return (
    <>
      <Button
        {...triggerStyle}
        {...invoke(`${id}-dialog`)}
        onClick={(event) => {
          event.preventDefault();
          if (!dialog.current?.open) dialog.current?.showModal();
        }}
      >
        {trigger}
      </Button>
      <dialog
        ref={dialog}
        id={`${id}-dialog`}
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-text`}
        className="m-auto w-[calc(100%-2rem)] max-w-md rounded-2xl border border-slate-200 bg-white p-6 text-slate-800 shadow-xl backdrop:bg-slate-950/60 backdrop:backdrop-blur-sm dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200"
      >
        <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-950 dark:text-white">
          {title}
        </h2>
        <div id={`${id}-text`} className="mt-3 space-y-2 text-sm leading-6">
          {children}
        </div>
        <Form id={`${id}-form`} method="post" preventScrollReset={preventScrollReset} className={inputs ? "mt-4 space-y-4" : undefined}>
          {Object.entries(fields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          {inputs}
        </Form>
        <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <form method="dialog">
            <Button type="submit" variant="secondary" className="w-full sm:w-auto">
              {dismissLabel}
            </Button>
          </form>
          <Button type="submit" form={`${id}-form`} variant="danger" disabled={pending} className="w-full sm:w-auto">
            {pending ? pendingLabel : confirmLabel}
          </Button>
        </div>
      </dialog>
    </>
  );
}
