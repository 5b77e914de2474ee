/** The signed-in person as pages see them. */
export interface Viewer {
  id: string;
  name: string;
  email: string;
  image: string | null;
  emailVerified: boolean;
  /** The session this request is signed in with. */
  sessionId: string;
}

// Lessons (/courses/:id/submodule/:lessonId) are not here: free previews are open to visitors, and the page locks the rest.
const signedInOnly = [/^\/account(\/|$)/, /^\/courses\/[^/]+\/(confirm|MainPage|modules|complete|certificate|module\/[^/]+)$/, /^\/profile$/, /^\/settings$/, /^\/notes$/, /^\/verify-email$/, /^\/certificates\/[^/]+\/pdf$/];

export type AccessRedirect = { to: string; replace: boolean };

/** The verification page, remembering where to go once the address is verified. */
export function verifyEmailPath(then: string): string {
  return then === "/" ? "/verify-email" : `/verify-email?redirectTo=${encodeURIComponent(then)}`;
}

/** Where a verification mail's link leads once the address is verified: on to `then`, saying so once. */
export function emailVerifiedPath(then: string): string {
  return then === "/" ? "/email-verified" : `/email-verified?redirectTo=${encodeURIComponent(then)}`;
}

/** Where an unverified person was going when they were sent to verify: the page, or a sign-in's own destination. */
function intendedPath(pathname: string, search: string): string {
  if (pathname === "/logout") return "/";
  if (pathname !== "/login") return pathname + search;
  const params = new URLSearchParams(search);
  // Approving the CLI continues once the address is verified.
  return params.has("cliToken") ? pathname + search : safeRedirectTarget(params.get("redirectTo"));
}

/**
 * Spec §4 and the identity issue: where a request must go instead of `pathname`, or null.
 * - signed in, e-mail not verified, anywhere but /verify-email → /verify-email (replacing history),
 *   remembering where they were going; /email-verified explains a link that did not work
 * - verified and on /verify-email → /
 * - signed out on an account page → /login?redirectTo=… (and back after signing in)
 */
export function accessRedirect(pathname: string, search: string, viewer: Viewer | null): AccessRedirect | null {
  if (viewer && !viewer.emailVerified) {
    if (pathname === "/verify-email" || pathname === "/email-verified") return null;
    return { to: verifyEmailPath(intendedPath(pathname, search)), replace: true };
  }
  if (viewer && pathname === "/verify-email") return { to: safeRedirectTarget(new URLSearchParams(search).get("redirectTo")), replace: true };
  if (!viewer && signedInOnly.some((pattern) => pattern.test(pathname))) {
    return { to: `/login?redirectTo=${encodeURIComponent(pathname + search)}`, replace: false };
  }
  return null;
}

const siteBase = new URL("http://academy.invalid/");

/** Whether a browser following `path` as a Location header stays on this site. */
function staysOnSite(path: string): boolean {
  // A path that starts with two slashes (or a slash and a backslash) names another host.
  if (!path.startsWith("/") || /^\/[/\\]/.test(path)) return false;
  try {
    return new URL(path, siteBase).origin === siteBase.origin;
  } catch {
    return false;
  }
}

/**
 * A redirectTo value we will follow: resolved the way a browser resolves it (tabs and line breaks
 * dropped, backslashes as slashes, dot segments, %2e among them, removed), and returned as a clean
 * path only when that path, followed again, stays on this site: `/a/..//evil.example` resolves to
 * `//evil.example`, which is another host.
 */
export function safeRedirectTarget(value: string | null | undefined, fallback = "/"): string {
  if (!value) return fallback;
  let target: URL;
  try {
    target = new URL(value, siteBase);
  } catch {
    return fallback;
  }
  if (target.origin !== siteBase.origin) return fallback;
  const path = target.pathname + target.search + target.hash;
  return staysOnSite(path) ? path : fallback;
}
