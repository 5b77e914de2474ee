/** The spec's words when sign-up meets an e-mail that has an account: the sign-in page makes "sign in instead" a link. */
export const accountExistsMessage = "An account with this e-mail already exists — sign in instead";

/** Pages whose header offers no way to sign in: the sign-in page itself, and the steps that follow it. */
const signInPages = new Set(["/login", "/login/two-factor"]);

/**
 * Where the header's sign-in and create-account links go from `location`: back here afterwards,
 * except from the home page (the default) and the pages of signing in itself.
 */
export function signInLinks(location: { pathname: string; search: string }): { signIn: string; signUp: string } | null {
  if (signInPages.has(location.pathname)) return null;
  const back = location.pathname === "/" ? "" : `redirectTo=${encodeURIComponent(`${location.pathname}${location.search}`)}`;
  return { signIn: `/login${back ? `?${back}` : ""}`, signUp: `/login?mode=signup${back ? `&${back}` : ""}` };
}
