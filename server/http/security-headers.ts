import { randomUUID } from "node:crypto";
import type { Context } from "hono";
import { serviceWorkerPath } from "../../common/offline.ts";
import type { HttpEnv } from "./env.ts";

/**
 * A CSP nonce: 122 random bits, drawn from the same buffered CSPRNG as request ids (a fresh
 * randomBytes call per request cost more than the rest of a light request's headers).
 */
export function createNonce(): string {
  return randomUUID();
}

/** The request's CSP nonce, made on first use: JSON, files and redirects never need one. */
export function requestNonce(c: Context<HttpEnv>): string {
  let nonce = c.get("nonce");
  if (nonce === undefined) {
    nonce = createNonce();
    c.set("nonce", nonce);
  }
  return nonce;
}

const popupTrip = /^\/(auth\/|api\/auth\/callback\/|dev\/google\/)/;

/** Razorpay Checkout runs in frames from these origins; its script is loaded by ours (trusted through 'strict-dynamic'). */
export const razorpayFrameOrigins = ["https://api.razorpay.com", "https://checkout.razorpay.com"];

/** Where GA4's gtag.js sends page views (its script is loaded by ours, trusted through 'strict-dynamic'). */
export const analyticsConnectOrigins = ["https://*.google-analytics.com", "https://*.analytics.google.com", "https://www.googletagmanager.com"];

interface PolicyOptions {
  production: boolean;
  dev: boolean;
  paymentFrames?: string[];
  analytics?: boolean;
}

/**
 * What a browser may do with a response that is not a page, opened on its own: load, run and
 * frame nothing. JSON, scripts, stylesheets, images, fonts and text are never pages, except the
 * service worker's script, whose own response is its policy. PDFs and downloads keep a page's
 * headers: a browser shows them in a viewer of its own.
 */
const resourceTypes = /^(application\/(json|xml|manifest\+json)|text\/(javascript|css|plain|xml)|image\/|font\/)/;

/**
 * The headers every response carries. A page's CSP allows only our own files and scripts holding
 * the request's nonce (a page with no nonce allows no inline script at all). A resource
 * (`resourceTypes`) gets a policy that allows nothing and none of the headers only a page heeds
 * (the opener and permissions policies): under half a page's bytes, on the answers there are most of
 * (probes, files, the API). Everything but the nonce and the path's opener policy is worked out once
 * here, and the headers of a response with no nonce entirely, not per response.
 */
export function securityHeaderPolicy(options: PolicyOptions): (nonce: string | null, path: string, contentType: string | null) => Record<string, string> {
  const everyResponse: Record<string, string> = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "x-frame-options": "DENY",
    ...(options.production && { "strict-transport-security": "max-age=63072000; includeSubDomains" }),
  };
  const resource = { ...everyResponse, "content-security-policy": "default-src 'none'; frame-ancestors 'none'" };
  const rest = [
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: https:",
    "font-src 'self'",
    // The service worker (/sw.js, app/offline/): 'strict-dynamic' in script-src would refuse it.
    "worker-src 'self'",
    ["connect-src 'self'", ...(options.analytics ? analyticsConnectOrigins : [])].join(" "),
    ["frame-src https://www.youtube-nocookie.com https://player.vimeo.com", ...(options.paymentFrames ?? [])].join(" "),
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(options.production ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
  // Vite's dev server injects unnonced scripts and styles for HMR, so dev keeps only frame-ancestors.
  const csp = options.dev
    ? () => "frame-ancestors 'none'"
    : (nonce: string | null) =>
        nonce === null
          ? ["default-src 'self'", "script-src 'self'", "style-src 'self'", rest].join("; ")
          : ["default-src 'self'", `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`, `style-src 'self' 'nonce-${nonce}'`, rest].join("; ");
  // Google sign-in opens a popup that must keep its opener; the responses on the popup's trip
  // through Google's origin (start, callback, completion, and the development stand-in's chooser) cannot isolate themselves.
  const headers = (nonce: string | null, popup: boolean): Record<string, string> => ({
    ...everyResponse,
    "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=(self)",
    "cross-origin-opener-policy": popup ? "unsafe-none" : "same-origin-allow-popups",
    "content-security-policy": csp(nonce),
  });
  const withoutNonce = { popup: headers(null, true), other: headers(null, false) };
  return (nonce, path, contentType) => {
    if (nonce === null && contentType !== null && resourceTypes.test(contentType) && path !== serviceWorkerPath) return resource;
    const popup = popupTrip.test(path);
    if (nonce === null) return popup ? withoutNonce.popup : withoutNonce.other;
    return headers(nonce, popup);
  };
}
