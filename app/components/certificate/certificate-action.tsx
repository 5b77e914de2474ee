import { Form, Link, useNavigation } from "react-router";
import { AwardIcon } from "../icons.tsx";
import { buttonClass } from "../ui/button.tsx";

const certificateIssuePath = (courseId: string) => `/courses/${courseId}/certificate`;
export const certificatePath = (certificateId: string) => `/certificates/${certificateId}`;
/** The holder's PDF of the certificate: a file, so links to it load the document rather than navigate in the app. */
export const certificatePdfPath = (certificateId: string) => `/certificates/${certificateId}/pdf`;

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
  const className = buttonClass({ variant: compact ? "secondary" : "primary", className: "inline-flex items-center gap-1.5" });
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
