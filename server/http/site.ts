import type { HttpDeps } from "./deps.ts";
import { razorpayFrameOrigins, securityHeaderPolicy } from "./security-headers.ts";

/** What several mounts share, worked out once per app. */
export interface Site {
  /** The origin requests are handed to the app on: PUBLIC_URL's, the first of the site's origins. */
  publicOrigin: string;
  /** The security headers of a response with this CSP nonce (or none) at this path, of this content type (a page's when none). */
  headersFor: (nonce: string | null, path: string, contentType: string | null) => Record<string, string>;
}

export function siteOf(deps: HttpDeps): Site {
  const paymentFrames = deps.payments.shop.provider.kind === "razorpay" ? razorpayFrameOrigins : [];
  const [publicOrigin = new URL(deps.publicUrl).origin] = deps.siteOrigins;
  const headersFor = securityHeaderPolicy({ production: deps.production, dev: deps.dev, paymentFrames, analytics: deps.analyticsId !== null });
  return { publicOrigin, headersFor };
}
