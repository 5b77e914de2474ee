import { Link } from "react-router";
import { AuthCard } from "../../components/form-controls.tsx";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/cli-auth-success";

export function loader({ url }: Route.LoaderArgs) {
  return { denied: url.searchParams.get("denied") === "1" };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: args.loaderData?.denied ? "CLI sign-in denied" : "The Academy CLI is signed in", description: "Return to your terminal." });

/** Spec §2: where the browser lands once the CLI's sign-in is approved (or denied). */
export default function CliAuthSuccess({ loaderData }: Route.ComponentProps) {
  return loaderData.denied ? (
    <AuthCard title="CLI sign-in denied" lead="Nothing was signed in. The academy command in your terminal stops waiting.">
      <p className="text-sm text-slate-700 dark:text-slate-300">
        If you did not run <code className="font-mono">academy login</code> yourself, you did the right thing. You can close this tab.
      </p>
    </AuthCard>
  ) : (
    <AuthCard title="The Academy CLI is signed in" lead="You can close this tab and return to your terminal.">
      <p className="text-sm text-slate-700 dark:text-slate-300">
        Try <code className="font-mono">academy whoami</code> or <code className="font-mono">academy courses</code>. To sign the CLI out, run{" "}
        <code className="font-mono">academy logout</code>, or sign it out under{" "}
        <Link to="/settings" className="font-semibold text-brand-700 underline dark:text-brand-300">
          Settings → Signed-in devices
        </Link>
        .
      </p>
    </AuthCard>
  );
}
