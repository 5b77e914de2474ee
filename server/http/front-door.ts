import type { Hono } from "hono";
import type { Metrics } from "../metrics/registry.ts";
import { methodLabel } from "../metrics/http.ts";
import type { HttpEnv } from "./env.ts";
import type { PageCache } from "./page-cache.ts";
import { encodingFor, headerOf, preparedAnswer, type PreparedResponse } from "./prepared-response.ts";
import { requestIdFrom } from "./request-log.ts";

/** An answer that is the same for every request at its path: /healthz, a built file. */
export interface FixedAnswer {
  response: PreparedResponse;
  /** The route it is counted under in the metrics. */
  route: string;
  /** A built file's: a request that already holds it is answered 304 with these headers. */
  unchanged?: { etag: string; headers: Record<string, string> };
}

/** An anonymous page as the page cache keeps it. */
export interface CachedPage {
  response: PreparedResponse;
  route: string;
}

type Fetch = Hono<HttpEnv>["fetch"];

/**
 * The answers that are the same bytes for everyone and most of the traffic (/healthz, the built
 * files, anonymous pages the page cache holds), given before the request pipeline. Its middleware
 * makes every request asynchronous (a promise per layer, the request's log scope, a handler for the
 * connection closing), a good part of such an answer's cost (bench/fixed-cost.ts measures it beside
 * bare Hono). What the pipeline would add they get here: the request id, their security headers
 * (prepared with them) and the request's metrics; none of them is logged, as the pipeline logs
 * routine answers only when they fail. Any other request, including one of these with another
 * method than GET or HEAD, goes on to `pipeline`.
 */
export function frontDoor(
  pipeline: Fetch,
  { fixed, pageCache, metrics }: { fixed: ReadonlyMap<string, FixedAnswer>; pageCache: PageCache<CachedPage>; metrics: Metrics | undefined },
): Fetch {
  return (request, env, executionContext) => {
    const started = performance.now();
    const { method } = request;
    if (method !== "GET" && method !== "HEAD") return pipeline(request, env, executionContext);
    // The path and query as sent: what comes after the origin of the absolute URL.
    const { url } = request;
    const target = url.slice(url.indexOf("/", url.indexOf("//") + 2));
    const query = target.indexOf("?");
    const answer = fixed.get(query === -1 ? target : target.slice(0, query));
    let response: PreparedResponse;
    let route: string;
    if (answer) {
      ({ response, route } = answer);
    } else {
      const page = pageCache.serves(method, headerOf(request, env, "cookie")) ? pageCache.get(target) : undefined;
      if (!page) return pipeline(request, env, executionContext);
      ({ response, route } = page);
    }
    const requestId = requestIdFrom(headerOf(request, env, "x-request-id"));
    const held = answer?.unchanged;
    const sent =
      held && headerOf(request, env, "if-none-match") === held.etag
        ? new Response(null, { status: 304, headers: { ...held.headers, "x-request-id": requestId } })
        : preparedAnswer(response, encodingFor(headerOf(request, env, "accept-encoding") ?? ""), method === "HEAD", requestId);
    metrics?.observeRequest(methodLabel(method), route, sent.status, (performance.now() - started) / 1000);
    return sent;
  };
}
