import { randomUUID } from "node:crypto";

/**
 * A CSP nonce: 122 random bits, drawn from the same buffered CSPRNG as request ids (a fresh
 * randomBytes call per request cost more than the rest of a light request's headers).
 */
export function createNonce(): string {
  return randomUUID();
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
 * The headers every response carries; the CSP allows only our own files and scripts holding the
 * request's nonce. Everything but the nonce and the path's opener policy is worked out once here,
 * not per response.
 */
export function securityHeaderPolicy(options: PolicyOptions): (nonce: string, path: string) => [string, string][] {
  const fixed: [string, string][] = [
    ["X-Content-Type-Options", "nosniff"],
    ["Referrer-Policy", "strict-origin-when-cross-origin"],
    ["X-Frame-Options", "DENY"],
    ["Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(self)"],
    ...(options.production ? [["Strict-Transport-Security", "max-age=63072000; includeSubDomains"] as [string, string]] : []),
  ];
  const rest = [
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: https:",
    "font-src 'self'",
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
    : (nonce: string) =>
        [
          "default-src 'self'",
          `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
          `style-src 'self' 'nonce-${nonce}'`,
          rest,
        ].join("; ");
  return (nonce, path) => [
    ...fixed,
    // Google sign-in opens a popup that must keep its opener; the responses on the popup's trip
    // through Google's origin (start, callback, completion, and the development stand-in's chooser) cannot isolate themselves.
    ["Cross-Origin-Opener-Policy", popupTrip.test(path) ? "unsafe-none" : "same-origin-allow-popups"],
    ["Content-Security-Policy", csp(nonce)],
  ];
}
