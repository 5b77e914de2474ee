import { useEffect } from "react";
import { Link } from "react-router";
import { safeRedirectTarget } from "../../../server/auth/index.ts";
import { AuthCard } from "../../components/form-controls.tsx";
import { popupMessage } from "../../lib/popup-message.ts";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/auth-popup-complete";

export function loader({ url }: Route.LoaderArgs) {
  return { redirectTo: safeRedirectTarget(url.searchParams.get("redirectTo")) };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Signed in", description: "Google sign-in finished." });

/** The end of a Google sign-in in a popup: tell the page that opened it, then close. */
export default function PopupComplete({ loaderData }: Route.ComponentProps) {
  useEffect(() => {
    if (window.opener && window.opener !== window) {
      window.opener.postMessage({ type: popupMessage, redirectTo: loaderData.redirectTo }, window.location.origin);
      window.close();
    } else {
      window.location.replace(loaderData.redirectTo);
    }
  }, [loaderData.redirectTo]);
  return (
    <AuthCard title="You're signed in">
      <p className="text-sm text-slate-600 dark:text-slate-400">
        You can close this window.{" "}
        <Link to={loaderData.redirectTo} className="font-medium text-brand-700 underline dark:text-brand-300">
          Continue
        </Link>
      </p>
    </AuthCard>
  );
}
