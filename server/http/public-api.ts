import { readdir, readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Hono } from "hono";
import { apiReferenceModule } from "../../common/api-reference.ts";
import { createApi } from "../api/v1.ts";
import { compressLargeFile } from "./compression.ts";
import type { HttpDeps } from "./deps.ts";
import type { HttpEnv } from "./env.ts";
import { prepareResponse, sendPrepared, type PreparedResponse } from "./prepared-response.ts";
import type { Site } from "./site.ts";

export type PublicApi = ReturnType<typeof createApi>;

/** The public API over the app's database and catalogue; its OpenAPI document is also shown on /api-tools. */
export function createPublicApi(deps: HttpDeps): PublicApi {
  return createApi({ db: deps.database.db, cipher: deps.identity.cipher, catalog: deps.catalog, now: deps.payments.shop.now, rateLimitPerMinute: deps.apiRateLimit, sharedReads: deps.database.sharedReads });
}

/** The public API at /api/v1, and the files of its interactive reference. */
export function mountPublicApi(app: Hono<HttpEnv>, publicApi: PublicApi, site: Site): void {
  app.route("/api/v1", publicApi.api);
  // Scalar's API reference, from this origin (the CSP allows nothing else): its module build, whose
  // entry adds its own stylesheet and whose parts load as the page needs them, each file read and
  // compressed (off the main thread) on first use. Only the files Scalar ships are served.
  const scalarDir = join(dirname(fileURLToPath(import.meta.resolve("@scalar/api-reference"))), "browser");
  const files = readdir(join(scalarDir, "chunks")).then(
    (names) => new Set(["standalone.esm.js", ...names.filter((name) => name.endsWith(".js")).map((name) => `chunks/${name}`)]),
  );
  const prepared = new Map<string, Promise<PreparedResponse>>();
  app.get(`${apiReferenceModule.directory}/*`, async (c, next) => {
    const file = c.req.path.slice(apiReferenceModule.directory.length + 1);
    if (!(await files).has(file)) return next();
    let response = prepared.get(file);
    if (!response) {
      response = readFile(join(scalarDir, file)).then(async (body) => {
        const compressed = await compressLargeFile(body);
        // The parts' names carry their content's hash; the entry's does not.
        const maxAge = file === "standalone.esm.js" ? "max-age=86400" : "max-age=31536000, immutable";
        const type = "text/javascript; charset=utf-8";
        const headers = { ...site.headersFor(null, c.req.path, type), "content-type": type, "cache-control": `public, ${maxAge}` };
        return prepareResponse(200, headers, Buffer.from(body), compressed);
      });
      prepared.set(file, response);
    }
    c.set("routine", true);
    return sendPrepared(c, await response);
  });
}
