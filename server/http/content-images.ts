import { createHash } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { contentImagePath, type Catalog } from "../catalog/index.ts";
import { compressOnce } from "./compression.ts";
import type { HttpEnv } from "./env.ts";
import { prepareResponse, requestHeader, sendPrepared, type PreparedResponse } from "./prepared-response.ts";

/**
 * An SVG opened on its own is a document: whatever the content check missed still may not run
 * script, load anything or be framed.
 */
const svgPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox; frame-ancestors 'none'";

interface Prepared {
  etag: string;
  response: PreparedResponse;
}

/**
 * The catalogue's drawings (covers, portraits, project pictures) at the addresses the pages use.
 * The address changes with the bytes, so each is cached for a year.
 */
export const contentImagesRoute = `${contentImagePath}*`;

export function contentImages(catalog: () => Catalog, baseHeaders: Record<string, string>): MiddlewareHandler<HttpEnv> {
  // Prepared once per catalogue: the dev server swaps in a new one when content changes.
  const prepared = new WeakMap<Catalog, Map<string, Prepared>>();
  const lookup = (current: Catalog, src: string): Prepared | undefined => {
    let files = prepared.get(current);
    if (!files) {
      files = new Map();
      prepared.set(current, files);
    }
    let file = files.get(src);
    const body = current.images.get(src);
    if (!file && body) {
      const etag = `"${createHash("sha1").update(body).digest("base64url").slice(0, 20)}"`;
      const headers = {
        ...baseHeaders,
        "content-security-policy": svgPolicy,
        "content-type": "image/svg+xml",
        "cache-control": "public, max-age=31536000, immutable",
        etag,
      };
      file = { etag, response: prepareResponse(200, headers, body, compressOnce(body)) };
      files.set(src, file);
    }
    return file;
  };
  return async (c) => {
    const file = lookup(catalog(), c.req.path);
    if (!file) return c.text("Not found", 404);
    c.set("routine", true);
    if (requestHeader(c, "if-none-match") === file.etag) return c.body(null, 304);
    return sendPrepared(c, file.response);
  };
}
