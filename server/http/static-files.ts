import type { Hono } from "hono";
import { contentImages, contentImagesRoute } from "./content-images.ts";
import type { HttpDeps } from "./deps.ts";
import type { HttpEnv } from "./env.ts";
import type { FixedAnswer } from "./front-door.ts";
import { prepareResponse } from "./prepared-response.ts";
import type { Site } from "./site.ts";

/** The built client files with their headers prepared once, for the front door to serve. */
export function staticAnswers(deps: HttpDeps, { headersFor }: Site): Map<string, FixedAnswer> {
  return new Map(
    [...deps.assets].map(([path, file]) => {
      const caching = { etag: file.etag, "cache-control": file.immutable ? "public, max-age=31536000, immutable" : "public, max-age=3600" };
      const headers = { ...headersFor(null, path, file.type), "content-type": file.type, ...caching };
      return [
        path,
        {
          response: prepareResponse(200, headers, file.body, file.encoded),
          route: path.startsWith("/assets/") ? "/assets/*" : path,
          unchanged: { etag: file.etag, headers: { ...headersFor(null, path, null), ...caching } },
        },
      ];
    }),
  );
}

/** The catalogue's images; an unknown /assets/ file is 404 (the front door serves the known ones), any other path goes on to the pages. */
export function mountStaticFiles(app: Hono<HttpEnv>, deps: HttpDeps, site: Site): void {
  app.on(["GET", "HEAD"], contentImagesRoute, contentImages(deps.catalog, site.headersFor(null, contentImagesRoute, "image/svg+xml")));
  app.get("/assets/*", (c) => c.text("Not found", 404));
}
