import { createHash, timingSafeEqual } from "node:crypto";
import type { Context } from "hono";
import { routePath } from "hono/route";
import type { ServerBuild } from "react-router";
import { pagePatternMatcher } from "./route-patterns.ts";

export const metricsPath = "/metrics";

/** The label of requests no route of ours answers: React Router's not-found page and its data requests. */
export const unknownRoute = "other";

/** Methods counted under their own name; any other (a client may send anything) counts as `other`. */
const knownMethods = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

export const methodLabel = (method: string) => (knownMethods.has(method) ? method : unknownRoute);

/**
 * The route a request is counted under, never its raw path, so the metric keeps a bounded number
 * of series: the Hono route that answered (`/api/v1/notes/:id`, `/uploads/*`), else a built asset
 * (`/assets/*`, or a top-level file such as `/favicon.svg`), else the React Router pattern of the
 * page (`/course/:courseId`, `/course/:courseId.data`), else `other`.
 */
export type RouteOf = (c: Context) => Promise<string>;

export function requestRoutes(options: { build: ServerBuild | (() => Promise<ServerBuild>); staticFiles: ReadonlyMap<string, unknown> }): RouteOf {
  let pages: { routes: ServerBuild["routes"]; match: (path: string) => string | undefined } | undefined;
  // The development server swaps in a new build on edits; production has one for the process's life.
  const pageMatcher = async () => {
    const build = typeof options.build === "function" ? await options.build() : options.build;
    if (pages?.routes !== build.routes) pages = { routes: build.routes, match: pagePatternMatcher(build.routes) };
    return pages.match;
  };
  return async (c) => {
    const route = routePath(c);
    if (route !== "*" && route !== "/*") return route;
    const path = c.req.path;
    if (path.startsWith("/assets/")) return "/assets/*";
    if (options.staticFiles.has(path)) return path;
    const page = (await pageMatcher())(path);
    return page === undefined || page === "/*" || page === "/*.data" ? unknownRoute : page;
  };
}

const digest = (text: string) => createHash("sha256").update(text).digest();

/** True when the Authorization header carries `token`; compared as digests, so in constant time whatever was sent. */
export function bearerTokenMatches(authorization: string | undefined, token: string): boolean {
  const sent = /^Bearer +(\S+) *$/i.exec(authorization ?? "")?.[1] ?? "";
  return timingSafeEqual(digest(sent), digest(token));
}
