import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appRoots } from "../../server/db/schema.ts";
import { createHttpApp } from "../../server/http/app.ts";
import { version } from "../../server/version.ts";
import { projectRoot, startTestApp, type TestApp } from "./helpers.ts";

let testApp: TestApp;
let app: TestApp["app"];
let production: ReturnType<typeof createHttpApp>;

beforeAll(async () => {
  testApp = await startTestApp();
  app = testApp.app;
  production = createHttpApp({ ...testApp.deps, production: true });
});

afterAll(() => testApp.close());

const get = (urlPath: string, headers: Record<string, string> = {}, target = () => app) =>
  target().fetch(new Request(`http://academy.test${urlPath}`, { headers }));

function nonceOf(response: Response): string {
  const csp = response.headers.get("content-security-policy") ?? "";
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  if (!nonce) throw new Error(`no nonce in CSP: ${csp}`);
  return nonce;
}

/** nonceOf for an answer read with Node's client. */
const nonceOfAnswer = (answer: { headers: IncomingHttpHeaders }) => /'nonce-([^']+)'/.exec(String(answer.headers["content-security-policy"]))?.[1];

const connectSrc = (response: Response) => /connect-src ([^;]*)/.exec(response.headers.get("content-security-policy") ?? "")?.[1];

describe("security headers", () => {
  it("sends a nonce-based CSP that the page's scripts carry", async () => {
    const response = await get("/courses");
    expect(response.status).toBe(200);
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain("'unsafe-inline' 'unsafe-eval'");
    const nonce = nonceOf(response);
    const html = await response.text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1] ?? "");
    expect(scripts.length).toBeGreaterThan(1);
    for (const attributes of scripts.filter((a) => !a.includes("application/ld+json"))) {
      expect(attributes).toContain(`nonce="${nonce}"`);
    }
    expect(html).toMatch(new RegExp(`<style nonce="${nonce.replace(/[+/=]/g, "\\$&")}"`));
  });

  it("lets pages reach Google Analytics only when a measurement id is set, and says so only to the browser", async () => {
    expect(connectSrc(await get("/courses"))).toBe("'self'");
    const measured = createHttpApp({ ...testApp.deps, analyticsId: "G-ABC123XYZ9", production: true });
    const response = await get("/courses", {}, () => measured);
    expect(connectSrc(response)).toBe("'self' https://*.google-analytics.com https://*.analytics.google.com https://www.googletagmanager.com");
    const html = await response.text();
    expect(html).not.toContain("googletagmanager");
    expect(html).not.toContain("Cookie choices");
  });

  it("sets the other protective headers on every response", async () => {
    // "/" twice: the second answer comes from the page cache, with its headers prepared in advance.
    for (const urlPath of ["/", "/", "/healthz", "/readyz", "/no-such-page", "/favicon.svg"]) {
      const response = await get(urlPath);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      expect(response.headers.get("x-request-id")).toMatch(/^[\w-]{8,}$/);
    }
  });

  it("lets a response that is not a page, opened on its own, load and run nothing, and leaves out what only a page heeds", async () => {
    const script = /\/assets\/[\w-]+\.js/.exec(await (await get("/")).text())?.[0];
    expect(script).toBeDefined();
    for (const urlPath of ["/healthz", "/readyz", "/favicon.svg", "/robots.txt", "/api/v1/courses", script!]) {
      const response = await get(urlPath);
      expect(response.headers.get("content-security-policy"), urlPath).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(response.headers.get("permissions-policy"), urlPath).toBeNull();
      expect(response.headers.get("cross-origin-opener-policy"), urlPath).toBeNull();
    }
  });

  it("gives the service worker and the offline page a page's policy with no nonce, so they allow no inline script", async () => {
    for (const urlPath of ["/sw.js", "/offline.html"]) {
      const response = await get(urlPath);
      expect(response.status, urlPath).toBe(200);
      const csp = response.headers.get("content-security-policy") ?? "";
      expect(csp, urlPath).toContain("script-src 'self';");
      expect(csp, urlPath).toContain("connect-src 'self'");
      expect(csp, urlPath).not.toContain("nonce-");
    }
  });

  it("adds HSTS only in production", async () => {
    expect((await get("/")).headers.get("strict-transport-security")).toBeNull();
    expect((await get("/", {}, () => production)).headers.get("strict-transport-security")).toMatch(/max-age=\d+/);
  });

  it("keeps a caller's valid request id and replaces an invalid one", async () => {
    expect((await get("/healthz", { "x-request-id": "abc-123-def" })).headers.get("x-request-id")).toBe("abc-123-def");
    expect((await get("/healthz", { "x-request-id": "<script>" })).headers.get("x-request-id")).not.toBe("<script>");
  });
});

