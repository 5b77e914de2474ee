import type { Hono } from "hono";
import type { FileStorage } from "../storage/index.ts";
import { parseKey, uploadsPath } from "../storage/keys.ts";
import type { HttpEnv } from "./env.ts";
import { requestHeader } from "./prepared-response.ts";

export function mountUploads(app: Hono<HttpEnv>, storage: FileStorage): void {
  // Served by us from either store, so the bucket stays private; a key's bytes never change, hence a year.
  app.get(`${uploadsPath}*`, async (c) => {
    const key = c.req.path.slice(uploadsPath.length);
    const file = parseKey(key);
    if (!file) return c.text("Not found", 404);
    // The ETag is the key's own, so a browser that holds it has the bytes: no need to read the store.
    const cached = requestHeader(c, "if-none-match") === file.etag;
    const body = cached ? null : await storage.get(key);
    if (!cached && !body) return c.text("Not found", 404);
    c.set("routine", true);
    c.header("Cache-Control", "public, max-age=31536000, immutable");
    c.header("ETag", file.etag);
    if (!body) return c.body(null, 304);
    c.header("Content-Type", file.contentType);
    return c.body(new Uint8Array(body));
  });
}
