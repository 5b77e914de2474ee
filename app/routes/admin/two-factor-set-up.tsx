import { Form, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { replyFor, type FormReply } from "../../../common/forms.ts";
import { authErrorMessage, postToAuth } from "../../../server/auth/index.ts";
import { appServices } from "../../../server/context.ts";
import { secondFactorNeeded } from "../../../server/staff/index.ts";
import { PasswordField } from "../../components/form-controls.tsx";
import { FormAlert } from "../../components/form-alert.tsx";
import { QrCode } from "../../components/qr-code.tsx";
import { Button } from "../../components/ui/button.tsx";
import { cardClass } from "../../components/ui/card.tsx";
import { TextField } from "../../components/ui/field.tsx";
import { readForm, refuse, reply } from "../forms.server.ts";
import type { Route } from "./+types/two-factor-set-up";
import { backOfficeMeta } from "./meta.ts";
import { staffOf } from "./access.server.ts";

const totpCode = z.string().trim().regex(/^\d{6}$/, "Enter the 6-digit code your app shows now.");

const setUpForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("start"), password: z.string().optional() }),
  z.object({ intent: z.literal("confirm"), code: totpCode, totpURI: z.string().startsWith("otpauth://totp/", "Start again: the set-up was interrupted.") }),
]);

/** A staff member without two-factor sign-in sets it up here before anything else in the back office opens. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const member = await staffOf(context);
  if (secondFactorNeeded(member) !== "set-up") throw redirect("/admin");
  // Someone who signs in with Google only has no password to confirm.
  const accounts = await context.get(appServices).auth.api.listUserAccounts({ headers: request.headers });
  return { hasPassword: accounts.some((account) => account.providerId === "credential") };
}

export const meta: Route.MetaFunction = () => backOfficeMeta("Set up two-factor sign-in");

interface Enrolment {
  totpURI: string;
  backupCodes: string[];
}

export async function action({ request, context }: Route.ActionArgs) {
  if (secondFactorNeeded(await staffOf(context)) !== "set-up") throw redirect("/admin");
  const { auth } = context.get(appServices);
  const form = await readForm(request, setUpForm);
  if (!form.ok) return form.reply;
  const input = form.value;
  if (input.intent === "start") {
    const result = await postToAuth(auth, request, "/two-factor/enable", input.password ? { password: input.password } : {});
    if (!result.ok && result.code === "INVALID_PASSWORD") return refuse(form, { status: 400, message: null }, { password: "That is not your password." });
    if (!result.ok) return refuse(form, { status: result.status, message: authErrorMessage("sign-in", result) });
    const enrolment = result.body as Enrolment;
    return reply({ intent: "start", ok: true, message: null, fieldErrors: {}, values: { totpURI: enrolment.totpURI, backupCodes: enrolment.backupCodes.join(" ") } });
  }
  const result = await postToAuth(auth, request, "/two-factor/verify-totp", { code: input.code });
  if (!result.ok && result.status === 429) return refuse(form, { status: 429, message: authErrorMessage("sign-in", result) });
  if (!result.ok) return refuse(form, { status: 400, message: null }, { code: "That code is not the one your app shows now. Check the time on your phone is right, and enter the newest code." });
  throw redirect("/admin", { headers: result.headers });
}

export default function TwoFactorSetUp({ loaderData, actionData }: Route.ComponentProps) {
  const started = replyFor(actionData, "start");
  const confirming = replyFor(actionData, "confirm");
  const totpURI = started?.ok ? started.values.totpURI : confirming?.values.totpURI;
  return (
    <div className="max-w-2xl">
      <h1 className="text-2xl font-bold tracking-tight text-slate-950 dark:text-white">Set up two-factor sign-in</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-300">
        The back office changes orders, refunds and people's access, so it asks for a code from an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password, Aegis…) as well as your password.
      </p>
      {totpURI ? <ScanAndConfirm totpURI={totpURI} backupCodes={started?.values.backupCodes?.split(" ") ?? null} answer={confirming} /> : <Start hasPassword={loaderData.hasPassword} answer={started} />}
    </div>
  );
}

function Start({ hasPassword, answer }: { hasPassword: boolean; answer: FormReply | undefined }) {
  const busy = useNavigation().state === "submitting";
  return (
    <Form method="post" className={cardClass({ className: "mt-6 space-y-4 p-6" })}>
      <input type="hidden" name="intent" value="start" />
      {answer?.message && <FormAlert>{answer.message}</FormAlert>}
      {hasPassword && <PasswordField label="Your password" name="password" autoComplete="current-password" required error={answer?.fieldErrors.password} />}
      <Button type="submit" disabled={busy}>
        {busy ? "Starting…" : "Start set-up"}
      </Button>
    </Form>
  );
}

function ScanAndConfirm({ totpURI, backupCodes, answer }: { totpURI: string; backupCodes: string[] | null; answer: FormReply | undefined }) {
  const busy = useNavigation().state === "submitting";
  const secret = new URL(totpURI).searchParams.get("secret") ?? "";
  return (
    <div className="mt-6 space-y-6">
      <section className={cardClass({ className: "p-6" })} aria-labelledby="scan">
        <h2 id="scan" className="text-lg font-semibold text-slate-950 dark:text-white">
          1. Add Academy to your authenticator app
        </h2>
        <div className="mt-4 flex flex-col gap-6 sm:flex-row sm:items-start">
          <QrCode text={totpURI} label="QR code to scan with your authenticator app" />
          <div className="text-sm text-slate-700 dark:text-slate-300">
            <p>Scan the code, or type this key into the app:</p>
            <p className="mt-2 break-all font-mono text-base tracking-wider text-slate-950 dark:text-white" aria-label="Set-up key">
              {secret.match(/.{1,4}/g)?.join(" ")}
            </p>
          </div>
        </div>
      </section>
      {backupCodes && (
        <section className={cardClass({ className: "p-6" })} aria-labelledby="recovery">
          <h2 id="recovery" className="text-lg font-semibold text-slate-950 dark:text-white">
            2. Keep your recovery codes
          </h2>
          <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">
            Each code signs you in once if you lose your phone. They are shown only now: save them in your password manager or print them.
          </p>
          <ul className="mt-4 grid grid-cols-2 gap-2 font-mono text-slate-950 sm:grid-cols-5 dark:text-white" aria-label="Recovery codes">
            {backupCodes.map((code) => (
              <li key={code}>{code}</li>
            ))}
          </ul>
        </section>
      )}
      <Form method="post" className={cardClass({ className: "space-y-4 p-6" })}>
        <h2 className="text-lg font-semibold text-slate-950 dark:text-white">{backupCodes ? "3." : "2."} Enter the code your app shows</h2>
        <input type="hidden" name="intent" value="confirm" />
        <input type="hidden" name="totpURI" value={totpURI} />
        {answer?.message && <FormAlert>{answer.message}</FormAlert>}
        <TextField label="6-digit code" name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" maxLength={6} required error={answer?.fieldErrors.code} defaultValue="" />
        <Button type="submit" disabled={busy}>
          {busy ? "Checking…" : "Turn on two-factor sign-in"}
        </Button>
      </Form>
    </div>
  );
}
