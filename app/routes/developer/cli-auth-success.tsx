import type { ReactNode } from "react";
import { Link } from "react-router";
import { appServices, viewerContext } from "../../../server/context.ts";
import { AuthCard } from "../../components/form-controls.tsx";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/cli-auth-success";

/** Says what was decided only to the session that decided it (the outcome is signed and names it); anyone else learns how to sign the CLI in. */
export async function loader({ url, context }: Route.LoaderArgs) {
  const { cliLogin, shop } = context.get(appServices);
  const viewer = context.get(viewerContext);
  const outcome = await cliLogin.outcome(url.searchParams.get("outcome"), viewer?.sessionId ?? null, shop.now());
  return { outcome, signedIn: viewer !== null };
}

const titles = {
  none: "Sign in the Academy CLI",
  denied: "CLI sign-in denied",
  approved: "Academy CLI approved",
  "signed-in": "The Academy CLI is signed in",
  expired: "The CLI's code expired",
} as const;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: titles[args.loaderData?.outcome.state ?? "none"], description: "Sign the academy command-line tool in to your Academy account." });

const command = (text: string) => <code className="font-mono">{text}</code>;

const devicesLink = (
  <Link to="/settings" className="font-semibold text-brand-700 underline dark:text-brand-300">
    Settings → Signed-in devices
  </Link>
);

function SignOutHint() {
  return <>To sign the CLI out, run {command("academy logout")}, or sign it out under {devicesLink}.</>;
}

function Body({ children }: { children: ReactNode }) {
  return <p className="text-sm text-slate-700 dark:text-slate-300">{children}</p>;
}

/** Spec §2: where the browser lands once the CLI's sign-in is approved (or denied). */
export default function CliAuthSuccess({ loaderData }: Route.ComponentProps) {
  const { outcome, signedIn } = loaderData;
  switch (outcome.state) {
    case "denied":
      return (
        <AuthCard title={titles.denied} lead={<>You denied code {command(outcome.code)}. Nothing was signed in, and the academy command in your terminal stops waiting.</>}>
          <Body>If you did not run {command("academy login")} yourself, you did the right thing. You can close this tab.</Body>
        </AuthCard>
      );
    case "approved":
      return (
        <AuthCard title={titles.approved} lead={<>You approved code {command(outcome.code)}. You can close this tab and return to your terminal: it finishes signing in within a few seconds.</>}>
          <Body>
            Then try {command("academy whoami")} or {command("academy courses")}. <SignOutHint />
          </Body>
        </AuthCard>
      );
    case "signed-in":
      return (
        <AuthCard title={titles["signed-in"]} lead={<>Code {command(outcome.code)} was approved and your terminal has signed in. You can close this tab and return to your terminal.</>}>
          <Body>
            Try {command("academy whoami")} or {command("academy courses")}. <SignOutHint />
          </Body>
        </AuthCard>
      );
    case "expired":
      return (
        <AuthCard title={titles.expired} lead={<>You approved code {command(outcome.code)}, but it expired before your terminal collected its sign-in.</>}>
          <Body>Run {command("academy login")} again for a new code.</Body>
        </AuthCard>
      );
    case "none":
      return (
        <AuthCard title={titles.none} lead="There is no CLI sign-in from this browser to report here.">
          <Body>
            Run {command("academy login")} in your terminal: it opens a page on this site showing its code, where you approve it.
            {signedIn && (
              <> The CLIs signed in to your account are listed under {devicesLink}.</>
            )}
          </Body>
        </AuthCard>
      );
  }
}