describe("not found", () => {
  it.each(["/no-such-page", "/course/no-such-course", "/service/no-such-service", "/course/no-such-course/feedback"])(
    "answers %s with 404 and a helpful page",
    async (urlPath) => {
      const response = await get(urlPath);
      expect(response.status).toBe(404);
      const html = await response.text();
      expect(html).toContain("We couldn&#x27;t find that page");
      expect(html).toContain('href="/courses"');
    },
  );

  it("answers a missing hashed asset with a plain 404", async () => {
    const response = await get("/assets/missing-abc123.js");
    expect(response.status).toBe(404);
  });
});

describe("health", () => {
  it("reports the process up and the database ready", async () => {
    expect(await (await get("/healthz")).json()).toEqual({ status: "ok", version });
    const ready = await get("/readyz");
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready" });
  });
});

describe("static assets", () => {
  it("serves hashed assets as immutable and pre-compressed", async () => {
    const html = await (await get("/")).text();
    const script = /"(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const plain = await get(script as string);
    expect(plain.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(plain.headers.get("content-encoding")).toBeNull();
    const br = await get(script as string, { "accept-encoding": "gzip, deflate, br" });
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(Number(br.headers.get("content-length"))).toBeLessThan(Number(plain.headers.get("content-length")));
    const gzip = await get(script as string, { "accept-encoding": "gzip" });
    expect(gzip.headers.get("content-encoding")).toBe("gzip");
    const unchanged = await get(script as string, { "if-none-match": plain.headers.get("etag") ?? "" });
    expect(unchanged.status).toBe(304);
    expect(unchanged.headers.get("etag")).toBe(plain.headers.get("etag"));
    expect(unchanged.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(unchanged.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("serves a file the same with a query string, and only to GET and HEAD", async () => {
    const plain = await get("/favicon.svg");
    expect(plain.headers.get("content-type")).toContain("image/svg+xml");
    expect(await (await get("/favicon.svg?v=2")).text()).toBe(await plain.text());
    const head = await app.request("/favicon.svg", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(plain.headers.get("content-length"));
    expect(await head.text()).toBe("");
    const posted = await app.request("/healthz", { method: "POST", headers: { origin: "http://academy.test" } });
    expect(posted.headers.get("content-type")).not.toBe("application/json");
  });
});

/** The text of every script `page` loads once it has painted (app/entry.server.tsx). */
async function preloadedScripts(page: string): Promise<{ script: string; text: string }[]> {
  const html = await (await get(page)).text();
  const scripts = [...html.matchAll(/"(\/assets\/[^"]+\.js)"/g)].map(([, href]) => href as string);
  expect(scripts.length).toBeGreaterThan(2);
  return scripts.map((script) => ({ script, text: readFileSync(path.join(projectRoot, "build/client", script), "utf8") }));
}

describe("HTML", () => {
  it("is compressed for clients that accept it", async () => {
    const response = await get("/services", { "accept-encoding": "br" });
    expect(response.headers.get("content-encoding")).toBe("br");
    expect(response.headers.get("vary")).toContain("Accept-Encoding");
  });

  it("is compressed on the fly when it is not cacheable", async () => {
    const response = await get("/no-such-page", { "accept-encoding": "gzip" });
    expect(response.status).toBe(404);
    expect(response.headers.get("content-encoding")).toBe("gzip");
  });

  it("names its scripts only in the inline script that loads them after the first paint", async () => {
    const html = await (await get("/courses")).text();
    expect(html).not.toMatch(/<link[^>]*modulepreload/);
    expect(html).not.toMatch(/<script[^>]*type="module"/);
    const loader = /<script nonce="([^"]+)">\(function loadAfterFirstPaint\(.*?<\/script>/s.exec(html);
    expect(loader?.[0]).toContain('"/assets/entry.client-');
    expect(loader?.[0]).toContain(`"${loader?.[1]}"`);
  });

  it("keeps the server's form validator out of the scripts a page loads", async () => {
    for (const page of ["/", "/courses", "/login"]) {
      for (const { script, text } of await preloadedScripts(page)) expect(text.includes("ZodError"), `${page} loads zod in ${script}`).toBe(false);
    }
  });

  it("loads no analytics consent code on a site that measures no page views", async () => {
    for (const page of ["/", "/courses", "/cookies"]) {
      for (const { script, text } of await preloadedScripts(page)) {
        expect(text.includes("academy_consent") || text.includes("Cookie choices"), `${page} loads the consent banner in ${script}`).toBe(false);
      }
    }
  });

  it("inlines the stylesheet so first paint needs no extra request", async () => {
    const html = await (await get("/")).text();
    expect(html).not.toMatch(/<link[^>]+rel="stylesheet"/);
    expect(html).toMatch(/<style nonce="[^"]+">[^<]*--color-brand-600/);
  });
});

describe("anonymous page cache", () => {
  it("serves a repeat anonymous request from the cache", async () => {
    const first = await get("/team?cache-test=1");
    const second = await get("/team?cache-test=1");
    expect(nonceOf(second)).toBe(nonceOf(first));
    expect(await second.text()).toBe(await first.text());
  });

  it("answers a HEAD from the cache with the page's headers and no body, each answer with its own request id", async () => {
    const first = await get("/portfolio?cache-test=3");
    const head = await app.request("/portfolio?cache-test=3", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(nonceOf(head)).toBe(nonceOf(first));
    expect(head.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
    expect(await head.text()).toBe("");
  });

  it("never serves a signed-in request from the cache", async () => {
    const cookie = { cookie: "better-auth.session_token=abc.def" };
    const anonymous = await get("/help?cache-test=2");
    const signedIn = await get("/help?cache-test=2", cookie);
    const signedInAgain = await get("/help?cache-test=2", cookie);
    expect(nonceOf(signedIn)).not.toBe(nonceOf(anonymous));
    expect(nonceOf(signedInAgain)).not.toBe(nonceOf(signedIn));
  });

  it("does not cache 404s", async () => {
    const first = await get("/no-such-page-cache");
    const second = await get("/no-such-page-cache");
    expect(nonceOf(second)).not.toBe(nonceOf(first));
  });
});

describe("Node's server", () => {
  // What `npm start` serves through: the app's listener, whose front door writes its answers to Node's response itself.
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer(app.listener);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** One request over HTTP/1.1, as a client sends it: `target` is usually a path, and may be an absolute URL. */
  const send = (target: string, options: { method?: string; headers?: Record<string, string> } = {}) =>
    new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const sent = httpRequest({ host: "127.0.0.1", port, path: target, method: options.method ?? "GET", headers: options.headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      });
      sent.on("error", reject).end();
    });

  it("answers /healthz with the headers and body the app gives, and a HEAD with no body", async () => {
    const viaApp = await get("/healthz");
    const answered = await send("/healthz", { headers: { "x-request-id": "probe-1234" } });
    expect(answered.status).toBe(200);
    expect(JSON.parse(answered.body.toString())).toEqual({ status: "ok", version });
    expect(answered.headers["x-request-id"]).toBe("probe-1234");
    for (const name of ["content-type", "content-security-policy", "x-content-type-options", "referrer-policy", "content-length"]) {
      expect(answered.headers[name], name).toBe(viaApp.headers.get(name));
    }
    const head = await send("/healthz", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers["content-length"]).toBe(answered.headers["content-length"]);
    expect(head.body.length).toBe(0);
    expect(JSON.parse((await send("http://academy.test/healthz")).body.toString())).toEqual({ status: "ok", version });
  });

  it("serves a built file in the encoding asked for, and 304 to a client that holds it", async () => {
    const script = /"(\/assets\/[^"]+\.js)"/.exec(await (await get("/")).text())?.[1] as string;
    const plain = await send(script);
    const br = await send(script, { headers: { "accept-encoding": "gzip, br" } });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.body.length).toBeLessThan(plain.body.length);
    const unchanged = await send(script, { headers: { "if-none-match": plain.headers.etag ?? "" } });
    expect(unchanged.status).toBe(304);
    expect(unchanged.body.length).toBe(0);
    expect(unchanged.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  it("serves a cached anonymous page but never to a signed-in visitor, and leaves other methods to the app", async () => {
    const first = await send("/team?node-cache=1");
    const second = await send("/team?node-cache=1");
    expect(second.status).toBe(200);
    expect(nonceOfAnswer(second)).toBe(nonceOfAnswer(first));
    expect(second.body.equals(first.body)).toBe(true);
    expect(second.headers["x-request-id"]).not.toBe(first.headers["x-request-id"]);
    const signedIn = await send("/team?node-cache=1", { headers: { cookie: "better-auth.session_token=abc.def" } });
    expect(nonceOfAnswer(signedIn)).not.toBe(nonceOfAnswer(first));
    const posted = await send("/healthz", { method: "POST", headers: { origin: "http://academy.test" } });
    expect(posted.headers["content-type"]).not.toBe("application/json");
  });
});

describe("SEO files", () => {
  it("lists every public page in sitemap.xml", async () => {
    const response = await get("/sitemap.xml");
    expect(response.headers.get("content-type")).toContain("application/xml");
    const xml = await response.text();
    for (const urlPath of ["/", "/courses", "/course/webdevfrontendcourse", "/services", "/service/website-hosting", "/team", "/portfolio", "/help", "/help/refunds", "/privacy", "/cookies"]) {
      expect(xml).toContain(`<loc>http://academy.test${urlPath}</loc>`);
    }
  });

  it("points robots.txt at the sitemap and away from private areas", async () => {
    const text = await (await get("/robots.txt")).text();
    expect(text).toContain("Sitemap: http://academy.test/sitemap.xml");
    expect(text).toContain("Disallow: /account");
  });

  it("describes each course with schema.org Course JSON-LD", async () => {
    const html = await (await get("/course/webdevfrontendcourse")).text();
    const json = /<script type="application\/ld\+json">([^<]+)<\/script>/.exec(html)?.[1];
    const data = JSON.parse(json ?? "{}") as Record<string, unknown>;
    expect(data["@type"]).toBe("Course");
    expect(data.name).toBe("Front-End Web Development");
    expect(data.offers).toMatchObject({ priceCurrency: "INR", price: "4999.00" });
  });
});

describe("the encryption key", () => {
  it("never appears in a response or in the browser bundle", async () => {
    const key = (await testApp.database.db.select().from(appRoots))[0]?.key;
    expect(key).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    const forms = [key as string, Buffer.from(key as string, "base64").toString("hex")];
    for (const urlPath of ["/", "/login", "/courses", "/api/auth/get-session", "/dev/mailbox.json", "/dev/mailbox", "/sitemap.xml"]) {
      const body = await (await get(urlPath)).text();
      for (const form of forms) expect(body).not.toContain(form);
    }
    for (const [file, asset] of testApp.deps.assets) {
      for (const form of forms) expect(asset.body.toString("latin1"), file).not.toContain(form);
    }
  });
});

describe("sign-in page", () => {
  it("offers Google only when Google is configured", async () => {
    const html = await (await get("/login")).text();
    expect(html).toContain("Welcome back");
    expect(html).not.toContain("Continue with Google");
    expect((await get("/auth/google")).headers.get("location")).toBe("/login?error=google-unavailable");
  });

  it("sends signed-out visitors of account pages to sign in", async () => {
    const response = await get("/settings");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/login?redirectTo=%2Fsettings");
  });
});
