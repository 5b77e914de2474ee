import { useState, type FormEvent, type ReactNode } from "react";
import { Form, useNavigate, useNavigation } from "react-router";
import { describeDevice } from "../lib/device.ts";
import { formatMoment } from "../../common/format.ts";
import { AuthCard } from "./form-controls.tsx";
import { FormAlert } from "./form-alert.tsx";
import { Button } from "./ui/button.tsx";

/** Spec §8: shown when /api/cli-auth fails without saying why. */
export const cliBackendFailure = "Failed to send auth data to CLI backend";

export interface CliApprovalProps {
  cliToken: string;
  email: string;
  idToken: string;
  request: { code: string; expiresAt: Date | string; userAgent: string | null; ipAddress: string | null; requestedAt: Date | string | null } | { problem: string };
  /** The no-JavaScript answer of the page's own action, when it was used. */
  error: string | null;
}

/** The code `academy login` printed, large, for the person to compare with their terminal. */
export function CliCodeBox({ code, children }: { code: string; children?: ReactNode }) {
  return (
    <div className="rounded-xl border border-slate-200 p-4 text-center dark:border-slate-700">
      <p className="text-sm text-slate-600 dark:text-slate-400">Check that your terminal shows this code</p>
      <p className="mt-1 font-mono text-3xl font-bold tracking-widest text-slate-950 dark:text-white">{code}</p>
      {children}
    </div>
  );
}

/**
 * "Sign in the Academy CLI on this device?" With JavaScript the choice is posted to /api/cli-auth
 * as spec §7 says and its `error` shown verbatim; without, the form posts to the page itself.
 */
export function CliApproval({ cliToken, email, idToken, request, error }: CliApprovalProps) {
  const navigate = useNavigate();
  const submitting = useNavigation().state === "submitting";
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  async function decide(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const approve = (event.nativeEvent as SubmitEvent).submitter?.getAttribute("value") !== "cli-deny";
    setSending(true);
    setFailure(null);
    try {
      const response = await fetch("/api/cli-auth", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ cliToken, email, idToken, approve }),
      });
      const answer = (await response.json().catch(() => ({}))) as { success?: boolean; error?: string; next?: string };
      if (answer.success) {
        await navigate(answer.next ?? "/cli-auth-success", { replace: true });
        return;
      }
      setFailure(answer.error || cliBackendFailure);
    } catch {
      setFailure(cliBackendFailure);
    }
    setSending(false);
  }

  const shown = failure ?? error;
  if ("problem" in request) {
    return (
      <AuthCard title="Sign in the Academy CLI" lead={<>Signed in as <strong>{email}</strong>.</>}>
        <FormAlert>{request.problem}</FormAlert>
        <p className="mt-4 text-sm text-slate-600 dark:text-slate-400">
          In your terminal, run <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono dark:bg-slate-800">academy login</code> to get a new code.
        </p>
      </AuthCard>
    );
  }
  const busy = sending || submitting;
  return (
    <AuthCard title="Sign in the Academy CLI on this device?" lead={<>The <strong>academy</strong> command-line tool is asking to use your account, <strong>{email}</strong>.</>}>
      <div className="space-y-4">
        <CliCodeBox code={request.code}>
          <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">Valid until {formatMoment(request.expiresAt)}</p>
        </CliCodeBox>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          <dt className="text-slate-600 dark:text-slate-400">Device</dt>
          <dd className="text-slate-950 dark:text-white">{describeDevice(request.userAgent)}</dd>
          {request.ipAddress && (
            <>
              <dt className="text-slate-600 dark:text-slate-400">From</dt>
              <dd className="text-slate-950 dark:text-white">{request.ipAddress}</dd>
            </>
          )}
          {request.requestedAt && (
            <>
              <dt className="text-slate-600 dark:text-slate-400">Asked</dt>
              <dd className="text-slate-950 dark:text-white">{formatMoment(request.requestedAt)}</dd>
            </>
          )}
        </dl>
        <p className="text-sm text-slate-700 dark:text-slate-300">
          Approve only if you ran <code className="font-mono">academy login</code> yourself just now. The CLI can then read your courses, progress, orders and websites, and
          read and change your notes, until you sign it out (<code className="font-mono">academy logout</code>, or Settings → Signed-in devices).
        </p>
        {shown && <FormAlert>{shown}</FormAlert>}
        <Form method="post" onSubmit={(event) => void decide(event)} className="flex flex-col gap-3 sm:flex-row-reverse">
          <input type="hidden" name="cliToken" value={cliToken} />
          <input type="hidden" name="email" value={email} />
          <input type="hidden" name="idToken" value={idToken} />
          <Button
            type="submit"
            name="intent"
            value="cli-approve"
            disabled={busy}
            size="lg"
            className="flex-1"
          >
            {busy ? "Please wait…" : "Approve"}
          </Button>
          <Button
            type="submit"
            name="intent"
            value="cli-deny"
            disabled={busy}
            variant="secondary"
            size="lg"
            className="flex-1"
          >
            Deny
          </Button>
        </Form>
      </div>
    </AuthCard>
  );
}
