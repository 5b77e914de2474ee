import type { ServerBuild } from "react-router";

type RouteManifest = ServerBuild["routes"];

interface CompiledRoute {
  matcher: RegExp;
  page: string;
  /** The same route's single-fetch data request (`/course/x.data`). */
  data: string;
  score: number;
}

/** The data request React Router makes for the index page. */
const rootData = "/_root.data";

/**
 * A function from a request path to the React Router pattern that answers it (`/course/:courseId`),
 * or undefined when no route does. React Router's own matchRoutes flattens, ranks and compiles the
 * whole route table on every call (0.3–0.4 ms for ours, measured); this does that once, ranking as
 * React Router does, so a request costs a few anchored regular-expression tests (about 1 µs).
 */
export function pagePatternMatcher(routes: RouteManifest): (path: string) => string | undefined {
  const patterns = Object.values(routes).flatMap((route) => (route && (route.path !== undefined || route.index) ? [{ path: fullPath(routes, route.id), index: route.index === true }] : []));
  const compiled: CompiledRoute[] = patterns.flatMap(({ path, index }) =>
    withoutOptionalSegments(path).map((variant) => ({
      matcher: matcherFor(variant),
      page: path,
      data: path === "/" ? rootData : `${path}.data`,
      score: score(variant, index),
    })),
  );
  // A stable sort keeps the table's order among equal scores, as React Router does for siblings.
  compiled.sort((a, b) => b.score - a.score);
  const find = (path: string) => compiled.find((route) => route.matcher.test(path));
  return (path) => {
    if (!path.endsWith(".data")) return find(path)?.page;
    return path === rootData ? rootData : find(path.slice(0, -".data".length))?.data;
  };
}

/** `/parent/child`: the route's path under its parents', layouts adding nothing. */
function fullPath(routes: RouteManifest, id: string): string {
  const segments: string[] = [];
  for (let route = routes[id]; route; route = route.parentId ? routes[route.parentId] : undefined) {
    if (route.path) segments.unshift(route.path.replace(/^\/+|\/+$/g, ""));
  }
  return `/${segments.filter(Boolean).join("/")}`;
}

/** React Router's expansion of `a/:b?` into `a/:b` and `a`, each matched (and ranked) on its own. */
function withoutOptionalSegments(path: string): string[] {
  const segments = path.split("/").filter(Boolean);
  let variants = [""];
  for (const segment of segments) {
    const required = segment.replace(/\?$/, "");
    const withSegment = variants.map((variant) => `${variant}/${required}`);
    variants = segment.endsWith("?") ? [...withSegment, ...variants] : withSegment;
  }
  return variants.map((variant) => variant || "/");
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Case-insensitive, with an optional trailing slash, `:param` one segment and `*` the rest: React Router's rules. */
function matcherFor(path: string): RegExp {
  let source = "^";
  for (const segment of path.split("/").filter(Boolean)) {
    const param = /^:[\w-]+/.exec(segment)?.[0];
    if (segment === "*") source += "(?:/.*)?";
    else source += param ? `/[^/]+${escapeRegExp(segment.slice(param.length))}` : `/${escapeRegExp(segment)}`;
  }
  return new RegExp(`${source}/*$`, "i");
}

/** React Router's route score (computeScore): more segments and static ones rank first, splats last. */
function score(path: string, index: boolean): number {
  const segments = path.split("/");
  let total = segments.length + (segments.includes("*") ? -2 : 0) + (index ? 2 : 0);
  for (const segment of segments) {
    if (segment === "*") continue;
    total += /^:[\w-]+$/.test(segment) ? 3 : /^:[\w-]+/.test(segment) ? 3.5 : segment === "" ? 1 : 10;
  }
  return total;
}
