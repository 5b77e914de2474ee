import { randomBytes } from "node:crypto";

export function createNonce(): string {
  return randomBytes(16).toString("base64");
}

const popupTrip = /^\/(auth\/|api\/auth\/callback\/|dev\/google\/)/;

/** Razorpay Checkout runs in frames from these origins; its script is loaded by ours (trusted through 'strict-dynamic'). */
export const razorpayFrameOrigins = ["https://api.razorpay.com", "https://checkout.razorpay.com"];

/** Where GA4's gtag.js sends page views (its script is loaded by ours, trusted through 'strict-dynamic'). */
export const analyticsConnectOrigins = ["https://*.google-analytics.com", "https://*.analytics.google.com", "https://www.googletagmanager.com"];

/** Headers every response carries; the CSP allows only our own files and scripts holding this nonce. */
export function securityHeaders(
  nonce: string,
  options: { production: boolean; dev: boolean; path: string; paymentFrames?: string[]; analytics?: boolean },
): Record<string, string> {
  const headers: Record<string, string> = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    // Google sign-in opens a popup that must keep its opener; the responses on the popup's trip
    // through Google's origin (start, callback, completion, and the development stand-in's chooser) cannot isolate themselves.
    "Cross-Origin-Opener-Policy": popupTrip.test(options.path) ? "unsafe-none" : "same-origin-allow-popups",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(self)",
  };
  // Vite's dev server injects unnonced scripts and styles for HMR, so dev keeps only frame-ancestors.
  headers["Content-Security-Policy"] = options.dev
    ? "frame-ancestors 'none'"
    : [
        "default-src 'self'",
        `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
        `style-src 'self' 'nonce-${nonce}'`,
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
  if (options.production) headers["Strict-Transport-Security"] = "max-age=63072000; includeSubDomains";
  return headers;
}
