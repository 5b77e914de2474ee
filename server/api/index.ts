export { checkBearer, type BearerCheck } from "./bearer.ts";
export { apiErrorBody } from "./error-body.ts";
export { createApiKey, listApiKeys, revokeApiKey, type ApiKeySummary } from "./keys.ts";
export { apiScopes, type ApiScope } from "./scopes.ts";
