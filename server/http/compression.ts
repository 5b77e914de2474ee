import { Readable } from "node:stream";
import { brotliCompressSync, constants, createBrotliCompress, createGzip, gzipSync } from "node:zlib";

export type Encoding = "br" | "gzip";

/** Picks brotli over gzip when the client accepts it; null means send identity. */
export function negotiateEncoding(acceptEncoding: string | undefined | null): Encoding | null {
  if (!acceptEncoding) return null;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean);
    if (name) accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const weight = (name: Encoding) => accepted.get(name) ?? accepted.get("*") ?? 0;
  if (weight("br") > 0) return "br";
  if (weight("gzip") > 0) return "gzip";
  return null;
}

/** Best compression, for bodies compressed once and served many times. */
export function compressOnce(body: Buffer): { br: Buffer<ArrayBuffer>; gzip: Buffer<ArrayBuffer> } {
  return {
    br: brotliCompressSync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 6, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
    gzip: gzipSync(body, { level: 9 }),
  };
}

/** Fast streaming compression for responses rendered per request. */
export function compressStream(body: ReadableStream<Uint8Array>, encoding: Encoding): ReadableStream<Uint8Array> {
  const compressor =
    encoding === "br"
      ? createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 5 }, flush: constants.BROTLI_OPERATION_FLUSH })
      : createGzip({ level: 6, flush: constants.Z_SYNC_FLUSH });
  return Readable.toWeb(Readable.fromWeb(body as import("node:stream/web").ReadableStream).pipe(compressor)) as ReadableStream<Uint8Array>;
}

const compressible = /^(text\/|application\/(json|javascript|xml|manifest\+json)|image\/svg\+xml)/;

export function isCompressible(contentType: string | null): boolean {
  return contentType !== null && compressible.test(contentType);
}
