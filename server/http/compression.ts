import { promisify } from "node:util";
import { Duplex } from "node:stream";
import { brotliCompress, brotliCompressSync, constants, crc32, createGzip, deflateRawSync, gzip, gzipSync } from "node:zlib";

export type Encoding = "br" | "gzip";

/** How much the client wants each encoding, from its Accept-Encoding header (0: not at all). */
function encodingWeights(acceptEncoding: string | undefined | null): (name: Encoding) => number {
  const accepted = new Map<string, number>();
  for (const part of (acceptEncoding ?? "").split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean);
    if (name) accepted.set(name, q === undefined ? 1 : Number(q));
  }
  return (name) => accepted.get(name) ?? accepted.get("*") ?? 0;
}

/** Picks brotli over gzip when the client accepts it; null means send identity. */
export function negotiateEncoding(acceptEncoding: string | undefined | null): Encoding | null {
  const weight = encodingWeights(acceptEncoding);
  if (weight("br") > 0) return "br";
  if (weight("gzip") > 0) return "gzip";
  return null;
}

/** Whether gzip is acceptable: the one encoding a download is streamed in. */
export function acceptsGzip(acceptEncoding: string | undefined | null): boolean {
  return encodingWeights(acceptEncoding)("gzip") > 0;
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

/** The brotli quality of a response made per request (bench/compression.ts weighs each level on real pages). */
export const perRequestBrotliQuality = 3;
/**
 * The gzip level of a response made per request. 3: on a lesson (67 KB of HTML) it takes 0.36 ms
 * for 14.8 KB where 6 took 0.76 ms for 13.7 KB (bench/compression.ts) — brotli's rule: no level
 * whose doubled CPU buys a few percent.
 */
export const perRequestGzipLevel = 3;

const perRequestBrotli = (body: Buffer) => ({
  params: { [constants.BROTLI_PARAM_QUALITY]: perRequestBrotliQuality, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
});

/**
 * Compression for a response made per request (a document, at most a few hundred KB), on the main
 * thread. Brotli 3: on a lesson (66 KB of HTML) it takes 0.30 ms of CPU for 13.2 KB where 4 took
 * 0.59 ms for 12.7 KB and 5 took 0.89 ms for 11.7 KB (bench/compression.ts, npm run bench). Handing
 * it to the thread pool cost more than the compression: the uncached course page served 81–118
 * req/s that way against 115–121 in one piece here (wrk, issue 30).
 */
export function compressPerRequest(body: Buffer, encoding: Encoding): Buffer<ArrayBuffer> {
  return encoding === "br" ? brotliCompressSync(body, perRequestBrotli(body)) : gzipSync(body, { level: perRequestGzipLevel });
}

/** Bytes that many responses carry whole (the inlined stylesheet), deflated once to be spliced into each one's gzip. */
export interface DeflatedPart {
  bytes: Buffer;
  deflated: Buffer;
}

/** Deflates `bytes` once, at the best level, ending on a byte boundary with no final block so more may follow. */
export function deflatePart(bytes: Buffer): DeflatedPart {
  return { bytes, deflated: deflateRawSync(bytes, { level: 9, finishFlush: constants.Z_SYNC_FLUSH }) };
}

/** A gzip member's header: deflate, no name or time, unknown system (RFC 1952). */
const gzipHeader = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

/**
 * The gzip of `body`, which carries `part.bytes` at `at`, with the part's deflate made once instead
 * of per request. Deflate's back references reach only into bytes already sent, so a part deflated on
 * its own decodes the same after any prefix; each piece ends on a byte boundary (a sync flush) and
 * only the last is final, so the three make one deflate stream (RFC 1951), under one header and one
 * checksum of the whole body. The inlined stylesheet is two thirds of a first visit's course page
 * (137 KB): 0.26 ms this way against 0.85 ms for brotli 3 of the whole, for 25.5 KB against 25.2.
 * Brotli has no such seam in Node: its encoder's stream offset, which would allow one, is not exposed.
 */
export function gzipAround(body: Buffer, at: number, part: DeflatedPart): Buffer<ArrayBuffer> {
  const end = at + part.bytes.length;
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc32(body), 0);
  trailer.writeUInt32LE(body.length % 2 ** 32, 4);
  return Buffer.concat([
    gzipHeader,
    deflateRawSync(body.subarray(0, at), { level: perRequestGzipLevel, finishFlush: constants.Z_SYNC_FLUSH }),
    part.deflated,
    deflateRawSync(body.subarray(end), { level: perRequestGzipLevel }),
    trailer,
  ]);
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** A large file (megabytes of script) compressed once at the per-request levels, off the main thread so no request waits behind it. */
export async function compressLargeFile(body: Buffer): Promise<{ br: Buffer<ArrayBuffer>; gzip: Buffer<ArrayBuffer> }> {
  const [br, gz] = await Promise.all([brotliAsync(body, perRequestBrotli(body)), gzipAsync(body, { level: perRequestGzipLevel })]);
  return { br, gzip: gz };
}

/**
 * A download that streams (the data export, up to tens of megabytes) compressed as it goes, a chunk
 * at a time off the main thread, instead of held whole in memory to be compressed in one piece.
 */
export function compressStream(response: Response): Response {
  const headers = new Headers(response.headers);
  headers.set("Content-Encoding", "gzip");
  headers.delete("Content-Length");
  headers.append("Vary", "Accept-Encoding");
  // Level 1: a download is compressed once for one reader, and level 6 costs three times the CPU for a few percent fewer bytes.
  const gzipStream = Duplex.toWeb(createGzip({ level: 1 })) as ReadableWritablePair<Uint8Array, Uint8Array>;
  return new Response(response.body?.pipeThrough(gzipStream), { status: response.status, headers });
}

const compressible = /^(text\/|application\/(json|javascript|xml|manifest\+json)|image\/svg\+xml)/;

export function isCompressible(contentType: string | null): boolean {
  return contentType !== null && compressible.test(contentType);
}
