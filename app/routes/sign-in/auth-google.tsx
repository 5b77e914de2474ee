import { redirect } from "react-router";
import { postToAuth, safeRedirectTarget } from "../../../server/auth/index.ts";
import { appServices } from "../../../server/context.ts";
import type { Route } from "./+types/auth-google";

/**
 * Starts "Continue with Google": asks Better Auth for the provider's authorization URL (setting
 * its state cookie) and sends the browser there. In a popup, the flow ends on /auth/popup-complete.
 */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  const { auth, googleEnabled } = context.get(appServices);
  const redirectTo = safeRedirectTarget(url.searchParams.get("redirectTo"));
  const intent = redirectTo === "/" ? "" : `&redirectTo=${encodeURIComponent(redirectTo)}`;
  const back = (error: string) => redirect(`/login?error=${error}${intent}`);
  if (!googleEnabled) throw back("google-unavailable");
  const popup = url.searchParams.get("popup") === "1";
  const done = popup ? `/auth/popup-complete?redirectTo=${encodeURIComponent(redirectTo)}` : redirectTo;
  const result = await postToAuth(auth, request, "/sign-in/social", {
    provider: "google",
    callbackURL: done,
    errorCallbackURL: `/login?error=google${popup ? "&popup=1" : ""}${intent}`,
    disableRedirect: true,
  });
  if (!result.ok) throw back(result.status === 429 ? "google-rate" : "google");
  const target = (result.body as { url?: string } | null)?.url;
  if (!target) throw back("google");
  throw redirect(target, { headers: result.headers });
}
