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

/**
 * The production build as deployed: nginx terminating TLS for a real host name (the browser maps
 * it to 127.0.0.1), plain http to the app on loopback, and mail over SMTP to a local sink.
 */
export const productionHost = "academy.test";
export const productionUrl = `https://${productionHost}:${port("E2E_TLS_PORT", 4343)}`;
export const productionAppUrl = `http://127.0.0.1:${port("E2E_TLS_APP_PORT", 4340)}`;
export const mailSinkSmtpPort = port("E2E_MAIL_SMTP_PORT", 4325);
export const mailSinkUrl = `http://127.0.0.1:${port("E2E_MAIL_HTTP_PORT", 4326)}`;
