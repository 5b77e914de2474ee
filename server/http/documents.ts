import { setTimeout as sleep } from "node:timers/promises";
import type { Context, Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { createRequestHandler, RouterContextProvider } from "react-router";
import { authorize } from "../api/credentials.ts";
import { apiBase, apiErrorBody } from "../api/v1.ts";
import { clientIpHeader } from "../auth/index.ts";
import { appServices, documentRequest, type DocumentRequest, type ServerError } from "../context.ts";
import { reportError } from "../logger.ts";
import type { RouteOf } from "../metrics/http.ts";
import { appRequest, requestAddress } from "./app-request.ts";
import { backOfficeGate } from "./back-office.ts";
import { formRequest } from "./body-checks.ts";
import { acceptsGzip, compressOnce, compressPerRequest, compressStream, type Encoding, gzipAround, isCompressible } from "./compression.ts";
import type { HttpDeps } from "./deps.ts";
import type { HttpEnv } from "./env.ts";
import { type CachedPage, targetOf } from "./front-door.ts";
import type { PageCache } from "./page-cache.ts";
import { acceptedEncoding, prepareResponse, requestHeader, sendPrepared } from "./prepared-response.ts";
import type { PublicApi } from "./public-api.ts";
import { requestNonce } from "./security-headers.ts";
import { isSafeMethod, writeOrigin } from "./site-origin.ts";
import type { Site } from "./site.ts";
import { type InlineStylesheet, inlineStylesheet, inlinedAt } from "./static-assets.ts";

/** Where the HTTP layer's error pages are rendered: a path no route has, so the catch-all route answers. */
const errorPagePath = "/_error";

/**
 * What React Router answered, and the document's bytes when it rendered one (the response's body,
 * not yet read), with the stylesheet it inlined.
 */
interface Rendered {
  response: Response;
  html: Buffer<ArrayBuffer> | null;
  stylesheet: InlineStylesheet | undefined;
}

/** The React Router app rendering a page, and the HTTP layer's error pages, for the mounts that answer with one. */
export interface Documents {
  renderApp: (c: Context<HttpEnv>, request: Request, serverError?: ServerError) => Promise<Rendered>;
  errorPage: (c: Context<HttpEnv>, status: ContentfulStatusCode, message: string, options?: { signedOut?: boolean }) => Promise<Response>;
}

export function createDocuments(deps: HttpDeps, site: Site, publicApi: PublicApi): Documents {
  const handleRequest = createRequestHandler(deps.build, deps.dev ? "development" : "production");
  const { publicOrigin } = site;
  const now = deps.payments.shop.now;

  /** Renders the React Router app for `request`; with `serverError`, as that error's page. */
  async function renderApp(c: Context<HttpEnv>, request: Request, serverError?: ServerError): Promise<Rendered> {
    const nonce = requestNonce(c);
    const context = new RouterContextProvider();
    context.set(appServices, {
      catalog: deps.catalog(),
      db: deps.database.db,
      sharedReads: deps.database.sharedReads,
      publicUrl: deps.publicUrl,
      auth: deps.identity.auth,
      cipher: deps.identity.cipher,
      cliLogin: deps.identity.cliLogin,
      pageSession: deps.identity.pageSession,
      apiDocument: publicApi.document,
      authorizeApi: (token: string) => authorize(deps.database.db, token, now(), { windowSeconds: 60, max: deps.apiRateLimit }),
      logger: deps.logger,
      reportError: (error: unknown) => reportError(deps.logger, error, "page failed"),
      googleEnabled: deps.googleEnabled,
      analyticsId: deps.analyticsId,
      storage: deps.storage,
      hosting: deps.hosting,
      shop: deps.payments.shop,
      sandbox: deps.payments.sandbox,
    });
    let stylesheet: InlineStylesheet | undefined;
    const page: DocumentRequest = {
      nonce,
      inlineStylesheet: (href) => {
        stylesheet = inlineStylesheet(deps.assets, href);
        return stylesheet?.text;
      },
      dataRequest: c.req.path.endsWith(".data"),
      serverHtml: new Map(),
      ...(serverError && { serverError }),
    };
    context.set(documentRequest, page);
    const response = await handleRequest(request, context);
    if (response.headers.get("content-type")?.startsWith("text/html") && !response.headers.has("cache-control")) {
      response.headers.set("Cache-Control", "no-cache");
    }
    return { response, html: page.rendered ?? null, stylesheet };
  }

  /**
   * The HTTP layer's own refusals and failures (a body over the limit, a form from another site, a
   * broken form, an uncaught error): a browser asking for a page gets the site's error page, with
   * its header, stylesheet and CSP nonce, rendered by the catch-all route at a path no route has;
   * scripts and the API get the sentence alone.
   */
  async function errorPage(c: Context<HttpEnv>, status: ContentfulStatusCode, message: string, options: { signedOut?: boolean } = {}): Promise<Response> {
    if (c.req.path === apiBase || c.req.path.startsWith(`${apiBase}/`)) return c.json(apiErrorBody(status, message), status);
    const wantsPage = !c.req.path.startsWith("/api/") && !c.req.path.endsWith(".data") && (c.req.header("accept") ?? "").includes("text/html");
    if (!wantsPage) return c.text(message, status);
    const headers = new Headers({ [clientIpHeader]: requestAddress(c, deps.proxyHops) });
    for (const name of options.signedOut ? ["accept-language", "user-agent"] : ["cookie", "accept-language", "user-agent"]) {
      const value = c.req.header(name);
      if (value !== undefined) headers.set(name, value);
    }
    const { response: page } = await renderApp(c, new Request(publicOrigin + errorPagePath, { headers }), { status, message });
    // Anything but the error itself (an unverified account is sent to /verify-email first) gets the sentence.
    if (page.status !== status) return c.text(message, status);
    return page;
  }

  return { renderApp, errorPage };
}

/**
 * Every other request is a page (the front door answers those the page cache holds): rendered by
 * React Router after the origin and form checks, stored in the cache when it may be, compressed.
 */
export function mountDocuments(
  app: Hono<HttpEnv>,
  deps: HttpDeps,
  { site, documents, pageCache, routeOf }: { site: Site; documents: Documents; pageCache: PageCache<CachedPage>; routeOf: RouteOf },
): void {
  const { publicOrigin, headersFor } = site;
  const { renderApp, errorPage } = documents;
  const backOffice = backOfficeGate(deps);

  /** Whether the database answers within a second: a page that failed is told apart from a database that is down (a restart, a failover). */
  const databaseAnswers = () => Promise.race([deps.database.ready(), sleep(1_000, false, { ref: false })]);

  /**
   * A page could not be rendered because the database is down: an anonymous page the cache holds,
   * however old (its Age header says how old), else a 503 page rendered as for a signed-out visitor,
   * which needs no database.
   */
  async function databaseDown(c: Context<HttpEnv>, cacheKey: string | null): Promise<Response> {
    const stale = cacheKey === null ? undefined : pageCache.stale(cacheKey);
    if (stale) {
      deps.logger.warn({ requestId: c.get("requestId"), ageSeconds: stale.ageSeconds }, "the database is not answering; the page was served from the cache");
      const response = sendPrepared(c, stale.page.response);
      response.headers.set("Age", String(stale.ageSeconds));
      return response;
    }
    deps.logger.warn({ requestId: c.get("requestId") }, "the database is not answering; the page was answered with 503");
    const message = "Our database cannot be reached just now, so this page cannot be shown. Please try again in a minute.";
    const page = await errorPage(c, 503, message, { signedOut: true }).catch(() => c.text(message, 503));
    page.headers.set("Retry-After", "60");
    return page;
  }

  app.all("*", async (c) => {
    // The path and query as sent, as the front door looks the page up.
    const cacheKey = targetOf(c.req.url);
    // The front door answered from the cache when it held the page.
    const cacheable = pageCache.serves(c.req.method, requestHeader(c, "cookie"));

    const origin = isSafeMethod(c.req.method)
      ? publicOrigin
      : writeOrigin({ origin: c.req.header("origin"), secFetchSite: c.req.header("sec-fetch-site") }, deps.siteOrigins);
    if (!origin) return errorPage(c, 403, "This form was sent from another site, so nothing was changed. Go back to the page and send it again.");
    const received = appRequest(c, origin, deps.proxyHops);
    const request = isSafeMethod(received.method) ? received : await formRequest(received);
    if (!(request instanceof Request)) return errorPage(c, request.status, request.message);
    const nonce = requestNonce(c);
    const { response, html, stylesheet } = await renderApp(c, await backOffice.discovery(await backOffice.asSeenBy(request, errorPagePath), errorPagePath));
    if (response.status >= 500 && !(await databaseAnswers())) return databaseDown(c, cacheable ? cacheKey : null);
    const contentType = response.headers.get("content-type");
    const storable =
      cacheable &&
      request.method === "GET" &&
      response.status === 200 &&
      contentType?.startsWith("text/html") &&
      !response.headers.has("set-cookie") &&
      !/private|no-store/.test(response.headers.get("cache-control") ?? "");
    if (storable) {
      const body = html ?? Buffer.from(await response.arrayBuffer());
      const headers = { ...Object.fromEntries(response.headers), ...headersFor(nonce, c.req.path, contentType) };
      const page = prepareResponse(200, headers, body, compressOnce(body));
      pageCache.set(cacheKey, { response: page, route: await routeOf(c) });
      return sendPrepared(c, page);
    }

    const encoding = acceptedEncoding(c);
    // Reading `body` of a response whose bytes are at hand would have the Fetch API copy them for nothing.
    if (!encoding || !isCompressible(contentType) || (html === null && !response.body)) return response;
    if (response.headers.get("content-disposition")?.startsWith("attachment")) {
      return acceptsGzip(requestHeader(c, "accept-encoding")) ? compressStream(response) : response;
    }
    const compressed = compressDocument(html ?? Buffer.from(await response.arrayBuffer()), encoding, requestHeader(c, "accept-encoding"), stylesheet);
    const headers = new Headers(response.headers);
    headers.set("Content-Encoding", compressed.encoding);
    headers.set("Content-Length", String(compressed.bytes.length));
    headers.append("Vary", "Accept-Encoding");
    return new Response(compressed.bytes, { status: response.status, headers });
  });
}

/**
 * A document compressed for the client, in one piece (entry.server renders it whole). One that
 * carries the stylesheet inlined (a first visit's) goes as gzip when the client takes it, the
 * stylesheet's deflate made once and spliced in (gzipAround): a fifth of the CPU of brotli for as
 * many bytes, as the stylesheet is most of the page. Any other goes in the encoding the client prefers.
 */
function compressDocument(
  html: Buffer,
  preferred: Encoding,
  acceptEncoding: string | undefined,
  stylesheet: InlineStylesheet | undefined,
): { encoding: Encoding; bytes: Buffer<ArrayBuffer> } {
  const at = stylesheet && acceptsGzip(acceptEncoding) ? inlinedAt(html, stylesheet) : -1;
  if (stylesheet && at >= 0) return { encoding: "gzip", bytes: gzipAround(html, at, stylesheet.part) };
  return { encoding: preferred, bytes: compressPerRequest(html, preferred) };
}
