import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Hono } from "hono";
import { apiReferenceAssets, createApi } from "../api/v1.ts";
import { compressPerRequest } from "./compression.ts";
import type { HttpDeps } from "./deps.ts";
import type { HttpEnv } from "./env.ts";
import { prepareResponse, sendPrepared, type PreparedResponse } from "./prepared-response.ts";
import type { Site } from "./site.ts";

export type PublicApi = ReturnType<typeof createApi>;

/** The public API over the app's database and catalogue; its OpenAPI document is also shown on /api-tools. */
export function createPublicApi(deps: HttpDeps): PublicApi {
  return createApi({ db: deps.database.db, cipher: deps.identity.cipher, catalog: deps.catalog, now: deps.payments.shop.now, rateLimitPerMinute: deps.apiRateLimit });
}

/** The public API at /api/v1, and the files of its interactive reference. */
export function mountPublicApi(app: Hono<HttpEnv>, publicApi: PublicApi, site: Site): void {
  app.route("/api/v1", publicApi.api);
  // Scalar's API reference, from this origin (the CSP allows nothing else): its bundle, which adds
  // its own stylesheet, read and compressed (off the main thread) on first use.
  const scalarBundle = join(dirname(fileURLToPath(import.meta.resolve("@scalar/api-reference"))), "browser/standalone.js");
  const route = apiReferenceAssets.script;
  let prepared: Promise<PreparedResponse> | undefined;
  app.get(route, async (c) => {
    prepared ??= readFile(scalarBundle).then(async (body) => {
      const [br, gzip] = await Promise.all([compressPerRequest(body, "br"), compressPerRequest(body, "gzip")]);
      const headers = { ...site.headersFor(null, route), "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=86400" };
      return prepareResponse(200, headers, Buffer.from(body), { br, gzip });
    });
    c.set("routine", true);
    return sendPrepared(c, await prepared);
  });
}
