import type { Hono } from "hono";
import { contentImages, contentImagesRoute } from "./content-images.ts";
import type { HttpDeps } from "./deps.ts";
import type { HttpEnv } from "./env.ts";
import { prepareResponse, requestHeader, sendPrepared } from "./prepared-response.ts";
import type { Site } from "./site.ts";

/** The catalogue's images, and the built client files with their headers prepared once; an unknown /assets/ file is 404, any other path goes on to the pages. */
export function mountStaticFiles(app: Hono<HttpEnv>, deps: HttpDeps, site: Site): void {
  const { headersFor } = site;
  const assets = new Map(
    [...deps.assets].map(([path, file]) => [
      path,
      {
        etag: file.etag,
        response: prepareResponse(
          200,
          {
            ...headersFor(null, path, file.type),
            "content-type": file.type,
            etag: file.etag,
            "cache-control": file.immutable ? "public, max-age=31536000, immutable" : "public, max-age=3600",
          },
          file.body,
          file.encoded,
        ),
      },
    ]),
  );

  app.on(["GET", "HEAD"], contentImagesRoute, contentImages(deps.catalog, headersFor(null, contentImagesRoute, "image/svg+xml")));

  app.on(["GET", "HEAD"], "*", async (c, next) => {
    const file = assets.get(c.req.path);
    if (!file) {
      if (c.req.path.startsWith("/assets/")) return c.text("Not found", 404);
      return next();
    }
    c.set("routine", true);
    if (requestHeader(c, "if-none-match") === file.etag) return c.body(null, 304);
    return sendPrepared(c, file.response);
  });
}
