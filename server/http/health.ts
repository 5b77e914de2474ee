import type { Context, Hono } from "hono";
import { version } from "../version.ts";
import type { HttpDeps } from "./deps.ts";
import type { HttpEnv } from "./env.ts";
import type { FixedAnswer } from "./front-door.ts";
import { headedResponse, prepareResponse } from "./prepared-response.ts";
import type { Site } from "./site.ts";

const json = "application/json";
export const healthPath = "/healthz";
const readyPath = "/readyz";

/** A probe's request (a load balancer's, a container's HEALTHCHECK): not traffic. */
export const isProbePath = (url: string | undefined): boolean => url === healthPath || url === readyPath;

/** The headers of a probe's JSON answer at `path`. */
const jsonHeaders = ({ headersFor }: Site, path: string) => ({ ...headersFor(null, path, json), "content-type": json });

/** /healthz: the process answers. The probe that polls us most, so the front door serves it. */
export function healthAnswer(site: Site): FixedAnswer {
  const body = Buffer.from(JSON.stringify({ status: "ok", version }));
  return { response: prepareResponse(200, jsonHeaders(site, healthPath), body, {}), route: healthPath };
}

/** /readyz: the process can serve (the database answers and it is not shutting down). */
export function mountHealth(app: Hono<HttpEnv>, deps: HttpDeps, site: Site): void {
  const routineJson = (c: Context<HttpEnv>, status: number, body: unknown) => {
    c.set("routine", true);
    return headedResponse(c, status, jsonHeaders(site, c.req.path), JSON.stringify(body));
  };

  app.get(readyPath, async (c) => {
    if (deps.draining?.()) return routineJson(c, 503, { status: "shutting down" });
    return (await deps.database.ready()) ? routineJson(c, 200, { status: "ready" }) : routineJson(c, 503, { status: "not ready" });
  });
}
