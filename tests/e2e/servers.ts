/** The servers the end-to-end tests run against, shared by playwright.config.ts and the specs. */
const port = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

export const appUrl = `http://127.0.0.1:${port("E2E_PORT", 4310)}`;
export const oidcIssuer = `http://127.0.0.1:${port("E2E_OIDC_PORT", 4320)}`;

/** A second app whose payment provider is Razorpay, talking to a local stand-in for Razorpay's API. */
export const razorpayAppUrl = `http://127.0.0.1:${port("E2E_RAZORPAY_APP_PORT", 4311)}`;
export const razorpayApiUrl = `http://127.0.0.1:${port("E2E_RAZORPAY_API_PORT", 4330)}`;
export const razorpayKeys = {
  RAZORPAY_KEY_ID: "rzp_test_E2eAcademyKey01",
  RAZORPAY_KEY_SECRET: "e2e-razorpay-key-secret",
  RAZORPAY_WEBHOOK_SECRET: "e2e-razorpay-webhook-secret",
};
