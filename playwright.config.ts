import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { chromiumFlags, testBrowserPath } from "./tests/chromium.ts";
import {
  appUrl as baseURL,
  mailSinkSmtpPort,
  mailSinkUrl,
  oidcIssuer,
  productionAppUrl,
  productionHost,
  productionUrl,
  razorpayApiUrl,
  razorpayAppUrl,
  razorpayKeys,
} from "./tests/e2e/servers.ts";

const portOf = (url: string) => new URL(url).port;

/**
 * Where each app server keeps its data: inside the output folder, which Playwright empties before every
 * run (before it starts the servers, which then make the folder as on a first start), so nothing piles
 * up in the system's temporary folder run after run.
 */
const outputDir = "test-results";
const dataDir = (server: string) => path.join(import.meta.dirname, outputDir, "servers", server);

// The servers and the CLI runs the tests start keep Node's compiled code for the next one.
process.env.NODE_COMPILE_CACHE ??= path.join(import.meta.dirname, outputDir, "node-compile-cache");

export default defineConfig({
  testDir: "tests/e2e",
  outputDir,
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: process.env.CI ? 1 : 0,
  reporter: "list",
  // Budgets for one loaded core (CI machines are shared): a sign-up, verification and purchase
  // takes ~10 s there. Tests that do more set their own (see scanBudget for axe scans).
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL,
    // The site's service worker would answer requests that page.route() then never sees; tests/e2e/offline.spec.ts allows it.
    serviceWorkers: "block",
    trace: process.env.CI ? "on-first-retry" : "retain-on-failure",
    launchOptions: { executablePath: testBrowserPath, args: chromiumFlags },
  },
  projects: [
    { name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } },
    {
      // The production build behind nginx terminating TLS, at a host name that is not localhost.
      name: "production-tls",
      testDir: "tests/e2e-production",
      use: {
        ...devices["Desktop Chrome"],
        channel: undefined,
        baseURL: productionUrl,
        ignoreHTTPSErrors: true,
        launchOptions: { executablePath: testBrowserPath, args: [...chromiumFlags, `--host-resolver-rules=MAP ${productionHost} 127.0.0.1`] },
      },
    },
  ],
  webServer: [
    {
      // Stands in for Google's OpenID Connect endpoints.
      command: "node tests/support/oidc-provider.ts",
      url: `${oidcIssuer}/.well-known/openid-configuration`,
      reuseExistingServer: false,
      env: { OIDC_PORT: portOf(oidcIssuer) },
    },
    {
      command: "node tests/support/e2e-server.ts",
      url: `${baseURL}/readyz`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        PORT: portOf(baseURL),
        HOST: "127.0.0.1",
        PUBLIC_URL: baseURL,
        DATA_DIR: dataDir("app"),
        LOG_LEVEL: "warn",
        // Tests give each browser its own X-Forwarded-For address (one proxy hop: the entry is taken as written), so per-address rate limits stay real.
        TRUST_PROXY: "true",
        GOOGLE_CLIENT_ID: "academy-test-client",
        GOOGLE_CLIENT_SECRET: "academy-test-secret",
        GOOGLE_ISSUER: oidcIssuer,
      },
    },
    {
      // Stands in for Razorpay's Orders, Payments and Refunds API.
      command: "node tests/support/razorpay-api.ts",
      url: `${razorpayApiUrl}/v1/orders`,
      reuseExistingServer: false,
      env: { RAZORPAY_FAKE_PORT: portOf(razorpayApiUrl), ...razorpayKeys },
    },
    {
      // The same app with Razorpay as its payment provider.
      command: "node tests/support/e2e-server.ts",
      url: `${razorpayAppUrl}/readyz`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        PORT: portOf(razorpayAppUrl),
        HOST: "127.0.0.1",
        PUBLIC_URL: razorpayAppUrl,
        DATA_DIR: dataDir("razorpay"),
        LOG_LEVEL: "warn",
        TRUST_PROXY: "true",
        PAYMENT_PROVIDER: "razorpay",
        RAZORPAY_API_URL: razorpayApiUrl,
        ...razorpayKeys,
      },
    },
    {
      // Receives the production app's mail over SMTP; tests read it as JSON.
      command: "node tests/support/mail-sink.ts",
      url: `${mailSinkUrl}/mail.json`,
      reuseExistingServer: false,
      env: { MAIL_SINK_SMTP_PORT: String(mailSinkSmtpPort), MAIL_SINK_HTTP_PORT: portOf(mailSinkUrl) },
    },
    {
      // The production configuration, reached only through the TLS proxy below.
      command: "node tests/support/e2e-server.ts",
      url: `${productionAppUrl}/readyz`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        NODE_ENV: "production",
        PORT: portOf(productionAppUrl),
        HOST: "127.0.0.1",
        PUBLIC_URL: productionUrl,
        DATA_DIR: dataDir("production"),
        LOG_LEVEL: "warn",
        AUTH_SECRET: "e2e-production-auth-secret-of-at-least-32-characters",
        ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
        SMTP_URL: `smtp://127.0.0.1:${mailSinkSmtpPort}`,
        MAIL_FROM: "Academy <no-reply@academy.test>",
        PAYMENT_PROVIDER: "sandbox",
        PAYMENT_ALLOW_SANDBOX: "true",
        // Page views are measured after consent (tests/e2e-production/analytics.spec.ts).
        ANALYTICS_MEASUREMENT_ID: "G-E2ETEST123",
        // A CDN in front of nginx: tests play the CDN by writing X-Forwarded-For, nginx appends its peer.
        TRUST_PROXY: "2",
      },
    },
    {
      command: "node tests/support/tls-proxy.ts",
      url: `https://127.0.0.1:${portOf(productionUrl)}/readyz`,
      ignoreHTTPSErrors: true,
      reuseExistingServer: false,
      env: { TLS_PROXY_PORT: portOf(productionUrl), TLS_PROXY_UPSTREAM: productionAppUrl, TLS_PROXY_SERVER_NAME: productionHost },
    },
  ],
});
