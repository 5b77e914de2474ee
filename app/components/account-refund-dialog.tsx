import { useNavigation } from "react-router";
import { ConfirmDialog } from "./ui/dialog.tsx";

const strong = "font-semibold text-slate-950 dark:text-white";

/** "Request a refund" and its confirmation; the page shows the outcome once the request is answered. */
export function RefundDialog({
  orderId,
  courseTitle,
  amount,
  retry = false,
  hosting = false,
}: {
  orderId: string;
  courseTitle: string;
  amount: string;
  retry?: boolean;
  /** A website's first period: the refund cancels the website rather than ending course access. */
  hosting?: boolean;
}) {
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formData?.get("orderId") === orderId;
  return (
    <ConfirmDialog
      trigger={
        <>
          {retry ? "Try the refund again" : "Request a refund"}
          <span className="sr-only"> for {courseTitle}</span>
        </>
      }
      triggerStyle={{ variant: "secondary", size: "sm" }}
      title={`Refund ${courseTitle}?`}
      fields={{ intent: "refund", orderId, ...(retry ? { retry: "1" } : {}) }}
      confirmLabel="Yes, refund me"
      pendingLabel="Requesting refund…"
      pending={submitting}
    >
      {hosting ? (
        <p>
          The website is cancelled and its hosting stops once the refund is processed, and <strong className={strong}>{amount}</strong> goes back to
          the account you paid with.
        </p>
      ) : (
        <p>
          You will lose access to <strong className={strong}>{courseTitle}</strong> straight away, and <strong className={strong}>{amount}</strong> goes
          back to the account you paid with.
        </p>
      )}
      <p className="text-slate-600 dark:text-slate-400">Refunds normally reach you within 5–7 business days.</p>
    </ConfirmDialog>
  );
}
