import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../server/config.ts";

const productionEnv = {
  NODE_ENV: "production",
  PUBLIC_URL: "https://academy.example",
  AUTH_SECRET: "x".repeat(40),
  ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
  SMTP_URL: "smtp://mail.example:587",
  RAZORPAY_KEY_ID: "rzp_live_abc",
  RAZORPAY_KEY_SECRET: "secret",
  RAZORPAY_WEBHOOK_SECRET: "whsec",
};

async function tempDir() {
  return mkdtemp(path.join(tmpdir(), "academy-config-"));
}

describe("configuration", () => {
  it("starts with safe defaults outside production", async () => {
    const dataDir = await tempDir();
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config.port).toBe(3000);
    expect(config.host).toBe("127.0.0.1");
    expect(config.dataDir).toBe(dataDir);
    expect(config.publicUrl).toBe("http://localhost:3000");
    expect(config.databaseUrl).toBeUndefined();
    expect(config.payments).toMatchObject({ provider: "sandbox" });
    // Generated into the database on start (tests/integration/generated-secrets.test.ts), not here.
    expect(config.authSecret).toBeUndefined();
    expect(config).toMatchObject({ webConcurrency: 1, databasePoolSize: 10, s3: undefined, metricsToken: null, shutdownDelayMs: 0 });
  });

  it("runs several processes only on PostgreSQL, and says so", async () => {
    const DATA_DIR = await tempDir();
    expect(() => loadConfig({ DATA_DIR, WEB_CONCURRENCY: "3" })).toThrow(
      "WEB_CONCURRENCY=3 needs DATABASE_URL: the embedded database (PGlite) can be opened by one process only.",
    );
    expect(loadConfig({ DATA_DIR, WEB_CONCURRENCY: "3", DATABASE_URL: "postgres://db/academy" }).webConcurrency).toBe(3);
    expect(() => loadConfig({ DATA_DIR, WEB_CONCURRENCY: "0" })).toThrow(/WEB_CONCURRENCY: /);
  });

  it("keeps uploads in S3 when a bucket is named, with both keys or neither", async () => {
    const DATA_DIR = await tempDir();
    expect(loadConfig({ DATA_DIR, S3_BUCKET: "academy-uploads", S3_ENDPOINT: "http://127.0.0.1:9000", S3_FORCE_PATH_STYLE: "true", S3_ACCESS_KEY_ID: "a", S3_SECRET_ACCESS_KEY: "b" }).s3).toEqual({
      bucket: "academy-uploads",
      region: "us-east-1",
      endpoint: "http://127.0.0.1:9000",
      credentials: { accessKeyId: "a", secretAccessKey: "b" },
      forcePathStyle: true,
    });
    expect(loadConfig({ DATA_DIR, S3_BUCKET: "academy-uploads", S3_REGION: "ap-south-1" }).s3).toMatchObject({ region: "ap-south-1", credentials: undefined, endpoint: undefined });
    expect(() => loadConfig({ DATA_DIR, S3_BUCKET: "academy-uploads", S3_ACCESS_KEY_ID: "a" })).toThrow("S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together");
    expect(() => loadConfig({ DATA_DIR, S3_BUCKET: "Not A Bucket" })).toThrow(/S3_BUCKET: must be an S3 bucket name/);
  });

  it("honours PORT, HOST and DATA_DIR", async () => {
    const dataDir = await tempDir();
    const config = loadConfig({ PORT: "4123", HOST: "127.0.0.1", DATA_DIR: dataDir });
    expect(config).toMatchObject({ port: 4123, host: "127.0.0.1", dataDir, publicUrl: "http://localhost:4123" });
  });

  it("names every missing required variable in production", () => {
    expect(() => loadConfig({ NODE_ENV: "production" })).toThrow(
      "Missing required environment variables: PUBLIC_URL, AUTH_SECRET, ENCRYPTION_KEY, SMTP_URL, RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET, RAZORPAY_WEBHOOK_SECRET",
    );
    const { SMTP_URL: _smtp, RAZORPAY_KEY_SECRET: _secret, ...partial } = productionEnv;
    expect(() => loadConfig(partial)).toThrow("Missing required environment variables: SMTP_URL, RAZORPAY_KEY_SECRET");
  });

  it("listens on loopback only, unless HOST says otherwise or it runs in production", async () => {
    expect(loadConfig({ DATA_DIR: await tempDir(), HOST: "0.0.0.0" }).host).toBe("0.0.0.0");
    expect(loadConfig(productionEnv).host).toBe("0.0.0.0");
  });

  it("treats localhost, 127.0.0.1 and [::1] as one site outside production, and only PUBLIC_URL in production", async () => {
    expect(loadConfig({ DATA_DIR: await tempDir(), PORT: "4000" }).siteOrigins).toEqual([
      "http://localhost:4000",
      "http://127.0.0.1:4000",
      "http://[::1]:4000",
    ]);
    expect(loadConfig({ ...productionEnv, PUBLIC_URL: "https://localhost:8443" }).siteOrigins).toEqual(["https://localhost:8443"]);
  });

  it("refuses to run development mode anywhere but this machine, or with production's mail and money", async () => {
    const DATA_DIR = await tempDir();
    const refusal = (env: Record<string, string>) => {
      try {
        loadConfig({ DATA_DIR, ...env });
      } catch (error) {
        return (error as Error).message;
      }
      return null;
    };
    for (const NODE_ENV of ["development", "test"]) {
      expect(refusal({ NODE_ENV, PUBLIC_URL: "https://academy.example" })).toBe(
        `PUBLIC_URL=https://academy.example is not this machine, and NODE_ENV=${NODE_ENV}: ${NODE_ENV} mode serves a mailbox that shows everyone's sign-in links, a payment sandbox that takes no money and a Google stand-in that signs anyone in. Set NODE_ENV=production to serve the public (start from .env.production.example), or set PUBLIC_URL to a loopback address such as http://localhost:3000.`,
      );
      expect(refusal({ NODE_ENV, PUBLIC_URL: "http://192.168.1.20:3000" })).toMatch(/^PUBLIC_URL=http:\/\/192\.168\.1\.20:3000 is not this machine/);
      expect(refusal({ NODE_ENV, SMTP_URL: "smtp://mail.example:587" })).toBe(
        `SMTP_URL is set, and NODE_ENV=${NODE_ENV}: outside production, mail stays in the development mailbox so a test run never writes to real people. Set NODE_ENV=production to send mail, or unset SMTP_URL.`,
      );
      expect(refusal({ NODE_ENV, RAZORPAY_KEY_ID: "rzp_live_abc", RAZORPAY_KEY_SECRET: "s", RAZORPAY_WEBHOOK_SECRET: "w" })).toBe(
        `RAZORPAY_KEY_ID is a live key (rzp_live_…), and NODE_ENV=${NODE_ENV}: outside production payments go to the sandbox or Razorpay's test mode. Set NODE_ENV=production to take real money, or use a test key (rzp_test_…).`,
      );
    }
    for (const PUBLIC_URL of ["http://localhost:4000", "http://127.0.0.1:4000", "http://[::1]:4000", "http://127.8.0.1"]) {
      expect(refusal({ PUBLIC_URL }), PUBLIC_URL).toBeNull();
    }
  });

  it("refuses a production PUBLIC_URL that is not https or has a path", () => {
    expect(() => loadConfig({ ...productionEnv, PUBLIC_URL: "http://academy.example" })).toThrow(
      "PUBLIC_URL=http://academy.example must start with https:// in production: browsers send sign-in cookies only over https (they are Secure). Put a TLS-terminating proxy in front (see docs/operations.md) and give its https address.",
    );
    expect(() => loadConfig({ ...productionEnv, PUBLIC_URL: "https://example.com/academy" })).toThrow(
      "PUBLIC_URL=https://example.com/academy has a path: Academy is served from the root of its own host name. Give the origin only, such as https://example.com.",
    );
    expect(loadConfig({ ...productionEnv, PUBLIC_URL: "https://academy.example/" }).publicUrl).toBe("https://academy.example");
  });

  it("counts trusted proxy hops: off by default, true is one, a number is that many", async () => {
    const dataDir = await tempDir();
    expect(loadConfig({ DATA_DIR: dataDir }).proxyHops).toBe(0);
    expect(loadConfig({ DATA_DIR: dataDir, TRUST_PROXY: "true" }).proxyHops).toBe(1);
    expect(loadConfig({ DATA_DIR: dataDir, TRUST_PROXY: "2" }).proxyHops).toBe(2);
    expect(loadConfig({ DATA_DIR: dataDir, TRUST_PROXY: "false" }).proxyHops).toBe(0);
    expect(() => loadConfig({ DATA_DIR: dataDir, TRUST_PROXY: "yes" })).toThrow(/TRUST_PROXY: /);
  });

  it("turns analytics on only with a GA4 measurement id", async () => {
    const dataDir = await tempDir();
    expect(() => loadConfig({ DATA_DIR: dataDir, ANALYTICS_MEASUREMENT_ID: "UA-12345-1" })).toThrow(/ANALYTICS_MEASUREMENT_ID: must be a GA4 measurement id/);
    expect(loadConfig({ DATA_DIR: dataDir }).analyticsId).toBeNull();
    expect(loadConfig({ DATA_DIR: dataDir, ANALYTICS_MEASUREMENT_ID: "G-ABC123XYZ9" }).analyticsId).toBe("G-ABC123XYZ9");
  });

  it("signs in with Google's own service when its credentials are set, else with the development stand-in outside production only", async () => {
    const DATA_DIR = await tempDir();
    const standIn = loadConfig({ DATA_DIR, PUBLIC_URL: "http://localhost:4000" }).google;
    expect(standIn).toMatchObject({ standIn: true, issuer: "http://localhost:4000/dev/google", clientId: "academy-dev" });
    expect(standIn?.clientSecret.length).toBeGreaterThanOrEqual(32);
    const real = loadConfig({ DATA_DIR, GOOGLE_CLIENT_ID: "id.apps.googleusercontent.com", GOOGLE_CLIENT_SECRET: "s" }).google;
    expect(real).toEqual({ clientId: "id.apps.googleusercontent.com", clientSecret: "s", issuer: "https://accounts.google.com", standIn: false });
    expect(loadConfig(productionEnv).google).toBeUndefined();
    expect(loadConfig({ DATA_DIR, WEB_CONCURRENCY: "2", DATABASE_URL: "postgres://db/academy" }).google).toBeUndefined();
    expect(loadConfig({ ...productionEnv, GOOGLE_CLIENT_ID: "id", GOOGLE_CLIENT_SECRET: "s" }).google?.standIn).toBe(false);
  });

  it("treats empty values as missing", () => {
    expect(() => loadConfig({ ...productionEnv, AUTH_SECRET: "" })).toThrow(
      "Missing required environment variables: AUTH_SECRET",
    );
  });

  it("accepts a complete production environment with Razorpay", () => {
    const config = loadConfig(productionEnv);
    expect(config.isProduction).toBe(true);
    expect(config.payments).toEqual({
      provider: "razorpay",
      keyId: "rzp_live_abc",
      keySecret: "secret",
      webhookSecret: "whsec",
      apiUrl: "https://api.razorpay.com",
    });
  });

  it("refuses a Razorpay test key in production unless test keys are allowed", () => {
    expect(() => loadConfig({ ...productionEnv, RAZORPAY_KEY_ID: "rzp_test_abc" })).toThrow(
      "RAZORPAY_KEY_ID must be a live key (rzp_live_…) in production",
    );
    expect(loadConfig({ ...productionEnv, RAZORPAY_KEY_ID: "rzp_test_abc", PAYMENT_ALLOW_TEST_KEYS: "true" }).payments).toMatchObject({
      keyId: "rzp_test_abc",
    });
  });

  it("refuses the sandbox gateway in production unless it is explicitly allowed", async () => {
    expect(() => loadConfig({ ...productionEnv, PAYMENT_PROVIDER: "sandbox" })).toThrow("PAYMENT_ALLOW_SANDBOX=true");
    const config = loadConfig({ ...productionEnv, PAYMENT_PROVIDER: "sandbox", PAYMENT_ALLOW_SANDBOX: "true", DATA_DIR: await tempDir() });
    expect(config.payments.provider).toBe("sandbox");
  });

  it("requires Razorpay keys whenever Razorpay is chosen, even in development", () => {
    expect(() => loadConfig({ DATA_DIR: "/tmp/x", PAYMENT_PROVIDER: "razorpay" })).toThrow(
      "Missing required environment variables: RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET, RAZORPAY_WEBHOOK_SECRET",
    );
  });

  it("shows customers documentation addresses to point at outside production, and production's own only when set", async () => {
    const DATA_DIR = await tempDir();
    expect(loadConfig({ DATA_DIR }).hosting).toEqual({ target: { ipv4: ["192.0.2.10"], ipv6: ["2001:db8::10"], wwwTarget: null }, dnsServers: null });
    expect(loadConfig(productionEnv).hosting.target).toBeNull();
    const set = loadConfig({ ...productionEnv, HOSTING_ADDRESSES: "203.0.113.7, 2001:0DB8:0:0::7", HOSTING_WWW_TARGET: "Sites.Academy.example.in", HOSTING_DNS_SERVERS: "1.1.1.1,127.0.0.1:5353,[::1]:53" });
    expect(set.hosting).toEqual({ target: { ipv4: ["203.0.113.7"], ipv6: ["2001:db8::7"], wwwTarget: "sites.academy.example.in" }, dnsServers: ["1.1.1.1", "127.0.0.1:5353", "[::1]:53"] });
    expect(() => loadConfig({ DATA_DIR, HOSTING_ADDRESSES: "2001:db8::7" })).toThrow(/HOSTING_ADDRESSES: must be IP addresses separated by commas, at least one of them IPv4/);
    expect(() => loadConfig({ DATA_DIR, HOSTING_ADDRESSES: "sites.example.in" })).toThrow(/HOSTING_ADDRESSES: /);
    expect(() => loadConfig({ DATA_DIR, HOSTING_WWW_TARGET: "http://sites.example.in" })).toThrow(/HOSTING_WWW_TARGET: must be a host name/);
    expect(() => loadConfig({ DATA_DIR, HOSTING_DNS_SERVERS: "dns.google" })).toThrow(/HOSTING_DNS_SERVERS: must be resolver addresses/);
  });

  it("rejects malformed values with the variable's name", () => {
    expect(() => loadConfig({ PORT: "eighty" })).toThrow(/PORT: /);
    expect(() => loadConfig({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL: must be a postgres:\/\/ URL/);
    expect(() => loadConfig({ ...productionEnv, AUTH_SECRET: "short" })).toThrow(/AUTH_SECRET: must be at least 32/);
  });
});
