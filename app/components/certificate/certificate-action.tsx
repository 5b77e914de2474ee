import { Form, Link, useNavigation } from "react-router";
import { AwardIcon } from "../icons.tsx";

const certificateIssuePath = (courseId: string) => `/courses/${courseId}/certificate`;
export const certificatePath = (certificateId: string) => `/certificates/${certificateId}`;

const styles = {
  primary: "bg-brand-600 text-white hover:bg-brand-700 disabled:opacity-60",
  secondary:
    "border border-slate-300 text-slate-800 hover:bg-slate-50 disabled:opacity-60 dark:border-slate-700 dark:text-slate-100 dark:hover:bg-slate-800",
};

/**
 * The way to a completed course's certificate: a link once it is issued, else a form that issues
 * it. `compact` is the account list's wording and a quieter button beside "Continue".
 */
export function CertificateAction({
  courseId,
  courseTitle,
  certificateId,
  compact = false,
}: {
  courseId: string;
  courseTitle: string;
  certificateId: string | null;
  compact?: boolean;
}) {
  const navigation = useNavigation();
  const className = `inline-flex items-center gap-1.5 rounded-full px-5 py-2.5 text-sm font-semibold ${styles[compact ? "secondary" : "primary"]}`;
  // Several courses share the account list, so each control names its course for screen readers.
  const course = compact && <span className="sr-only"> for {courseTitle}</span>;
  if (certificateId) {
    return (
      <Link to={certificatePath(certificateId)} className={className}>
        <AwardIcon className="size-4" />
        {compact ? "Certificate" : "View certificate"}
        {course}
      </Link>
    );
  }
  const action = certificateIssuePath(courseId);
  const pending = navigation.state !== "idle" && navigation.formAction === action;
  return (
    <Form method="post" action={action}>
      <button type="submit" disabled={pending} className={className}>
        <AwardIcon className="size-4" />
        {pending ? "Issuing your certificate…" : compact ? "Get certificate" : "Get your certificate"}
        {course}
      </button>
    </Form>
  );
}
