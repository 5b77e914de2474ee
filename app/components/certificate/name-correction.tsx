import { Form, useNavigation } from "react-router";
import { nameLength } from "../../../common/limits.ts";
import { formatDay } from "../../../common/format.ts";
import { FormAlert } from "../form-alert.tsx";
import { Button } from "../ui/button.tsx";
import { TextField } from "../ui/field.tsx";
import { replyProblem, type FormReply } from "../../../common/forms.ts";

export interface NameCorrectionState {
  currentName: string;
  /** When the one correction was made; null while it is still available. */
  correctedAt: Date | string | null;
  supportEmail: string;
}

/**
 * For the holder only: the one correction of the printed name, folded away until asked for, or,
 * once used, who to write to instead. Works without JavaScript (a native disclosure and a form).
 */
export function NameCorrection({ state, result }: { state: NameCorrectionState; result: FormReply | undefined }) {
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formData?.get("intent") === "correct-name";
  const failed = replyProblem(result) ?? undefined;
  return (
    <section aria-label="Name on this certificate" className="mt-6 max-w-2xl text-sm text-slate-700 dark:text-slate-300 print:hidden">
      {result?.ok && <FormAlert tone="success">Your certificate was reissued with the corrected name. Its ID and verification link stay the same.</FormAlert>}
      {state.correctedAt ? (
        <p className={result?.ok ? "mt-4" : undefined}>
          The name on this certificate was corrected on {formatDay(state.correctedAt)}. For any other change, write to us at{" "}
          <a href={`mailto:${state.supportEmail}`} className="font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300">
            {state.supportEmail}
          </a>.
        </p>
      ) : (
        <details open={Boolean(failed)} className="group rounded-xl border border-slate-200 bg-white p-4 sm:p-5 dark:border-slate-800 dark:bg-slate-900">
          <summary className="cursor-pointer font-semibold text-slate-950 marker:text-brand-600 dark:text-white dark:marker:text-brand-300">Name wrong on this certificate?</summary>
          <p className="mt-3">
            You can correct it once. The certificate is reissued with the new name and keeps its ID and verification link; the correction is
            recorded with its date.
          </p>
          <Form method="post" className="mt-4 space-y-4" noValidate>
            <input type="hidden" name="intent" value="correct-name" />
            <TextField label="Your name as it should appear" name="name" autoComplete="name" required maxLength={nameLength.max} defaultValue={state.currentName} error={failed} />
            <Button
              type="submit"
              disabled={pending}
              className="inline-flex min-h-11 items-center"
            >
              {pending ? "Reissuing…" : "Reissue with this name"}
            </Button>
          </Form>
        </details>
      )}
    </section>
  );
}
