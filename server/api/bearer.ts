import type { Authorized } from "./credentials.ts";
import type { ApiCaller, ApiScope } from "./scopes.ts";

/** A request's bearer credential as checked for an operation: the caller, or why not; either way the headers to answer with. */
export type BearerCheck =
  | { ok: true; caller: ApiCaller; headers: Record<string, string> }
  | { ok: false; status: 401 | 403 | 429; message: string; headers: Record<string, string> };

const bearerPattern = /^Bearer ([\w.~+/-]+=*)$/i;

/**
 * The one check of `Authorization: Bearer <token>` (a CLI session or an API key), for /api/v1 and
 * for everything else a token may fetch (the invoice): the same token gets the same answer, words
 * and headers wherever it is sent. `authorize` looks the token up and counts the request.
 */
export async function checkBearer(
  authorization: string | null | undefined,
  scopes: readonly ApiScope[],
  authorize: (token: string) => Promise<Authorized | null>,
): Promise<BearerCheck> {
  const token = bearerPattern.exec(authorization ?? "")?.[1];
  const authorized = token ? await authorize(token) : null;
  if (!authorized) {
    return {
      ok: false,
      status: 401,
      message: token ? "This token is not valid any more. Run academy login to sign in again." : "Sign in first: run academy login, or send a token as Authorization: Bearer <token>.",
      headers: { "WWW-Authenticate": 'Bearer realm="academy"' },
    };
  }
  const { caller, limit } = authorized;
  const headers: Record<string, string> = {
    "RateLimit-Limit": String(limit.max),
    "RateLimit-Remaining": String(limit.remaining),
    "RateLimit-Reset": String(limit.retryAfterSeconds),
  };
  if (!limit.allowed) return { ok: false, status: 429, message: limit.refusal, headers: { ...headers, "Retry-After": String(limit.retryAfterSeconds) } };
  const missing = scopes.find((scope) => !caller.scopes.includes(scope));
  if (missing) return { ok: false, status: 403, message: `This key may not do that: it needs the "${missing}" scope. Create a key with it on /api-tools.`, headers };
  return { ok: true, caller, headers };
}
