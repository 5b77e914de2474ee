import type { IncomingHttpHeaders } from "node:http";
import type { Context } from "hono";
import { negotiateEncoding, type Encoding } from "./compression.ts";
import type { HttpEnv } from "./env.ts";

interface Variant {
  body: Buffer<ArrayBuffer>;
  /** Every header but the request id, security headers included. */
  headers: Record<string, string>;
}

/**
 * A response body kept in memory, in each encoding it has, with its headers worked out once.
 * Serving one is a lookup and a plain header object: a Headers instance per response cost more
 * than the rest of a static file or a cached page.
 */
export type PreparedResponse = { status: number; identity: Variant } & Partial<Record<Encoding, Variant>>;

export function prepareResponse(
  status: number,
  headers: Record<string, string>,
  body: Buffer<ArrayBuffer>,
  encoded: Partial<Record<Encoding, Buffer<ArrayBuffer>>>,
): PreparedResponse {
  // Vary only when there is something to choose between.
  const varies = encoded.br !== undefined || encoded.gzip !== undefined;
  const variant = (payload: Buffer<ArrayBuffer>, encoding?: Encoding): Variant => ({
    body: payload,
    headers: {
      ...headers,
      ...(varies && { vary: "Accept-Encoding" }),
      ...(encoding && { "content-encoding": encoding }),
      "content-length": String(payload.length),
    },
  });
  return {
    status,
    identity: variant(body),
    ...(encoded.br && { br: variant(encoded.br, "br") }),
    ...(encoded.gzip && { gzip: variant(encoded.gzip, "gzip") }),
  };
}

/** A request header, from Node's parsed headers when there are some (building a Headers object costs more than a light response). */
export function requestHeader(c: Context<HttpEnv>, name: string): string | undefined {
  return headerOf(c.req.raw, c.env, name);
}

/** requestHeader before there is a Hono context: `name` in lower case. */
export function headerOf(request: Request, env: HttpEnv["Bindings"] | undefined, name: string): string | undefined {
  const headers = env?.incoming?.headers;
  return headers ? incomingHeader(headers, name) : (request.headers.get(name) ?? undefined);
}

/** A header of Node's parsed request, repeated ones joined as a Headers object joins them: `name` in lower case. */
export function incomingHeader(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

const negotiated = new Map<string, Encoding | null>();

/** negotiateEncoding, remembered per header value: browsers send a handful of distinct ones. */
export function acceptedEncoding(c: Context<HttpEnv>): Encoding | null {
  return encodingFor(requestHeader(c, "accept-encoding") ?? "");
}

/** acceptedEncoding of an Accept-Encoding header's value. */
export function encodingFor(header: string): Encoding | null {
  let encoding = negotiated.get(header);
  if (encoding === undefined) {
    encoding = negotiateEncoding(header);
    if (negotiated.size < 100) negotiated.set(header, encoding);
  }
  return encoding;
}

/** A response whose headers are all given here, security headers included; only the request id is added. */
export function headedResponse(c: Context<HttpEnv>, status: number, headers: Record<string, string>, body: BodyInit | null): Response {
  c.set("headed", true);
  return new Response(body, { status, headers: { ...headers, "x-request-id": c.get("requestId") } });
}

/** Sends a prepared response in the encoding the client prefers. */
export function sendPrepared(c: Context<HttpEnv>, prepared: PreparedResponse): Response {
  c.set("headed", true);
  const { body, ...init } = preparedAnswer(prepared, acceptedEncoding(c), c.req.method === "HEAD", c.get("requestId"));
  return new Response(body, init);
}

/** A response as plain values: made into a Response, or written to Node's response as it is. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  /** None for a HEAD request or a 304. */
  body: Buffer<ArrayBuffer> | null;
}

/** A prepared response in `encoding` when it has it (else unencoded), without its body for a HEAD request, naming the request. */
export function preparedAnswer(prepared: PreparedResponse, encoding: Encoding | null, head: boolean, requestId: string): Answer {
  const variant = (encoding && prepared[encoding]) || prepared.identity;
  return { status: prepared.status, headers: { ...variant.headers, "x-request-id": requestId }, body: head ? null : variant.body };
}
