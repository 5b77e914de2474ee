import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { deflatePart, type DeflatedPart, type Encoding } from "./compression.ts";

export interface StaticFile {
  type: string;
  body: Buffer<ArrayBuffer>;
  encoded: Partial<Record<Encoding, Buffer<ArrayBuffer>>>;
  immutable: boolean;
  etag: string;
}

const types: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".json": "application/json",
  ".webmanifest": "application/manifest+json",
  ".txt": "text/plain; charset=utf-8",
  ".map": "application/json",
};

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/**
 * The built client files, held in memory with their pre-compressed siblings (.br, .gz written at
 * build time). Files under /assets/ carry a content hash in their name and are cached forever.
 */
export async function loadStaticAssets(clientDir: string): Promise<Map<string, StaticFile>> {
  const files = await listFiles(clientDir);
  const assets = new Map<string, StaticFile>();
  const present = new Set(files);
  for (const file of files) {
    if (file.endsWith(".br") || file.endsWith(".gz")) continue;
    const urlPath = "/" + path.relative(clientDir, file).split(path.sep).join("/");
    const body = await readFile(file);
    const encoded: StaticFile["encoded"] = {};
    if (present.has(file + ".br")) encoded.br = await readFile(file + ".br");
    if (present.has(file + ".gz")) encoded.gzip = await readFile(file + ".gz");
    assets.set(urlPath, {
      type: types[path.extname(file)] ?? "application/octet-stream",
      body,
      encoded,
      immutable: urlPath.startsWith("/assets/"),
      etag: `"${createHash("sha1").update(body).digest("base64url").slice(0, 20)}"`,
    });
  }
  return assets;
}

/** A built stylesheet as documents inline it: its text decoded and its bytes deflated once, not per page. */
export interface InlineStylesheet {
  text: string;
  part: DeflatedPart;
}

const inlined = new WeakMap<StaticFile, InlineStylesheet>();

/** A built stylesheet by its URL, for inlining into documents. */
export function inlineStylesheet(assets: Map<string, StaticFile>, href: string): InlineStylesheet | undefined {
  const file = assets.get(href);
  if (!file || !file.type.startsWith("text/css")) return undefined;
  let sheet = inlined.get(file);
  if (!sheet) {
    sheet = { text: file.body.toString("utf8"), part: deflatePart(file.body) };
    inlined.set(file, sheet);
  }
  return sheet;
}

/** Where a document carries the stylesheet inlined: the text of its first <style> element, byte for byte; -1 when it does not. */
export function inlinedAt(html: Buffer, sheet: InlineStylesheet): number {
  const tag = html.indexOf("<style");
  const at = tag < 0 ? -1 : html.indexOf(">", tag) + 1;
  const { bytes } = sheet.part;
  return at > 0 && html.length >= at + bytes.length && html.compare(bytes, 0, bytes.length, at, at + bytes.length) === 0 ? at : -1;
}
