import { useId, useRef } from "react";
import { Form } from "react-router";

// Invoker commands open the dialog before (or without) JavaScript in current browsers; React
// does not know the attributes yet, so they are passed as plain lowercase ones.
const invoke = (target: string) => ({ commandfor: target, command: "show-modal" }) as Record<string, string>;

/**
 * "Delete review" and its confirmation, in a modal dialog: Escape and Cancel close it and focus
 * returns to the button. The page drops the dialog once the review is gone.
 */
export function DeleteReviewDialog({ courseTitle, pending }: { courseTitle: string; pending: boolean }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  return (
    <>
      <button
        type="button"
        {...invoke(`${id}-dialog`)}
        onClick={(event) => {
          event.preventDefault();
          if (!dialog.current?.open) dialog.current?.showModal();
        }}
        className="rounded-full border border-red-300 px-5 py-2.5 text-sm font-semibold text-red-700 hover:bg-red-50 dark:border-red-800 dark:text-red-300 dark:hover:bg-red-950"
      >
        Delete review
      </button>
      <dialog
        ref={dialog}
        id={`${id}-dialog`}
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-text`}
        className="m-auto w-[calc(100%-2rem)] max-w-md rounded-2xl border border-slate-200 bg-white p-6 text-slate-800 shadow-xl backdrop:bg-slate-950/60 backdrop:backdrop-blur-sm dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200"
      >
        <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-950 dark:text-white">
          Delete your review?
        </h2>
        <p id={`${id}-text`} className="mt-3 text-sm leading-6">
          Your rating and comment on <strong className="font-semibold text-slate-950 dark:text-white">{courseTitle}</strong> will be removed
          for good. You can write a new review afterwards.
        </p>
        <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <form method="dialog">
            <button
              type="submit"
              className="w-full rounded-full border border-slate-300 px-5 py-2.5 text-sm font-semibold hover:bg-slate-50 sm:w-auto dark:border-slate-700 dark:hover:bg-slate-800"
            >
              Cancel
            </button>
          </form>
          <Form method="post" preventScrollReset>
            <input type="hidden" name="intent" value="delete" />
            <button
              type="submit"
              disabled={pending}
              className="w-full rounded-full bg-red-700 px-5 py-2.5 text-sm font-semibold text-white hover:bg-red-800 disabled:opacity-60 sm:w-auto"
            >
              {pending ? "Deleting…" : "Yes, delete it"}
            </button>
          </Form>
        </div>
      </dialog>
    </>
  );
}
