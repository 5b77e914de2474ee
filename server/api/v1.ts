import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { listOwnedCourses } from "../commerce/index.ts";
import { session } from "../db/schema.ts";
import { TooManyRequests, UserError, ValidationError } from "../errors.ts";
import { authorize } from "./credentials.ts";
import type { ApiCaller } from "./scopes.ts";
import { addResources, errorResponses, type ResourceDeps } from "./resources.ts";

export type ApiDeps = ResourceDeps & { rateLimitPerMinute: number };

type ApiEnv = { Variables: { caller: ApiCaller } };

const errorCodes: Record<number, string> = { 400: "invalid_input", 401: "unauthorized", 403: "forbidden", 404: "not_found", 409: "conflict", 429: "rate_limited", 503: "unavailable" };

/** The one error shape, made through the context so the headers already set (RateLimit-*, Retry-After) go with it. */
function errorResponse(c: Context, status: number, message: string, fields?: Record<string, string>) {
  return c.json({ error: { code: errorCodes[status] ?? "error", message, ...(fields ? { fields } : {}) } }, status as 400);
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

const security = [{ bearer: [] }];

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
  api.notFound((c) => errorResponse(c, 404, "There is no such API endpoint. The list is at /api/v1/openapi.json."));

  const rateLimit = { windowSeconds: 60, max: deps.rateLimitPerMinute };
  api.use("*", async (c, next) => {
    if (c.req.path === "/api/v1/openapi.json") return next();
    const header = c.req.header("authorization") ?? "";
    const token = /^Bearer ([\w.~+/-]+=*)$/i.exec(header)?.[1];
    const authorized = token ? await authorize(deps.db, token, deps.now(), rateLimit) : null;
    if (!authorized) {
      c.header("WWW-Authenticate", 'Bearer realm="academy"');
      return errorResponse(c, 401, token ? "This token is not valid any more. Run academy login to sign in again." : "Sign in first: run academy login, or send a token as Authorization: Bearer <token>.");
    }
    const { caller, limit } = authorized;
    c.header("RateLimit-Limit", String(rateLimit.max));
    c.header("RateLimit-Remaining", String(Math.max(0, rateLimit.max - limit.count)));
    c.header("RateLimit-Reset", String(limit.retryAfterSeconds));
    if (!limit.allowed) {
      c.header("Retry-After", String(limit.retryAfterSeconds));
      return errorResponse(c, 429, `Too many requests with this token. Try again in ${limit.retryAfterSeconds} seconds.`);
    }
    c.set("caller", caller);
    await next();
  });

  const caller = (c: Context<ApiEnv>) => c.get("caller");

  api.openapi(
    createRoute({ method: "get", path: "/me", summary: "Who the token signs in as", security, responses: { 200: { description: "The signed-in person", content: { "application/json": { schema: Me } } }, ...errorResponses(401, 429) } }),
    (c) => {
      const { userId, name, email } = caller(c);
      return c.json({ id: userId, name, email }, 200);
    },
  );

  api.openapi(
    createRoute({ method: "delete", path: "/session", summary: "Sign this token out", security, responses: { 204: { description: "Signed out" }, ...errorResponses(400, 401, 429) } }),
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
      summary: "Every course, with whether you are enrolled and how far you are",
      security,
      responses: { 200: { description: "The catalogue", content: { "application/json": { schema: z.object({ courses: z.array(Course) }) } } }, ...errorResponses(401, 429) },
    }),
    async (c) => {
      const catalog = deps.catalog();
      const owned = new Map((await listOwnedCourses(deps.db, catalog, caller(c).userId)).map((o) => [o.course.id, o.percent]));
      return c.json(
        {
          courses: catalog.courses.map((course) => ({
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
  api.get("/openapi.json", (c) => c.json(document));
  return { api, document };
}

/** Where the browser fetches the interactive reference (Scalar's standalone bundle and its stylesheet). */
export const apiReferenceAssets = { script: "/api-tools/reference.js", stylesheet: "/api-tools/reference.css" } as const;

const documentInfo = {
  openapi: "3.1.0",
  info: { title: "Academy API", version: "1.0.0", description: "What the academy CLI does, for your own scripts. Sign in with `academy login`, or send an API key made on /api-tools." },
  servers: [{ url: "/api/v1" }],
};

export type ApiDocument = ReturnType<ReturnType<typeof createApi>["api"]["getOpenAPI31Document"]>;
