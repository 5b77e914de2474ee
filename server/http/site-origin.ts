/**
 * The origin a state-changing page request (a form post, a React Router action) was sent from,
 * or null when it must be refused: a browser sends `Origin` with every POST, so one that is not
 * our site's is another site's form; with no `Origin` at all only `Sec-Fetch-Site: same-origin`
 * vouches for it. The answer is one of `siteOrigins`, so the request can be handed on with that
 * origin and React Router's own check agrees even when a TLS proxy sits in front.
 */
export function writeOrigin(
  headers: { origin: string | undefined; secFetchSite: string | undefined },
  siteOrigins: readonly string[],
): string | null {
  const [publicOrigin = null] = siteOrigins;
  if (headers.origin !== undefined) return siteOrigins.includes(headers.origin) ? headers.origin : null;
  return headers.secFetchSite === "same-origin" ? publicOrigin : null;
}

/** Requests that only read: never refused for their origin. */
export function isSafeMethod(method: string): boolean {
  return method === "GET" || method === "HEAD" || method === "OPTIONS";
}
