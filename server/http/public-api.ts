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
  // Scalar's API reference, from this origin (the CSP allows nothing else): its bundle and stylesheet,
  // each read and compressed (off the main thread) on first use.
  const scalarDir = dirname(fileURLToPath(import.meta.resolve("@scalar/api-reference")));
  for (const [route, file, type] of [
    [apiReferenceAssets.script, "browser/standalone.js", "text/javascript; charset=utf-8"],
    [apiReferenceAssets.stylesheet, "style.css", "text/css; charset=utf-8"],
  ] as const) {
    let prepared: Promise<PreparedResponse> | undefined;
    app.get(route, async (c) => {
      prepared ??= readFile(join(scalarDir, file)).then(async (body) => {
        const [br, gzip] = await Promise.all([compressPerRequest(body, "br"), compressPerRequest(body, "gzip")]);
        const headers = { ...site.headersFor(null, route), "content-type": type, "cache-control": "public, max-age=86400" };
        return prepareResponse(200, headers, Buffer.from(body), { br, gzip });
      });
      c.set("routine", true);
      return sendPrepared(c, await prepared);
    });
  }
}
