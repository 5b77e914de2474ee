import { ConfirmDialog } from "../confirm-dialog.tsx";

/** "Delete review" and its confirmation; the page drops the dialog once the review is gone. */
export function DeleteReviewDialog({ courseTitle, pending }: { courseTitle: string; pending: boolean }) {
  return (
    <ConfirmDialog
      trigger="Delete review"
      triggerClassName="rounded-full border border-red-300 px-5 py-2.5 text-sm font-semibold text-red-700 hover:bg-red-50 dark:border-red-800 dark:text-red-300 dark:hover:bg-red-950"
      title="Delete your review?"
      fields={{ intent: "delete" }}
      confirmLabel="Yes, delete it"
      pendingLabel="Deleting…"
      pending={pending}
      preventScrollReset
    >
      <p>
        Your rating and comment on <strong className="font-semibold text-slate-950 dark:text-white">{courseTitle}</strong> will be removed for good.
        You can write a new review afterwards.
      </p>
    </ConfirmDialog>
  );
}
