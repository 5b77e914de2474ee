import { Form, useNavigation } from "react-router";
import { replyFor, type FormReply } from "../../common/forms.ts";
import { FormAlert } from "./form-alert.tsx";
import { Button } from "./ui/button.tsx";
import { cardClass } from "./ui/card.tsx";
import { Disclosure } from "./ui/disclosure.tsx";
import { TextField } from "./ui/field.tsx";

/** Asks for the code from an authenticator app, or a recovery code instead (app/routes/sign-in/second-factor.server.ts reads it). */
export function SecondFactorForm({ redirectTo, actionData }: { redirectTo: string; actionData: FormReply | undefined }) {
  const busy = useNavigation().state === "submitting";
  const totp = replyFor(actionData, "totp");
  const recovery = replyFor(actionData, "recovery");
  return (
    <>
      <Form method="post" className={cardClass({ className: "mt-6 space-y-4 p-6" })} noValidate>
        <input type="hidden" name="intent" value="totp" />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        {totp?.message && <FormAlert>{totp.message}</FormAlert>}
        <TextField label="6-digit code" name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" maxLength={6} required error={totp?.fieldErrors.code} />
        <Button type="submit" disabled={busy}>
          Continue
        </Button>
      </Form>
      <Disclosure summary="Lost your phone? Use a recovery code" open={recovery !== undefined} className="mt-6">
        <Form method="post" className="mt-4 space-y-4" noValidate>
          <input type="hidden" name="intent" value="recovery" />
          <input type="hidden" name="redirectTo" value={redirectTo} />
          {recovery?.message && <FormAlert>{recovery.message}</FormAlert>}
          <TextField label="Recovery code" name="code" autoComplete="off" required error={recovery?.fieldErrors.code} />
          <Button type="submit" variant="secondary" disabled={busy}>
            Use recovery code
          </Button>
        </Form>
      </Disclosure>
    </>
  );
}
