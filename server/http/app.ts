import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { Context, MiddlewareHandler } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { createRequestHandler, RouterContextProvider, type ServerBuild } from "react-router";
import { handleCliAuth } from "../api/cli-auth.ts";
import { authorize } from "../api/credentials.ts";
import { apiBase, apiErrorBody, apiReferenceAssets, createApi } from "../api/v1.ts";
import { cliTokenPrefix } from "../auth/options.ts";
import { googleStandInPath } from "../auth/google-stand-in.ts";
import { clientIpHeader } from "../auth/index.ts";
import type { Catalog } from "../catalog/index.ts";
import { appServices, documentRequest, type ServerError } from "../context.ts";
import type { Database } from "../db/client.ts";
import type { Identity } from "../identity.ts";
import { inRequestScope, pathForLog, reportError, type Logger, type RequestScope } from "../logger.ts";
import { bearerTokenMatches, methodLabel, metricsPath, requestRoutes } from "../metrics/http.ts";
import type { Metrics } from "../metrics/registry.ts";
import { completeCheckout, type CheckoutResult } from "../commerce/checkout.ts";
import { orderPagePath } from "../commerce/orders.ts";
import { handleWebhook } from "../commerce/webhooks.ts";
import { ServiceUnavailable, UserError } from "../errors.ts";
import { callbackPath, webhookPath, type Payments } from "../payments/index.ts";
import { ProviderError } from "../payments/provider.ts";
import type { FileStorage } from "../storage/index.ts";
import { parseKey, uploadsPath } from "../storage/keys.ts";
import { version } from "../version.ts";
import { clientAddress, isLoopback } from "./client-address.ts";
import { acceptsGzip, compressOnce, compressPerRequest, compressStream, isCompressible } from "./compression.ts";
import { hasSession, PageCache } from "./page-cache.ts";
import { acceptedEncoding, headedResponse, prepareResponse, requestHeader, sendPrepared, type PreparedResponse } from "./prepared-response.ts";
import { mountDevMailbox } from "./dev-mailbox.ts";
import type { HttpEnv } from "./env.ts";
import { robotsTxt, sitemapXml } from "./seo.ts";
import { razorpayFrameOrigins, requestNonce, securityHeaderPolicy } from "./security-headers.ts";
import { formRequest, jsonBodyProblem } from "./body-checks.ts";
import { isSafeMethod, writeOrigin } from "./site-origin.ts";
import { contentImages, contentImagesRoute } from "./content-images.ts";
import { stylesheetText, type StaticFile } from "./static-assets.ts";

export interface HttpDeps {
  production: boolean;
  /** Vite dev server mode: no CSP nonce enforcement, no page cache. */
  dev: boolean;
  publicUrl: string;
  pageCacheSeconds: number;
  /** Requests a minute each API credential may make (config.apiRateLimit). */
  apiRateLimit: number;
  /** The origins forms may be sent from (config.siteOrigins); the first is PUBLIC_URL's. */
  siteOrigins: string[];
  /** Proxies of ours in front, each appending to X-Forwarded-For (config.proxyHops). */
  proxyHops: number;
  logger: Logger;
  /** A function so the dev server can swap in edited content without a restart. */
  catalog: () => Catalog;
  database: Database;
  identity: Identity;
  payments: Payments;
  storage: FileStorage;
  /** Google sign-in is offered only when its client credentials are configured. */
  googleEnabled: boolean;
  analyticsId: string | null;
  build: ServerBuild | (() => Promise<ServerBuild>);
  assets: Map<string, StaticFile>;
  /** True once the process is shutting down: /readyz then answers 503 while requests are still served. */
  draining?: () => boolean;
  /** With METRICS_TOKEN: requests are counted, and /metrics answers whoever sends the token as a bearer token. */
  metrics?: { token: string; collector: Metrics };
}

type Env = HttpEnv;

const requestIdPattern = /^[\w-]{8,64}$/;

/** Where the HTTP layer's error pages are rendered: a path no route has, so the catch-all route answers. */
const errorPagePath = "/_error";

