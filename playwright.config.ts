import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { chromiumFlags, chromiumPath } from "./tests/chromium.ts";
import { appUrl as baseURL, oidcIssuer, razorpayApiUrl, razorpayAppUrl, razorpayKeys } from "./tests/e2e/servers.ts";

const portOf = (url: string) => new URL(url).port;

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: process.env.CI ? 1 : 0,
  reporter: "list",
  timeout: 30_000,
  expect: { timeout: 7_000 },
  use: {
    baseURL,
    trace: "retain-on-failure",
    launchOptions: { executablePath: chromiumPath, args: chromiumFlags },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: [
    {
      // Stands in for Google's OpenID Connect endpoints.
      command: "node tests/support/oidc-provider.ts",
      url: `${oidcIssuer}/.well-known/openid-configuration`,
      reuseExistingServer: false,
      env: { OIDC_PORT: portOf(oidcIssuer) },
    },
    {
      command: "node server/main.ts",
      url: `${baseURL}/readyz`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        PORT: portOf(baseURL),
        HOST: "127.0.0.1",
        PUBLIC_URL: baseURL,
        DATA_DIR: mkdtempSync(path.join(tmpdir(), "academy-e2e-")),
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
      command: "node server/main.ts",
      url: `${razorpayAppUrl}/readyz`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        PORT: portOf(razorpayAppUrl),
        HOST: "127.0.0.1",
        PUBLIC_URL: razorpayAppUrl,
        DATA_DIR: mkdtempSync(path.join(tmpdir(), "academy-e2e-razorpay-")),
        LOG_LEVEL: "warn",
        TRUST_PROXY: "true",
        PAYMENT_PROVIDER: "razorpay",
        RAZORPAY_API_URL: razorpayApiUrl,
        ...razorpayKeys,
      },
    },
  ],
});
