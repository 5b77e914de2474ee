import type { Context } from "hono";
import { clientIpHeader } from "../auth/index.ts";
import { clientAddress } from "./client-address.ts";
import type { HttpEnv } from "./env.ts";
import { requestHeader } from "./prepared-response.ts";

/**
 * The request as the app sees it: on `origin` (one of ours, so React Router's action-origin check
 * holds behind a TLS-terminating proxy), with the client's address in one header of our own that
 * replaces anything a client sent in it. Better Auth's rate limits key on that address.
 */
export function appRequest(c: Context<HttpEnv>, origin: string, proxyHops: number): Request {
  const headers = new Headers(c.req.raw.headers);
  headers.set(clientIpHeader, requestAddress(c, proxyHops));
  const raw = c.req.raw;
  const url = new URL(raw.url);
  const hasBody = raw.method !== "GET" && raw.method !== "HEAD";
  return new Request(origin + url.pathname + url.search, {
    method: raw.method,
    headers,
    body: hasBody ? raw.body : undefined,
    signal: raw.signal,
    ...(hasBody ? { duplex: "half" } : {}),
  } as RequestInit);
}

/** The client's address: the socket's, or the one the outermost of our proxies reported. */
export function requestAddress(c: Context<HttpEnv>, proxyHops: number): string {
  return clientAddress(requestHeader(c, "x-forwarded-for"), c.env?.incoming?.socket.remoteAddress, proxyHops);
}