/**
 * The request as the app sees it: on `origin` (one of ours, so React Router's action-origin check
 * holds behind a TLS-terminating proxy), with the client's address in one header of our own that
 * replaces anything a client sent in it. Better Auth's rate limits key on that address.
 */
function appRequest(c: Context<Env>, origin: string, proxyHops: number): Request {
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

function requestAddress(c: Context<Env>, proxyHops: number): string {
  return clientAddress(requestHeader(c, "x-forwarded-for"), c.env?.incoming?.socket.remoteAddress, proxyHops);
}

/** The response with one header more; a fetched response's headers may be read-only, so it is copied. */
function withHeader(response: Response, name: string, value: string): Response {
  const headers = new Headers(response.headers);
  headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * Better Auth's list-sessions answer without the CLI's tokens: they are API credentials, and a
 * page's script (or whoever holds a browser's cookie) must not lift them. The settings page
 * revokes through the server-side call, which still sees them.
 */
async function withoutCliTokens(response: Response): Promise<Response> {
  const sessions = (await response.clone().json().catch(() => null)) as unknown;
  if (!Array.isArray(sessions)) return response;
  const shown = sessions.map((item: unknown) => {
    if (typeof item !== "object" || item === null) return item;
    const { token, ...rest } = item as { token?: unknown };
    return typeof token === "string" && token.startsWith(cliTokenPrefix) ? rest : item;
  });
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(JSON.stringify(shown), { status: response.status, headers });
}

/** Razorpay's ids and signatures are short runs of letters, digits and underscores; nothing else is looked up. */
const razorpayToken = (value: unknown) => (typeof value === "string" && /^\w{1,128}$/.test(value) ? value : null);

/** Razorpay's redirect-mode callback fields: a signed success, or an error with its payment in `error[metadata]`. */
function checkoutResult(form: Record<string, unknown>): CheckoutResult | null {
  const orderId = razorpayToken(form.razorpay_order_id);
  const paymentId = razorpayToken(form.razorpay_payment_id);
  const signature = razorpayToken(form.razorpay_signature);
  if (orderId && paymentId && signature) return { kind: "success", orderId, paymentId, signature };
  const metadataField = form["error[metadata]"];
  try {
    const metadata = JSON.parse(typeof metadataField === "string" ? metadataField : "") as { order_id?: unknown; payment_id?: unknown };
    const failedOrderId = razorpayToken(metadata.order_id);
    if (!failedOrderId) return null;
    return { kind: "failure", orderId: failedOrderId, paymentId: razorpayToken(metadata.payment_id) };
  } catch {
    return null;
  }
}

export function createHttpApp(deps: HttpDeps): Hono<Env> {
  const app = new Hono<Env>();
  const handleRequest = createRequestHandler(deps.build, deps.dev ? "development" : "production");
  const pageCache = new PageCache({ ttlSeconds: deps.dev ? 0 : deps.pageCacheSeconds });
  const paymentFrames = deps.payments.shop.provider.kind === "razorpay" ? razorpayFrameOrigins : [];
  const [publicOrigin = new URL(deps.publicUrl).origin] = deps.siteOrigins;
  const headersFor = securityHeaderPolicy({ production: deps.production, dev: deps.dev, paymentFrames, analytics: deps.analyticsId !== null });
  const assets = new Map(
    [...deps.assets].map(([path, file]) => [
      path,
      {
        etag: file.etag,
        response: prepareResponse(
          200,
          {
            ...headersFor(null, path),
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
  /** A small JSON answer with all its headers, for the probes that poll us most. */
  const routineJson = (c: Context<Env>, status: number, body: unknown) => {
    c.set("routine", true);
    return headedResponse(c, status, { ...headersFor(null, c.req.path), "content-type": "application/json" }, JSON.stringify(body));
  };
  // A proxy on this machine connects from loopback: what it forwards is local only when every address it names is.
  const loopbackOnly: MiddlewareHandler<Env> = async (c, next) => {
    const fromLoopback = isLoopback(c.env?.incoming?.socket.remoteAddress ?? "");
    const otherForwarding = requestHeader(c, "forwarded") !== undefined || requestHeader(c, "x-real-ip") !== undefined;
    const forwardedFor = requestHeader(c, "x-forwarded-for");
    const forwardedLocally = forwardedFor === undefined || (deps.proxyHops > 0 && forwardedFor.split(",").every((hop) => isLoopback(hop.trim())));
    if (!fromLoopback || otherForwarding || !forwardedLocally) {
      return c.text("This development page is only served to the machine the server runs on.", 403);
    }
    await next();
  };

  const metrics = deps.metrics?.collector;
  const routeOf = requestRoutes({ build: deps.build, staticFiles: assets });

  app.use("*", async (c, next) => {
    const started = performance.now();
    const incoming = requestHeader(c, "x-request-id");
    const requestId = incoming && requestIdPattern.test(incoming) ? incoming : randomUUID();
    c.set("requestId", requestId);
    // Every line logged while the request is handled names it; the request's own line below also says who and how it ended.
    const scope: RequestScope = { requestId };
    await inRequestScope(scope, next).finally(() => (scope.closed = true));
    if (!c.get("headed")) {
      const headers = headersFor(c.get("nonce") ?? null, c.req.path);
      for (const name in headers) c.res.headers.set(name, headers[name]!);
      c.res.headers.set("X-Request-Id", requestId);
    }
    const ms = performance.now() - started;
    const failed = scope.error !== undefined;
    // Health probes, static files and cached pages are most of the requests and say nothing while they succeed.
    const logged = failed || !c.get("routine") || c.res.status >= 400;
    const route = metrics || logged ? await routeOf(c) : undefined;
    // A scrape counted in what it reports would change the figures by being read.
    if (metrics && route !== undefined && route !== metricsPath) metrics.observeRequest(methodLabel(c.req.method), route, c.res.status, ms / 1000);
    if (!logged) return;
    const line = {
      requestId,
      method: c.req.method,
      path: pathForLog(c.req.path),
      route,
      status: c.res.status,
      ms: Math.round(ms * 10) / 10,
      ...(scope.userId !== undefined && { userId: scope.userId }),
      client: requestAddress(c, deps.proxyHops),
    };
    if (failed) deps.logger.error({ ...line, err: scope.error }, "request failed");
    else deps.logger.info(line);
  });

  app.onError(async (error, c) => {
    // A service we rely on failed (the file store): an outage the visitor can wait out, logged with its cause.
    if (error instanceof ServiceUnavailable) {
      deps.logger.warn({ err: error.cause ?? error }, error.message);
      c.header("Retry-After", "60");
      return errorPage(c, 503, error.message).catch(() => c.text(error.message, 503));
    }
    reportError(deps.logger, error, "request failed");
    const message = "Something went wrong on our side. Please try again.";
    // The page itself may be what failed: then the sentence alone.
    return errorPage(c, 500, message).catch(() => c.text(message, 500));
  });

  // Nothing we accept is larger than a 2 MB photo plus the form around it. Reads without a body skip
  // the check, which would otherwise build a full Request for every one of them.
  const limitBody = bodyLimit({ maxSize: 3 * 1024 * 1024, onError: (c) => errorPage(c, 413, "Nothing was uploaded: files can be at most 2 MB. Go back and choose a smaller one.") });
  app.use("*", (c, next) => (isSafeMethod(c.req.method) ? next() : limitBody(c, next)));

  // Served by us from either store, so the bucket stays private; a key's bytes never change, hence a year.
  app.get(`${uploadsPath}*`, async (c) => {
    const key = c.req.path.slice(uploadsPath.length);
    const file = parseKey(key);
    if (!file) return c.text("Not found", 404);
    // The ETag is the key's own, so a browser that holds it has the bytes: no need to read the store.
    const cached = requestHeader(c, "if-none-match") === file.etag;
    const body = cached ? null : await deps.storage.get(key);
    if (!cached && !body) return c.text("Not found", 404);
    c.set("routine", true);
    c.header("Cache-Control", "public, max-age=31536000, immutable");
    c.header("ETag", file.etag);
    if (!body) return c.body(null, 304);
    c.header("Content-Type", file.contentType);
    return c.body(new Uint8Array(body));
  });

  if (deps.metrics) {
    const { token, collector } = deps.metrics;
    app.get(metricsPath, async (c) => {
      c.header("Cache-Control", "no-store");
      if (!bearerTokenMatches(c.req.header("authorization"), token)) {
        c.header("WWW-Authenticate", "Bearer");
        return c.text("Send the metrics token as Authorization: Bearer <METRICS_TOKEN>.", 401);
      }
      try {
        const text = await collector.scrape();
        c.set("routine", true);
        return c.body(text, 200, { "Content-Type": collector.contentType });
      } catch (error) {
        deps.logger.warn({ requestId: c.get("requestId"), err: error }, "metrics could not be collected");
        return c.text("The metrics could not be collected just now. Try again in a moment.", 503);
      }
    });
  }

  app.get("/healthz", (c) => routineJson(c, 200, { status: "ok", version }));
  app.get("/readyz", async (c) => {
    if (deps.draining?.()) return routineJson(c, 503, { status: "shutting down" });
    return (await deps.database.ready()) ? routineJson(c, 200, { status: "ready" }) : routineJson(c, 503, { status: "not ready" });
  });
  app.on(["GET", "POST"], "/api/auth/*", async (c) => {
    const request = appRequest(c, publicOrigin, deps.proxyHops);
    const problem = await jsonBodyProblem(request);
    if (problem) return c.json({ code: "INVALID_INPUT", message: problem.message }, problem.status);
    const response = await deps.identity.auth.handler(request);
    // Better Auth's own limits say X-Retry-After; clients and proxies read the standard header.
    const retryAfter = response.headers.get("x-retry-after");
    if (response.status === 429 && retryAfter && !response.headers.has("retry-after")) return withHeader(response, "Retry-After", retryAfter);
    if (c.req.path === "/api/auth/list-sessions" && response.ok) return withoutCliTokens(response);
    return response;
  });

  const now = deps.payments.shop.now;
  app.post("/api/cli-auth", async (c) => {
    if (!writeOrigin({ origin: c.req.header("origin"), secFetchSite: c.req.header("sec-fetch-site") }, deps.siteOrigins)) {
      return c.json({ success: false, error: "This request came from another site, so nothing was changed." }, 403);
    }
    const answer = await handleCliAuth({ cliLogin: deps.identity.cliLogin, now }, await c.req.json().catch(() => null), requestAddress(c, deps.proxyHops));
    if (answer.retryAfterSeconds !== undefined) c.header("Retry-After", String(answer.retryAfterSeconds));
    return c.json(answer.body, answer.status as 200);
  });
  const publicApi = createApi({ db: deps.database.db, cipher: deps.identity.cipher, catalog: deps.catalog, now, rateLimitPerMinute: deps.apiRateLimit });
  app.route("/api/v1", publicApi.api);
  // Scalar's API reference, from this origin (the CSP allows nothing else): its bundle and stylesheet,
  // each read and compressed (off the main thread) on first use.
  const scalarDir = dirname(fileURLToPath(import.meta.resolve("@scalar/api-reference")));
  for (const [route, file, type] of [
    [apiReferenceAssets.script, "browser/standalone.js", "text/javascript; charset=utf-8"],
    [apiReferenceAssets.stylesheet, "style.css", "text/css; charset=utf-8"],
  ] as const) {
    let prepared: Promise<PreparedResponse> | undefined;
    app.get(route, async (c) => {
      prepared ??= readFile(join(scalarDir, file)).then(async (body) => {
        const [br, gzip] = await Promise.all([compressPerRequest(body, "br"), compressPerRequest(body, "gzip")]);
        const headers = { ...headersFor(null, route), "content-type": type, "cache-control": "public, max-age=86400" };
        return prepareResponse(200, headers, Buffer.from(body), { br, gzip });
      });
      c.set("routine", true);
      return sendPrepared(c, await prepared);
    });
  }

  // Outside production the mailbox shows everyone's sign-in links and the sandbox pays for free: this machine only.
  if (!deps.production) {
    app.use("/dev/*", loopbackOnly);
    app.use("/sandbox/*", loopbackOnly);
  }
  if (!deps.production && deps.identity.mailTransport.kind === "outbox") mountDevMailbox(app, deps.database.db);
  const standIn = deps.identity.googleStandIn;
  if (!deps.production && standIn) app.all(`${googleStandInPath}/*`, (c) => standIn.handle(c.req.raw, requestNonce(c)));

  app.post(webhookPath, async (c) => {
    const answer = await handleWebhook(deps.payments.shop, {
      rawBody: await c.req.text(),
      signature: c.req.header("x-razorpay-signature"),
      eventId: c.req.header("x-razorpay-event-id"),
    });
    if (answer.status !== 200) deps.logger.warn({ requestId: c.get("requestId"), reason: answer.message }, "webhook rejected");
    return c.json({ message: answer.message }, answer.status);
  });

  app.post(callbackPath, async (c) => {
    const result = checkoutResult(await c.req.parseBody().catch(() => ({})));
    if (!result) return c.text("This is not a payment result we understand.", 400);
    try {
      const { order } = await completeCheckout(deps.payments.shop, result);
      return c.redirect(orderPagePath(order), 303);
    } catch (error) {
      // Could not ask the provider: the order page waits for the webhook, which will settle it.
      if (error instanceof ProviderError) {
        deps.logger.warn({ err: error, providerOrderId: result.orderId }, "checkout callback could not confirm the payment");
        return c.redirect(`/account/orders?pending=${encodeURIComponent(result.orderId)}`, 303);
      }
      if (error instanceof UserError) return c.text(error.message, error.status as 400);
      throw error;
    }
  });

  app.get("/robots.txt", (c) => c.text(robotsTxt(deps.publicUrl)));
  app.get("/sitemap.xml", (c) => {
    c.header("Content-Type", "application/xml; charset=utf-8");
    return c.body(sitemapXml(deps.catalog(), deps.publicUrl));
  });

  app.on(["GET", "HEAD"], contentImagesRoute, contentImages(deps.catalog, headersFor(null, contentImagesRoute)));

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

  /** Renders the React Router app for `request`; with `serverError`, as that error's page. */
  async function renderApp(c: Context<Env>, request: Request, serverError?: ServerError): Promise<Response> {
    const nonce = requestNonce(c);
    const context = new RouterContextProvider();
    context.set(appServices, {
      catalog: deps.catalog(),
      db: deps.database.db,
      publicUrl: deps.publicUrl,
      auth: deps.identity.auth,
      cipher: deps.identity.cipher,
      cliLogin: deps.identity.cliLogin,
      apiDocument: publicApi.document,
      authorizeApi: (token: string) => authorize(deps.database.db, token, now(), { windowSeconds: 60, max: deps.apiRateLimit }),
      logger: deps.logger,
      reportError: (error: unknown) => reportError(deps.logger, error, "page failed"),
      googleEnabled: deps.googleEnabled,
      analyticsId: deps.analyticsId,
      storage: deps.storage,
      shop: deps.payments.shop,
      sandbox: deps.payments.sandbox,
    });
    context.set(documentRequest, {
      nonce,
      inlineStylesheet: (href) => stylesheetText(deps.assets, href),
      dataRequest: c.req.path.endsWith(".data"),
      serverHtml: new Map(),
      ...(serverError && { serverError }),
    });
    const response = await handleRequest(request, context);
    if (response.headers.get("content-type")?.startsWith("text/html") && !response.headers.has("cache-control")) {
      response.headers.set("Cache-Control", "no-cache");
    }
    return response;
  }

  /**
   * The HTTP layer's own refusals and failures (a body over the limit, a form from another site, a
   * broken form, an uncaught error): a browser asking for a page gets the site's error page, with
   * its header, stylesheet and CSP nonce, rendered by the catch-all route at a path no route has;
   * scripts and the API get the sentence alone.
   */
  async function errorPage(c: Context<Env>, status: ContentfulStatusCode, message: string, options: { signedOut?: boolean } = {}): Promise<Response> {
    if (c.req.path === apiBase || c.req.path.startsWith(`${apiBase}/`)) return c.json(apiErrorBody(status, message), status);
    const wantsPage = !c.req.path.startsWith("/api/") && !c.req.path.endsWith(".data") && (c.req.header("accept") ?? "").includes("text/html");
    if (!wantsPage) return c.text(message, status);
    const headers = new Headers({ [clientIpHeader]: requestAddress(c, deps.proxyHops) });
    for (const name of options.signedOut ? ["accept-language", "user-agent"] : ["cookie", "accept-language", "user-agent"]) {
      const value = c.req.header(name);
      if (value !== undefined) headers.set(name, value);
    }
    const page = await renderApp(c, new Request(publicOrigin + errorPagePath, { headers }), { status, message });
    // Anything but the error itself (an unverified account is sent to /verify-email first) gets the sentence.
    if (page.status !== status) return c.text(message, status);
    return page;
  }

  /** Whether the database answers within a second: a page that failed is told apart from a database that is down (a restart, a failover). */
  const databaseAnswers = () => Promise.race([deps.database.ready(), sleep(1_000, false, { ref: false })]);

  /**
   * A page could not be rendered because the database is down: an anonymous page the cache holds,
   * however old (its Age header says how old), else a 503 page rendered as for a signed-out visitor,
   * which needs no database.
   */
  async function databaseDown(c: Context<Env>, cacheKey: string | null): Promise<Response> {
    const stale = cacheKey === null ? undefined : pageCache.stale(cacheKey);
    if (stale) {
      deps.logger.warn({ requestId: c.get("requestId"), ageSeconds: stale.ageSeconds }, "the database is not answering; the page was served from the cache");
      const response = sendPrepared(c, stale.page);
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
    // The path and query as sent: what comes after the origin of the absolute URL Hono was given.
    const cacheKey = c.req.url.slice(c.req.url.indexOf("/", c.req.url.indexOf("//") + 2));
    const cacheable =
      pageCache.enabled && (c.req.method === "GET" || c.req.method === "HEAD") && !hasSession(requestHeader(c, "cookie"));
    if (cacheable) {
      const hit = pageCache.get(cacheKey);
      if (hit) {
        // Logged like a file, only on failure: a hit does no work worth a line, and the proxy logs every request.
        c.set("routine", true);
        return sendPrepared(c, hit);
      }
    }

    const origin = isSafeMethod(c.req.method)
      ? publicOrigin
      : writeOrigin({ origin: c.req.header("origin"), secFetchSite: c.req.header("sec-fetch-site") }, deps.siteOrigins);
    if (!origin) return errorPage(c, 403, "This form was sent from another site, so nothing was changed. Go back to the page and send it again.");
    const received = appRequest(c, origin, deps.proxyHops);
    const request = isSafeMethod(received.method) ? received : await formRequest(received);
    if (!(request instanceof Request)) return errorPage(c, request.status, request.message);
    const nonce = requestNonce(c);
    const response = await renderApp(c, request);
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
      const body = Buffer.from(await response.arrayBuffer());
      const headers = { ...Object.fromEntries(response.headers), ...headersFor(nonce, c.req.path) };
      const page = prepareResponse(200, headers, body, compressOnce(body));
      pageCache.set(cacheKey, page);
      return sendPrepared(c, page);
    }

    const encoding = acceptedEncoding(c);
    if (!encoding || !response.body || !isCompressible(contentType)) return response;
    if (response.headers.get("content-disposition")?.startsWith("attachment")) {
      return acceptsGzip(requestHeader(c, "accept-encoding")) ? compressStream(response) : response;
    }
    // Documents are rendered whole (entry.server), so the body is compressed in one piece.
    const compressed = await compressPerRequest(Buffer.from(await response.arrayBuffer()), encoding);
    const headers = new Headers(response.headers);
    headers.set("Content-Encoding", encoding);
    headers.set("Content-Length", String(compressed.length));
    headers.append("Vary", "Accept-Encoding");
    return new Response(compressed, { status: response.status, headers });
  });

  return app;
}
