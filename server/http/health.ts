import type { Context, Hono } from "hono";
import { version } from "../version.ts";
import type { HttpDeps } from "./deps.ts";
import type { HttpEnv } from "./env.ts";
import { headedResponse } from "./prepared-response.ts";
import type { Site } from "./site.ts";

/** /healthz (the process answers) and /readyz (it can serve: the database answers and it is not shutting down). */
export function mountHealth(app: Hono<HttpEnv>, deps: HttpDeps, site: Site): void {
  const json = "application/json";
  /** A small JSON answer with all its headers, for the probes that poll us most. */
  const routineJson = (c: Context<HttpEnv>, status: number, body: unknown) => {
    c.set("routine", true);
    return headedResponse(c, status, { ...site.headersFor(null, c.req.path, json), "content-type": json }, JSON.stringify(body));
  };

  app.get("/healthz", (c) => routineJson(c, 200, { status: "ok", version }));
  app.get("/readyz", async (c) => {
    if (deps.draining?.()) return routineJson(c, 503, { status: "shutting down" });
    return (await deps.database.ready()) ? routineJson(c, 200, { status: "ready" }) : routineJson(c, 503, { status: "not ready" });
  });
}
