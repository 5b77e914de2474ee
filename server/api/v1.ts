import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { sharedCoursesOnSale } from "../catalog/index.ts";
import { listOwnedCourses } from "../commerce/index.ts";
import { session } from "../db/schema.ts";
import type { SharedReads } from "../db/shared-reads.ts";
import { TooManyRequests, UserError, ValidationError } from "../errors.ts";
import { apiBodyProblem } from "../http/body-checks.ts";
import { checkBearer } from "./bearer.ts";
import { authorize } from "./credentials.ts";
import { apiErrorBody } from "./error-body.ts";
import { apiScopes, requires, type ApiCaller, type ApiScope } from "./scopes.ts";
import { addResources, errorResponses, json, noContent, registerHeaders, type ResourceDeps } from "./resources.ts";

/** `sharedReads`: what is on sale, kept in the process as the catalogue pages keep it (decision 031). */
export type ApiDeps = ResourceDeps & { rateLimitPerMinute: number; sharedReads: SharedReads };

type ApiEnv = { Variables: { caller: ApiCaller } };

export { apiErrorBody } from "./error-body.ts";

/** Where the API is mounted (server/http/public-api.ts). */
export const apiBase = "/api/v1";

/** The one error shape, made through the context so the headers already set (RateLimit-*, Retry-After) go with it. */
function errorResponse(c: Context, status: number, message: string, fields?: Record<string, string>) {
  return c.json({ error: { ...apiErrorBody(status, message).error, ...(fields ? { fields } : {}) } }, status as 400);
}

/** One operation as the OpenAPI document declares it; `scopes` null for the document itself, which anyone may read; `anonymous` when its security also offers `{}`: a request without a token is answered too. */
interface Operation {
  method: string;
  pattern: RegExp;
  scopes: readonly ApiScope[] | null;
  anonymous: boolean;
  hasBody: boolean;
}

const methods = ["get", "put", "post", "delete", "patch"] as const;

/**
 * The routes as the door checks them, from the generated document: each operation's scopes are
 * its `security` requirement, so the declaration that documents a scope is the one enforced. A
 * route that declares none, or no `operationId` of its own (generated clients name their calls
 * by it), stops the server at start-up rather than serving unchecked. An operation with servers
 * of its own (the invoice) is described here but served elsewhere.
 */
function operationsOf(document: ApiDocument): Operation[] {
  const operationIds = new Set<string>();
  const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    methods.flatMap((method) => {
      const operation = item?.[method];
      if (!operation) return [];
      const declared = operation.security?.[0]?.bearer;
      if (!declared || !declared.every((scope) => (apiScopes as readonly string[]).includes(scope))) {
        throw new Error(`${method.toUpperCase()} ${apiBase}${path} must declare the scopes it needs: security: requires(...)`);
      }
      if (!operation.operationId || operationIds.has(operation.operationId)) {
        throw new Error(`${method.toUpperCase()} ${apiBase}${path} must declare an operationId no other operation has.`);
      }
      operationIds.add(operation.operationId);
      if (operation.servers) return [];
      const pattern = new RegExp(`^${path.replaceAll(/\{[^/}]+\}/g, "[^/]+")}$`);
      const anonymous = operation.security?.some((requirement) => Object.keys(requirement).length === 0) === true;
      return [{ method: method.toUpperCase(), pattern, scopes: declared as ApiScope[], anonymous, hasBody: operation.requestBody !== undefined }];
    }),
  );
  return [...operations, { method: "GET", pattern: /^\/openapi\.json$/, scopes: null, anonymous: true, hasBody: false }];
}


const Me = z.object({ id: z.string(), name: z.string(), email: z.string() }).openapi("Me");

const Course = z
  .object({
    id: z.string().openapi({ example: "react-fundamentals" }),
    title: z.string(),
    summary: z.string(),
    price: z.object({ amount: z.number().int().openapi({ description: "In minor units (paise)." }), currency: z.string() }),
    enrolled: z.boolean(),
    progressPercent: z.number().int().nullable().openapi({ description: "Share of lessons completed, when enrolled." }),
  })
  .openapi("Course");

/**
 * The public JSON API: every route is declared once with zod schemas, which validate the request
 * and generate the OpenAPI 3.1 document at /api/v1/openapi.json. Every answer other than success
 * has the shape `{ error: { code, message, fields? } }`.
 */
