import type { Hono } from "hono";
import { handleCliAuth } from "../api/cli-auth.ts";
import { cliTokenPrefix } from "../auth/options.ts";
import { appRequest, requestAddress } from "./app-request.ts";
import { jsonBodyProblem } from "./body-checks.ts";
import { hasSession } from "./page-cache.ts";
import type { HttpDeps } from "./deps.ts";
import type { HttpEnv } from "./env.ts";
import { writeOrigin } from "./site-origin.ts";
import type { Site } from "./site.ts";

/** The response with one header more; a fetched response's headers may be read-only, so it is copied. */
function withHeader(response: Response, name: string, value: string): Response {
  const headers = new Headers(response.headers);
  headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * Better Auth's list-sessions answer without the CLI's tokens: they are API credentials, and a
 * page's script (or whoever holds a browser's cookie) must not lift them. The settings page
 * revokes through the server-side call, which still sees them.
 */
async function withoutCliTokens(response: Response): Promise<Response> {
  const sessions = (await response.clone().json().catch(() => null)) as unknown;
  if (!Array.isArray(sessions)) return response;
  const shown = sessions.map((item: unknown) => {
    if (typeof item !== "object" || item === null) return item;
    const { token, ...rest } = item as { token?: unknown };
    return typeof token === "string" && token.startsWith(cliTokenPrefix) ? rest : item;
  });
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(JSON.stringify(shown), { status: response.status, headers });
}

/** Better Auth's endpoints at /api/auth/*, and the CLI's device login at /api/cli-auth. */
export function mountAuth(app: Hono<HttpEnv>, deps: HttpDeps, site: Site): void {
  app.on(["GET", "POST"], "/api/auth/*", async (c) => {
    const request = appRequest(c, site.publicOrigin, deps.proxyHops);
    const problem = await jsonBodyProblem(request);
    if (problem) return c.json({ code: "INVALID_INPUT", message: problem.message }, problem.status);
    const response = await deps.identity.auth.handler(request);
    // Better Auth's own limits say X-Retry-After; clients and proxies read the standard header.
    const retryAfter = response.headers.get("x-retry-after");
    if (response.status === 429 && retryAfter && !response.headers.has("retry-after")) return withHeader(response, "Retry-After", retryAfter);
    if (c.req.path === "/api/auth/list-sessions" && response.ok) return withoutCliTokens(response);
    return response;
  });

  const now = deps.payments.shop.now;
  app.post("/api/cli-auth", async (c) => {
    if (!writeOrigin({ origin: c.req.header("origin"), secFetchSite: c.req.header("sec-fetch-site") }, deps.siteOrigins)) {
      return c.json({ success: false, error: "This request came from another site, so nothing was changed." }, 403);
    }
    // The approval counts only with the session that was shown it: the page's cookie, never a bearer token.
    const cookie = c.req.header("cookie");
    const session = hasSession(cookie) ? await deps.identity.auth.api.getSession({ headers: new Headers({ cookie: cookie ?? "" }) }) : null;
    const from = { address: requestAddress(c, deps.proxyHops), sessionId: session?.session.id ?? null };
    const answer = await handleCliAuth({ cliLogin: deps.identity.cliLogin, now }, await c.req.json().catch(() => null), from);
    if (answer.retryAfterSeconds !== undefined) c.header("Retry-After", String(answer.retryAfterSeconds));
    return c.json(answer.body, answer.status as 200);
  });
}
