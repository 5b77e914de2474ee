import { useEffect, useState } from "react";
import { Form, redirect, useNavigation } from "react-router";
import { authErrorMessage, callAuth, emailVerifiedPath, postToAuth, safeRedirectTarget, verifyEmailPath } from "../../../server/auth/index.ts";
import { appServices, viewerContext } from "../../../server/context.ts";
import { AuthCard } from "../../components/form-controls.tsx";
import { FormAlert } from "../../components/form-alert.tsx";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/verify-email";
import { Button } from "../../components/ui/button.tsx";
import { z } from "zod";
import { readForm, refuse, succeed } from "../forms.server.ts";

/** Seconds before the resend button works again; the server's rate limits are the real guard. */
const resendCooldownSeconds = 60;

export function loader({ context }: Route.LoaderArgs) {
  const viewer = context.get(viewerContext);
  if (!viewer) throw redirect("/login?redirectTo=%2Fverify-email");
  return { email: viewer.email };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "Verify your e-mail", description: "Confirm your e-mail address to start using your Academy account." });

const verifyForm = z.object({ intent: z.enum(["check", "resend", "signout"]) });

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = context.get(viewerContext);
  if (!viewer) throw redirect("/login");
  const { auth } = context.get(appServices);
  // Where the person was going (the CLI's approval, say): the mailed link and the recheck both lead there.
  const then = safeRedirectTarget(new URL(request.url).searchParams.get("redirectTo"));
  const form = await readForm(request, verifyForm);
  if (!form.ok) return form.reply;
  switch (form.value.intent) {
    case "signout": {
      const result = await callAuth(auth.api.signOut({ headers: request.headers, asResponse: true }));
      if (!result.ok) return refuse(form, { status: result.status, message: result.message });
      throw redirect("/login", { headers: result.headers });
    }
    case "resend": {
      const result = await postToAuth(auth, request, "/send-verification-email", { email: viewer.email, callbackURL: emailVerifiedPath(then) });
      if (!result.ok) return refuse(form, { status: result.status, message: authErrorMessage("verification-resend", result) });
      return succeed(form, "A new link is on its way. It can take a minute to arrive.");
    }
    case "check":
      // "I've verified": the root middleware rechecks on the redirect and sends a verified user home.
      throw redirect(verifyEmailPath(then));
  }
}

function useCountdown(active: boolean): number {
  const [left, setLeft] = useState(0);
  useEffect(() => {
    if (!active) return;
    const started = Date.now();
    const tick = () => setLeft(Math.max(0, resendCooldownSeconds - Math.floor((Date.now() - started) / 1000)));
    const timer = setInterval(tick, 250);
    tick();
    return () => clearInterval(timer);
  }, [active]);
  return left;
}

export default function VerifyEmailPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  const left = useCountdown(actionData?.ok === true);
  return (
    <AuthCard
      title="Check your inbox"
      lead={
        <>
          We sent a link to <strong className="text-slate-950 dark:text-white">{loaderData.email}</strong>. Open it to
          confirm your address; then you can use your account.
        </>
      }
    >
      <div className="space-y-4">
        {actionData?.message && <FormAlert tone={actionData.ok ? "success" : "error"}>{actionData.message}</FormAlert>}
        <p className="text-sm text-slate-600 dark:text-slate-400">
          No mail? Check your spam or promotions folder, or send the link again.
        </p>
        <Form method="post" className="space-y-3">
          <Button
            type="submit"
            name="intent"
            value="check"
            size="lg"
            className="flex w-full items-center justify-center"
          >
            {submitting === "check" ? "Checking…" : "I've verified"}
          </Button>
          <Button
            type="submit"
            name="intent"
            value="resend"
            disabled={left > 0 || submitting === "resend"}
            variant="secondary"
            size="lg"
            className="flex w-full items-center justify-center"
          >
            {left > 0 ? `Send again in ${left} s` : submitting === "resend" ? "Sending…" : "Send the link again"}
          </Button>
          <button
            type="submit"
            name="intent"
            value="signout"
            className="w-full py-2 text-sm font-medium text-slate-600 hover:text-slate-950 hover:underline dark:text-slate-400 dark:hover:text-white"
          >
            Sign out
          </button>
        </Form>
      </div>
    </AuthCard>
  );
}