export function createApi(deps: ApiDeps) {
  const api = new OpenAPIHono<ApiEnv>({
    defaultHook: (result, c) => {
      if (result.success) return;
      const fields = Object.fromEntries(result.error.issues.map((issue) => [issue.path.join(".") || "body", issue.message]));
      return errorResponse(c, 400, `Check ${Object.keys(fields).join(", ")}: ${Object.values(fields)[0]}`, fields);
    },
  });
  registerHeaders(api);
  api.openAPIRegistry.registerComponent("securitySchemes", "bearer", {
    type: "http",
    scheme: "bearer",
    description: "The token `academy login` stores, or an API key made on /api-tools (`acd_…`).",
  });

  api.onError((error, c) => {
    if (error instanceof TooManyRequests) c.header("Retry-After", String(error.retryAfterSeconds));
    if (error instanceof UserError) return errorResponse(c, error.status, error.message);
    // Hono's validator refuses a body it cannot parse before zod sees it.
    if (error instanceof HTTPException && error.status === 400) return errorResponse(c, 400, "The body is not valid JSON. Send a JSON object with Content-Type: application/json.", { body: "not valid JSON" });
    throw error;
  });

  const rateLimit = { windowSeconds: 60, max: deps.rateLimitPerMinute };
  // Filled once every route is declared, below; requests arrive only after that.
  let operations: Operation[] = [];
  api.use("*", async (c, next) => {
    const path = c.req.path.slice(apiBase.length) || "/";
    const matching = operations.filter((op) => op.pattern.test(path));
    if (matching.length === 0) return errorResponse(c, 404, "There is no such API endpoint. The list is at /api/v1/openapi.json.");
    const operation = matching.find((op) => op.method === (c.req.method === "HEAD" ? "GET" : c.req.method));
    if (!operation) {
      const allowed = [...new Set(matching.flatMap((op) => (op.method === "GET" ? ["GET", "HEAD"] : [op.method])))].join(", ");
      c.header("Allow", allowed);
      return errorResponse(c, 405, `${apiBase}${path} does not take ${c.req.method}: use ${allowed}.`);
    }
    if (operation.scopes === null || (operation.anonymous && !c.req.header("authorization"))) return next();

    const checked = await checkBearer(c.req.header("authorization"), operation.scopes, (token) => authorize(deps.db, token, deps.now(), rateLimit));
    for (const [name, value] of Object.entries(checked.headers)) c.header(name, value);
    if (!checked.ok) return errorResponse(c, checked.status, checked.message);
    if (operation.hasBody) {
      const problem = await apiBodyProblem(c.req.raw);
      if (problem) return errorResponse(c, problem.status, problem.message, { body: problem.message });
    }
    c.set("caller", checked.caller);
    await next();
  });

  const caller = (c: Context<ApiEnv>) => c.get("caller");
  // Unset only on an operation that takes requests without a token.
  const callerIfAny = (c: Context<ApiEnv>): ApiCaller | undefined => c.get("caller");

  api.openapi(
    createRoute({ method: "get", path: "/me", operationId: "getMe", summary: "Who the token signs in as", security: requires("read"), responses: { 200: json(Me, "The signed-in person"), ...errorResponses(401, 403, 429) } }),
    (c) => {
      const { userId, name, email } = caller(c);
      return c.json({ id: userId, name, email }, 200);
    },
  );

  api.openapi(
    createRoute({ method: "delete", path: "/session", operationId: "signOut", summary: "Sign this token out (any credential may end itself)", security: requires(), responses: { 204: noContent("Signed out"), ...errorResponses(400, 401, 429) } }),
    async (c) => {
      const { sessionId } = caller(c);
      if (!sessionId) throw new ValidationError("This is an API key, not a signed-in CLI: revoke it on /api-tools instead.");
      await deps.db.delete(session).where(eq(session.id, sessionId));
      return c.body(null, 204);
    },
  );

  api.openapi(
    createRoute({
      method: "get",
      path: "/courses",
      operationId: "listCourses",
      summary: "Every course on sale and every course you have, with whether you are enrolled and how far you are (without a token: every course on sale)",
      security: [...requires("read"), {}],
      responses: { 200: json(z.object({ courses: z.array(Course) }), "The catalogue"), ...errorResponses(401, 403, 429) },
    }),
    async (c) => {
      const catalog = deps.catalog();
      const userId = callerIfAny(c)?.userId;
      const [ownedCourses, onSale] = await Promise.all([userId ? listOwnedCourses(deps.db, catalog, userId) : [], sharedCoursesOnSale(deps.sharedReads, deps.db)]);
      const owned = new Map(ownedCourses.map((o) => [o.course.id, o.percent]));
      return c.json(
        {
          // A course taken off sale is listed only to those who have it.
          courses: catalog.courses.filter((course) => onSale.has(course.id) || owned.has(course.id)).map((course) => ({
            id: course.id,
            title: course.title,
            summary: course.summary,
            price: { amount: course.price.amount, currency: course.price.currency },
            enrolled: owned.has(course.id),
            progressPercent: owned.get(course.id) ?? null,
          })),
        },
        200,
      );
    },
  );

  addResources(api, deps);

  // Generated once from the routes above, served as it is and shown on /api-tools.
  const document = api.getOpenAPI31Document(documentInfo);
  operations = operationsOf(document);
  api.get("/openapi.json", (c) => c.json(document));
  return { api, document };
}

const documentInfo = {
  openapi: "3.1.0",
  info: { title: "Academy API", version: "1.0.0", description: "What the academy CLI does, for your own scripts. Sign in with `academy login`, or send an API key made on /api-tools." },
  servers: [{ url: "/api/v1" }],
};

export type ApiDocument = ReturnType<ReturnType<typeof createApi>["api"]["getOpenAPI31Document"]>;
