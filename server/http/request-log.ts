import { randomUUID } from "node:crypto";
import type { Hono } from "hono";
import { inRequestScope, pathForLog, type RequestScope } from "../logger.ts";
import { methodLabel, metricsPath, type RouteOf } from "../metrics/http.ts";
import { requestAddress } from "./app-request.ts";
import type { HttpDeps } from "./deps.ts";
import type { HttpEnv } from "./env.ts";
import { requestHeader } from "./prepared-response.ts";
import type { Site } from "./site.ts";

const requestIdPattern = /^[\w-]{8,64}$/;

/** A request's id: the client's X-Request-Id when well formed, else a new one. */
export function requestIdFrom(header: string | undefined): string {
  return header && requestIdPattern.test(header) ? header : randomUUID();
}

/**
 * Around every request: its id (the client's, when well formed), the security headers of an answer
 * that does not carry them yet, the request's metrics, and its log line.
 */
export function mountRequestLog(app: Hono<HttpEnv>, deps: HttpDeps, site: Site, routeOf: RouteOf): void {
  const metrics = deps.metrics?.collector;

  app.use("*", async (c, next) => {
    const started = performance.now();
    const requestId = requestIdFrom(requestHeader(c, "x-request-id"));
    c.set("requestId", requestId);
    // Every line logged while the request is handled names it; the request's own line below also says who and how it ended.
    const scope: RequestScope = { requestId };
    await inRequestScope(scope, next).finally(() => (scope.closed = true));
    if (!c.get("headed")) {
      const headers = site.headersFor(c.get("nonce") ?? null, c.req.path, c.res.headers.get("content-type"));
      for (const name in headers) c.res.headers.set(name, headers[name]!);
      c.res.headers.set("X-Request-Id", requestId);
    }
    const ms = performance.now() - started;
    const failed = scope.error !== undefined;
    // Health probes, static files and cached pages are most of the requests and say nothing while they succeed.
    const logged = failed || !c.get("routine") || c.res.status >= 400;
    const route = metrics || logged ? await routeOf(c) : undefined;
    // A scrape counted in what it reports would change the figures by being read.
    if (metrics && route !== undefined && route !== metricsPath) metrics.observeRequest(methodLabel(c.req.method), route, c.res.status, ms / 1000);
    if (!logged) return;
    const line = {
      requestId,
      method: c.req.method,
      path: pathForLog(c.req.path),
      route,
      status: c.res.status,
      ms: Math.round(ms * 10) / 10,
      ...(scope.userId !== undefined && { userId: scope.userId }),
      client: requestAddress(c, deps.proxyHops),
    };
    if (failed) deps.logger.error({ ...line, err: scope.error }, "request failed");
    else deps.logger.info(line);
  });
}
