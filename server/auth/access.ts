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

const signedInOnly = [/^\/account(\/|$)/, /^\/courses\/[^/]+\/(confirm|MainPage|modules|certificate|module\/[^/]+|submodule\/[^/]+)$/, /^\/profile$/, /^\/settings$/, /^\/notes$/, /^\/verify-email$/];

export type AccessRedirect = { to: string; replace: boolean };

/**
 * Spec §4 and the identity issue: where a request must go instead of `pathname`, or null.
 * - signed in, e-mail not verified, anywhere but /verify-email → /verify-email (replacing history)
 * - verified and on /verify-email → /
 * - signed out on an account page → /login?redirectTo=… (and back after signing in)
 */
export function accessRedirect(pathname: string, search: string, viewer: Viewer | null): AccessRedirect | null {
  if (viewer && !viewer.emailVerified) {
    return pathname === "/verify-email" ? null : { to: "/verify-email", replace: true };
  }
  if (viewer && pathname === "/verify-email") return { to: "/", replace: true };
  if (!viewer && signedInOnly.some((pattern) => pattern.test(pathname))) {
    return { to: `/login?redirectTo=${encodeURIComponent(pathname + search)}`, replace: false };
  }
  return null;
}

/** A redirectTo value we will follow: a path on this site, never another origin. */
export function safeRedirectTarget(value: string | null | undefined, fallback = "/"): string {
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  return value;
}
