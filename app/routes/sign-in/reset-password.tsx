import { Form, Link, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { authErrorMessage, postToAuth } from "../../../server/auth/index.ts";
import { appServices } from "../../../server/context.ts";
import { passwordLength } from "../../../common/limits.ts";
import { AuthCard, PasswordField, SubmitButton } from "../../components/form-controls.tsx";
import { FormAlert } from "../../components/form-alert.tsx";
import { pageMeta } from "../../lib/seo.ts";
import { replyProblem } from "../../../common/forms.ts";
import type { Route } from "./+types/reset-password";
import { readForm, refuse } from "../forms.server.ts";

export function loader({ url }: Route.LoaderArgs) {
  return { token: url.searchParams.get("token") ?? "", linkError: url.searchParams.has("error") };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "Choose a new password", description: "Set a new password for your Academy account." });

const newPassword = z.object({
  token: z.string().min(1, "This link is incomplete. Ask for a new one."),
  password: z.string().min(passwordLength.min, `Your password needs at least ${passwordLength.min} characters.`).max(passwordLength.max, `Your password can have at most ${passwordLength.max} characters.`),
});

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request, newPassword);
  if (!form.ok) return form.reply;
  const result = await postToAuth(context.get(appServices).auth, request, "/reset-password", {
    newPassword: form.value.password,
    token: form.value.token,
  });
  if (!result.ok) return refuse(form, { status: result.status, message: authErrorMessage("reset", result) });
  // Every session of the account was revoked with the reset; sign in again with the new password.
  throw redirect("/login?reset=1");
}

export default function ResetPasswordPage({ loaderData, actionData }: Route.ComponentProps) {
  const pending = useNavigation().state === "submitting";
  if (!loaderData.token || loaderData.linkError) {
    return (
      <AuthCard title="This link does not work">
        <FormAlert>This password reset link has expired or was already used.</FormAlert>
        <p className="mt-6 text-center text-sm">
          <Link to="/forgot-password" className="font-medium text-brand-700 hover:underline dark:text-brand-300">
            Ask for a new link
          </Link>
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Choose a new password" lead="After the change, every device signed in to your account is signed out.">
      <Form method="post" className="space-y-4" noValidate>
        {replyProblem(actionData) && <FormAlert>{replyProblem(actionData)}</FormAlert>}
        <input type="hidden" name="token" value={loaderData.token} />
        <PasswordField label="New password" name="password" autoComplete="new-password" showStrength />
        <SubmitButton pending={pending}>{pending ? "Saving…" : "Set new password"}</SubmitButton>
      </Form>
    </AuthCard>
  );
}
