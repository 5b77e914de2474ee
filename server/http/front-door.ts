import type { RequestListener } from "node:http";
import type { Hono } from "hono";
import type { Metrics } from "../metrics/registry.ts";
import { methodLabel } from "../metrics/http.ts";
import type { HttpEnv } from "./env.ts";
import type { PageCache } from "./page-cache.ts";
import { type Answer, encodingFor, headerOf, incomingHeader, preparedAnswer, type PreparedResponse } from "./prepared-response.ts";
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

/** The front door's answer to a request (its method, its path and query as sent, a header by its lower-case name), if it has one. */
export type FrontDoor = (method: string, target: string, header: (name: string) => string | undefined) => Answer | undefined;

type Fetch = Hono<HttpEnv>["fetch"];

/**
 * The answers that are the same bytes for everyone and most of the traffic (/healthz, the built
 * files, anonymous pages the page cache holds), given before the request pipeline. Its middleware
 * makes every request asynchronous (a promise per layer, the request's log scope, a handler for the
 * connection closing), a good part of such an answer's cost (bench/fixed-cost.ts measures it beside
 * bare Hono). What the pipeline would add they get here: the request id, their security headers
 * (prepared with them) and the request's metrics; none of them is logged, as the pipeline logs
 * routine answers only when they fail. Any other request, including one of these with another
 * method than GET or HEAD, is the pipeline's.
 */
export function frontDoor({ fixed, pageCache, metrics }: { fixed: ReadonlyMap<string, FixedAnswer>; pageCache: PageCache<CachedPage>; metrics: Metrics | undefined }): FrontDoor {
  return (method, target, header) => {
    const started = performance.now();
    if (method !== "GET" && method !== "HEAD") return undefined;
    const query = target.indexOf("?");
    const answer = fixed.get(query === -1 ? target : target.slice(0, query));
    let response: PreparedResponse;
    let route: string;
    if (answer) {
      ({ response, route } = answer);
    } else {
      const page = pageCache.serves(method, header("cookie")) ? pageCache.get(target) : undefined;
      if (!page) return undefined;
      ({ response, route } = page);
    }
    const requestId = requestIdFrom(header("x-request-id"));
    const held = answer?.unchanged;
    const sent =
      held && header("if-none-match") === held.etag
        ? { status: 304, headers: { ...held.headers, "x-request-id": requestId }, body: null }
        : preparedAnswer(response, encodingFor(header("accept-encoding") ?? ""), method === "HEAD", requestId);
    metrics?.observeRequest(methodLabel(method), route, sent.status, (performance.now() - started) / 1000);
    return sent;
  };
}

/** The path and query of an absolute URL, as sent: what comes after its origin. A path is its own. */
export const targetOf = (url: string) => (url.startsWith("/") ? url : url.slice(url.indexOf("/", url.indexOf("//") + 2)));

/** The front door before a fetch handler (the app called in-process: tests, payment webhooks). */
export function fetchThrough(door: FrontDoor, pipeline: Fetch): Fetch {
  return (request, env, executionContext) => {
    const answer = door(request.method, targetOf(request.url), (name) => headerOf(request, env, name));
    if (!answer) return pipeline(request, env, executionContext);
    return new Response(answer.body, answer);
  };
}

/**
 * The front door before Node's request listener for the pipeline (the server's): its answers are
 * written to Node's response as they are, with no Request or Response made for them.
 */
export function listenThrough(door: FrontDoor, listener: RequestListener): RequestListener {
  return (request, response) => {
    const answer = door(request.method ?? "", targetOf(request.url ?? "/"), (name) => incomingHeader(request.headers, name));
    if (!answer) return listener(request, response);
    response.writeHead(answer.status, answer.headers);
    if (answer.body) response.end(answer.body);
    else response.end();
  };
}
