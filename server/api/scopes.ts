import type { ApiScope } from "../../common/api-keys.ts";

export { apiScopes, type ApiScope } from "../../common/api-keys.ts";

/**
 * A route's one declaration of what it needs, as its OpenAPI `security` requirement: the API's
 * door (server/api/v1.ts) enforces it for every route, and refuses to start with a route that has none.
 * No scope at all means any credential of the person's may call it.
 */
export const requires = (...scopes: ApiScope[]) => [{ bearer: scopes }];

/** Who an API request is from: the person, the credential it came with, and what that may do. */
export interface ApiCaller {
  userId: string;
  email: string;
  name: string;
  /** What rate limits count against: `session:<id>` for the CLI's token, `key:<id>` for an API key. */
  credentialId: string;
  /** The CLI's session, when the credential is one; null for an API key. */
  sessionId: string | null;
  scopes: readonly ApiScope[];
}
