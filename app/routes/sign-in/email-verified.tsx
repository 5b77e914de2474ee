import { Form, redirect, useNavigation } from "react-router";
import { authErrorMessage, emailVerifiedPath, postToAuth, safeRedirectTarget, verifyEmailPath } from "../../../server/auth/index.ts";
import { appServices, viewerContext } from "../../../server/context.ts";
import { noticeCookie } from "../../../server/notice.ts";
import { AuthCard, SubmitButton } from "../../components/form-controls.tsx";
import { FormAlert } from "../../components/form-alert.tsx";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/email-verified";
import { ButtonLink } from "../../components/ui/button.tsx";
import { z } from "zod";
import { readForm, refuse, succeed } from "../forms.server.ts";

/**
 * Where a verification mail's link lands. Verified (Better Auth signs the person in as it verifies):
 * on to where they were going, saying "E-mail verified" once. A link that did not work comes back
 * with `?error=` and gets a page that says why and offers a new link.
 */
export function loader({ url, context }: Route.LoaderArgs) {
  const viewer = context.get(viewerContext);
  const then = safeRedirectTarget(url.searchParams.get("redirectTo"));
  const error = url.searchParams.get("error");
  if (!error && viewer?.emailVerified) {
    throw redirect(then, { headers: { "Set-Cookie": noticeCookie("email-verified", context.get(appServices).publicUrl) } });
  }
  if (!error && !viewer) throw redirect(`/login?redirectTo=${encodeURIComponent(then)}`);
  return {
    expired: error === "TOKEN_EXPIRED",
    viewer: viewer && { email: viewer.email, verified: viewer.emailVerified },
    destination: then,
    signInPath: `/login?redirectTo=${encodeURIComponent(verifyEmailPath(then))}`,
  };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: args.loaderData?.expired ? "This verification link has expired" : "This verification link did not work",
    description: "Get a new link to verify your e-mail address.",
  });

/** Sends the signed-in, unverified person a new link that leads where the old one would have. */
export async function action({ request, url, context }: Route.ActionArgs) {
  const viewer = context.get(viewerContext);
  if (!viewer) throw redirect("/login");
  if (viewer.emailVerified) throw redirect(safeRedirectTarget(url.searchParams.get("redirectTo")));
  const { auth } = context.get(appServices);
  const then = safeRedirectTarget(url.searchParams.get("redirectTo"));
  const form = await readForm(request, z.object({}));
  if (!form.ok) return form.reply;
  const result = await postToAuth(auth, request, "/send-verification-email", { email: viewer.email, callbackURL: emailVerifiedPath(then) });
  if (!result.ok) return refuse(form, { status: result.status, message: authErrorMessage("verification-resend", result) });
  return succeed(form, `A new link is on its way to ${viewer.email}. It can take a minute to arrive.`);
}

export default function EmailVerifiedPage({ loaderData, actionData }: Route.ComponentProps) {
  const { expired, viewer, destination, signInPath } = loaderData;
  const pending = useNavigation().state === "submitting";
  if (viewer?.verified) {
    return (
      <AuthCard title="Your e-mail is already verified" lead="That link has been used, and there is nothing more to do.">
        <ButtonLink to={destination} size="lg" className="flex w-full items-center justify-center">
          Continue
        </ButtonLink>
      </AuthCard>
    );
  }
  const why = expired
    ? "Verification links work for a limited time, and this one has run out."
    : "The link is not valid: it may have been copied only in part, or replaced by a newer one.";
  return (
    <AuthCard title={expired ? "This link has expired" : "This link did not work"} lead={why}>
      {viewer ? (
        <div className="space-y-4">
          {actionData?.message && <FormAlert tone={actionData.ok ? "success" : "error"}>{actionData.message}</FormAlert>}
          <Form method="post">
            <SubmitButton pending={pending}>{pending ? "Sending…" : "Send me a new link"}</SubmitButton>
          </Form>
        </div>
      ) : (
        <div className="space-y-4">
          <p className="text-sm text-slate-600 dark:text-slate-400">Sign in, and we will send a new link to your address.</p>
          <ButtonLink to={signInPath} size="lg" className="flex w-full items-center justify-center">
            Sign in to get a new link
          </ButtonLink>
        </div>
      )}
    </AuthCard>
  );
}
