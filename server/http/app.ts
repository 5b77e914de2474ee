import type { RequestListener } from "node:http";
import { getRequestListener } from "@hono/node-server";
import { Hono } from "hono";
import { requestRoutes } from "../metrics/http.ts";
import { mountAuth } from "./auth.ts";
import type { HttpDeps } from "./deps.ts";
import { mountDevTools } from "./dev-tools.ts";
import { createDocuments, mountDocuments } from "./documents.ts";
import type { HttpEnv } from "./env.ts";
import { mountErrorHandling } from "./error-handling.ts";
import { type CachedPage, fetchThrough, frontDoor, listenThrough } from "./front-door.ts";
import { healthAnswer, healthPath, mountHealth } from "./health.ts";
import { mountMetrics } from "./metrics.ts";
import { PageCache } from "./page-cache.ts";
import { mountPayments } from "./payments.ts";
import { createPublicApi, mountPublicApi } from "./public-api.ts";
import { mountRequestLog } from "./request-log.ts";
import { mountSeo } from "./seo.ts";
import { siteOf } from "./site.ts";
import { mountStaticFiles, staticAnswers } from "./static-files.ts";
import { mountUploads } from "./uploads.ts";

export type { HttpDeps } from "./deps.ts";

/** The app, called in-process through `fetch` (or Hono's `request`), and by Node's server through `listener`. */
export type HttpApp = Hono<HttpEnv> & { listener: RequestListener };

/**
 * The request pipeline, in the order Hono runs it (the order matters): what every request passes
 * through, then each kind of address, and the pages last, for whatever nothing before answered.
 * In front of it, the answers that are the same for everyone: /healthz, the built files, cached pages.
 */
export function createHttpApp(deps: HttpDeps): HttpApp {
  const app = new Hono<HttpEnv>();
  const site = siteOf(deps);
  const publicApi = createPublicApi(deps);
  const documents = createDocuments(deps, site, publicApi);
  const routeOf = requestRoutes({ build: deps.build, staticFiles: deps.assets });
  const pageCache = new PageCache<CachedPage>({ ttlSeconds: deps.dev ? 0 : deps.pageCacheSeconds });

  mountRequestLog(app, deps, site, routeOf);
  mountErrorHandling(app, deps, documents);
  mountUploads(app, deps.storage);
  if (deps.metrics) mountMetrics(app, deps.metrics, deps.logger);
  mountHealth(app, deps, site);
  mountAuth(app, deps, site);
  mountPublicApi(app, publicApi, site);
  if (!deps.production) mountDevTools(app, deps);
  mountPayments(app, deps);
  mountSeo(app, deps);
  mountStaticFiles(app, deps, site);
  mountDocuments(app, deps, { site, documents, pageCache, routeOf });

  const fixed = staticAnswers(deps, site).set(healthPath, healthAnswer(site));
  const door = frontDoor({ fixed, pageCache, metrics: deps.metrics?.collector });
  const pipeline = app.fetch;
  app.fetch = fetchThrough(door, pipeline);
  return Object.assign(app, { listener: listenThrough(door, getRequestListener(pipeline)) });
}
