import { Form, Link, useNavigation } from "react-router";
import { z } from "zod";
import { authErrorMessage, postToAuth } from "../../../server/auth/index.ts";
import { appServices } from "../../../server/context.ts";
import { AuthCard, SubmitButton } from "../../components/form-controls.tsx";
import { FormAlert } from "../../components/form-alert.tsx";
import { ProofOfWork } from "../../components/proof-of-work.tsx";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/forgot-password";
import { TextField } from "../../components/ui/field.tsx";
import { fieldState } from "../../../common/forms.ts";
import { readForm, refuse, succeed } from "../forms.server.ts";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "Reset your password", description: "Get a link to choose a new password for your Academy account." });

const resetRequest = z.object({ email: z.string().trim().toLowerCase().email("Enter a valid e-mail address, like name@example.com."), proof: z.string().optional() });

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request, resetRequest);
  if (!form.ok) return form.reply;
  const result = await postToAuth(context.get(appServices).auth, request, "/request-password-reset", {
    email: form.value.email,
    redirectTo: "/reset-password",
  }, form.value.proof);
  if (!result.ok && result.status === 429) return refuse(form, { ...result, message: authErrorMessage("reset-request", result) });
  // The same answer whether or not the address has an account.
  return succeed(form);
}

export default function ForgotPasswordPage({ actionData }: Route.ComponentProps) {
  const pending = useNavigation().state === "submitting";
  return (
    <AuthCard title="Reset your password" lead="Enter the e-mail address of your account and we will send you a link to choose a new password.">
      {actionData?.ok ? (
        <FormAlert tone="success">
          If an account uses that address, a link to reset its password is on its way. It works for one hour. Check your spam
          folder if it does not arrive in a few minutes.
        </FormAlert>
      ) : (
        <Form method="post" className="space-y-4" noValidate>
          {actionData?.message && <FormAlert>{actionData.message}</FormAlert>}
          <TextField label="E-mail" name="email" type="email" autoComplete="email" required {...fieldState(actionData, "email")} />
          <ProofOfWork challenge={actionData?.challenge} />
          <SubmitButton pending={pending}>{pending ? "Sending…" : "Send the link"}</SubmitButton>
        </Form>
      )}
      <p className="mt-6 text-center text-sm">
        <Link to="/login" className="font-medium text-brand-700 hover:underline dark:text-brand-300">
          Back to sign in
        </Link>
      </p>
    </AuthCard>
  );
}
