import { ConfirmDialog } from "../ui/dialog.tsx";

/** "Delete review" and its confirmation; the page drops the dialog once the review is gone. */
export function DeleteReviewDialog({ courseTitle, pending }: { courseTitle: string; pending: boolean }) {
  return (
    <ConfirmDialog
      trigger="Delete review"
      triggerStyle={{ variant: "danger-outline" }}
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
