import { randomBytes } from "node:crypto";
import path from "node:path";
import { isIP } from "node:net";
import { z } from "zod";
import { googleStandInPath } from "./auth/google-stand-in.ts";
import type { HostingTarget } from "./websites/domain-check.ts";

const flag = z
  .enum(["true", "false", "1", "0"])
  .transform((v) => v === "true" || v === "1");

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).optional(),
  DATA_DIR: z.string().min(1).default("./data"),
  CONTENT_DIR: z.string().min(1).default("./content"),
  PUBLIC_URL: z.url().optional(),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL").optional(),
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  ENCRYPTION_KEY: z.string().regex(/^[A-Za-z0-9+/]{43}=$/, "must be 32 bytes in base64").optional(),
  ENCRYPTION_KEY_PREVIOUS: z.string().regex(/^[A-Za-z0-9+/]{43}=$/, "must be 32 bytes in base64").optional(),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL").optional(),
  MAIL_FROM: z.string().min(3).optional(),
  PAYMENT_PROVIDER: z.enum(["razorpay", "sandbox"]).optional(),
  RAZORPAY_KEY_ID: z.string().min(1).optional(),
  RAZORPAY_KEY_SECRET: z.string().min(1).optional(),
  RAZORPAY_WEBHOOK_SECRET: z.string().min(1).optional(),
  RAZORPAY_API_URL: z.url().default("https://api.razorpay.com"),
  PAYMENT_ALLOW_TEST_KEYS: flag.default(false),
  PAYMENT_ALLOW_SANDBOX: flag.default(false),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  GOOGLE_ISSUER: z.url().default("https://accounts.google.com"),
  ANALYTICS_MEASUREMENT_ID: z.string().regex(/^G-[A-Z0-9]{4,16}$/, "must be a GA4 measurement id such as G-ABC123XYZ9").optional(),
  TRUST_PROXY: z
    .string()
    .regex(/^(true|false|[0-9])$/, "must be true, false or the number of proxies in front (0-9)")
    .transform((v) => (v === "true" ? 1 : v === "false" ? 0 : Number(v)))
    .default(0),
  LOG_LEVEL: z.enum(["trace", "debug", "info", "warn", "error", "fatal", "silent"]).default("info"),
  PAGE_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  API_RATE_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(120),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(300_000).default(0),
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(500).default(10),
  METRICS_TOKEN: z.string().min(24, "must be at least 24 characters").optional(),
  S3_BUCKET: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "must be an S3 bucket name").optional(),
  S3_REGION: z.string().min(1).default("us-east-1"),
  S3_ENDPOINT: z.url().optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: flag.default(false),
  HOSTING_ADDRESSES: z
    .string()
    .transform((v) => v.split(",").map((address) => address.trim()).filter(Boolean))
    .refine(
      (list) => list.every((address) => isIP(address) !== 0) && list.some((address) => isIP(address) === 4),
      "must be IP addresses separated by commas, at least one of them IPv4, such as 203.0.113.10,2001:db8::10",
    )
    .optional(),
  HOSTING_WWW_TARGET: z
    .string()
    .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i, "must be a host name such as sites.academy.example.in")
    .transform((v) => v.toLowerCase())
    .optional(),
  HOSTING_DNS_SERVERS: z
    .string()
    .transform((v) => v.split(",").map((server) => server.trim()).filter(Boolean))
    .refine((list) => list.length > 0 && list.every((server) => isIP(server.replace(/^\[(.*)\](:\d+)?$/, "$1").replace(/^([\d.]+):\d+$/, "$1")) !== 0), "must be resolver addresses separated by commas, such as 1.1.1.1,[2606:4700:4700::1111]:53")
    .optional(),
});

export type Env = z.input<typeof envSchema>;

export interface Config {
  env: "development" | "production" | "test";
  isProduction: boolean;
  port: number;
  host: string;
  dataDir: string;
  contentDir: string;
  publicUrl: string;
  /** The origins a browser may send forms from: PUBLIC_URL's, and outside production its loopback aliases. */
  siteOrigins: string[];
  databaseUrl: string | undefined;
  /** Connections each process's PostgreSQL pool may open. */
  databasePoolSize: number;
  /** Server processes on this machine (Node's cluster); more than one needs DATABASE_URL. */
  webConcurrency: number;
  /** AUTH_SECRET; unset outside production, one is generated into the database (server/db/generated-secrets.ts). */
  authSecret: string | undefined;
  encryptionKey: string | undefined;
  /** The key a rotation moves values off (docs/operations.md "Encryption keys"). */
  encryptionKeyPrevious: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** The sandbox's signing secrets are generated into the database, as Razorpay's are kept by Razorpay. */
  payments: { provider: "sandbox" } | { provider: "razorpay"; keyId: string; keySecret: string; webhookSecret: string; apiUrl: string };
  /** Uploaded files go to this S3-compatible bucket when set, else to DATA_DIR/uploads. */
  s3: S3Settings | undefined;
  /** Bearer token that opens /metrics; without it /metrics is not served. */
  metricsToken: string | null;
  /**
   * Google sign-in: Google's own when both credentials are set (the issuer is Google's unless a test
   * points it elsewhere); outside production without them, the development stand-in under /dev/google
   * when one process serves.
   */
  google: GoogleSettings | undefined;
  /** How many proxies of ours sit in front, each appending to X-Forwarded-For; 0 trusts none. */
  proxyHops: number;
  /** GA4 measurement id; page views are measured only for visitors who accept them. */
  analyticsId: string | null;
  logLevel: z.infer<typeof envSchema>["LOG_LEVEL"];
  pageCacheSeconds: number;
  /** Requests a minute each API credential may make. */
  apiRateLimit: number;
  shutdownTimeoutMs: number;
  /** After SIGTERM, how long /readyz answers 503 before the server stops accepting, so a load balancer stops sending first. */
  shutdownDelayMs: number;
  /**
   * Where customers point their domains (A/AAAA records, and `www` by CNAME), or null in production
   * without HOSTING_ADDRESSES; and the resolvers the website page's domain check asks (null: the system's).
   */
  hosting: { target: HostingTarget | null; dnsServers: string[] | null };
}

/** Documentation addresses (RFC 5737, RFC 3849): records to show outside production that reach nobody. */
const developmentHostingAddresses = ["192.0.2.10", "2001:db8::10"];

export interface S3Settings {
  bucket: string;
  region: string;
  /** Another S3-compatible service (MinIO, R2, a test server); unset for AWS. */
  endpoint: string | undefined;
  /** Both or neither; neither uses the SDK's own chain (instance role, AWS_* variables). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  forcePathStyle: boolean;
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

const razorpayNames = ["RAZORPAY_KEY_ID", "RAZORPAY_KEY_SECRET", "RAZORPAY_WEBHOOK_SECRET"] as const;

/** Names that must be set: DESIGN.md "Configuration" in production, Razorpay's keys whenever it is the provider. */
function missingNames(env: z.infer<typeof envSchema>, provider: "razorpay" | "sandbox"): string[] {
  const required: (keyof typeof env)[] = env.NODE_ENV === "production" ? ["PUBLIC_URL", "AUTH_SECRET", "ENCRYPTION_KEY", "SMTP_URL"] : [];
  if (provider === "razorpay") required.push(...razorpayNames);
  return required.filter((name) => env[name] === undefined);
}

const loopbackHosts = ["localhost", "127.0.0.1", "[::1]"];

/** localhost (and its subdomains), 127.0.0.0/8 and [::1]: names that only ever reach this machine. */
const isLoopbackHost = (hostname: string) =>
  hostname === "localhost" || hostname.endsWith(".localhost") || hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(hostname);

/**
 * Development mode serves a mailbox with everyone's sign-in links, a sandbox that pays for free and a
 * Google stand-in that signs anyone in: a configuration that reaches the public must be production.
 */
function developmentRefusal(env: z.infer<typeof envSchema>): string | null {
  const mode = `NODE_ENV=${env.NODE_ENV}`;
  if (env.PUBLIC_URL && !isLoopbackHost(new URL(env.PUBLIC_URL).hostname)) {
    return `PUBLIC_URL=${env.PUBLIC_URL} is not this machine, and ${mode}: ${env.NODE_ENV} mode serves a mailbox that shows everyone's sign-in links, a payment sandbox that takes no money and a Google stand-in that signs anyone in. Set NODE_ENV=production to serve the public (start from .env.production.example), or set PUBLIC_URL to a loopback address such as http://localhost:3000.`;
  }
  if (env.SMTP_URL) {
    return `SMTP_URL is set, and ${mode}: outside production, mail stays in the development mailbox so a test run never writes to real people. Set NODE_ENV=production to send mail, or unset SMTP_URL.`;
  }
  if (env.RAZORPAY_KEY_ID?.startsWith("rzp_live_")) {
    return `RAZORPAY_KEY_ID is a live key (rzp_live_…), and ${mode}: outside production payments go to the sandbox or Razorpay's test mode. Set NODE_ENV=production to take real money, or use a test key (rzp_test_…).`;
  }
  return null;
}

/** Production's address is the origin browsers use, over https so its Secure cookies are sent back. */
function productionRefusal(env: z.infer<typeof envSchema>): string | null {
  const given = env.PUBLIC_URL ?? "";
  const url = new URL(given);
  if (url.protocol !== "https:") {
    return `PUBLIC_URL=${given} must start with https:// in production: browsers send sign-in cookies only over https (they are Secure). Put a TLS-terminating proxy in front (see docs/operations.md) and give its https address.`;
  }
  if (url.pathname !== "/" || url.search || url.hash) {
    return `PUBLIC_URL=${given} has a path: Academy is served from the root of its own host name. Give the origin only, such as ${url.origin}.`;
  }
  return null;
}

/** DESIGN.md "Modes": development treats localhost, 127.0.0.1 and [::1] as one origin. */
function siteOriginsOf(publicUrl: string, isProduction: boolean): string[] {
  const url = new URL(publicUrl);
  if (isProduction || !loopbackHosts.includes(url.hostname)) return [url.origin];
  const aliases = loopbackHosts.map((host) => `${url.protocol}//${host}${url.port ? `:${url.port}` : ""}`);
  return [url.origin, ...aliases.filter((origin) => origin !== url.origin)];
}

export interface GoogleSettings {
  clientId: string;
  clientSecret: string;
  issuer: string;
  /** The issuer is this server's own development stand-in, which the app then serves. */
  standIn: boolean;
}

/** Parses the environment once; throws ConfigError naming every bad or missing variable. */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([, v]) => v !== undefined && v !== ""),
  );
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid environment variables:\n  ${lines.join("\n  ")}`);
  }
  const env = parsed.data;
  const isProduction = env.NODE_ENV === "production";
  const provider = env.PAYMENT_PROVIDER ?? (isProduction ? "razorpay" : "sandbox");
  const missing = missingNames(env, provider);
  if (missing.length > 0) {
    throw new ConfigError(`Missing required environment variables: ${missing.join(", ")}`);
  }
  if (isProduction && provider === "sandbox" && !env.PAYMENT_ALLOW_SANDBOX) {
    throw new ConfigError(
      "PAYMENT_PROVIDER=sandbox takes no real money and is refused in production; set PAYMENT_ALLOW_SANDBOX=true to run it anyway",
    );
  }
  if (isProduction && provider === "razorpay" && !env.RAZORPAY_KEY_ID?.startsWith("rzp_live_") && !env.PAYMENT_ALLOW_TEST_KEYS) {
    throw new ConfigError(
      "RAZORPAY_KEY_ID must be a live key (rzp_live_…) in production; set PAYMENT_ALLOW_TEST_KEYS=true to use a test key",
    );
  }
  const refusal = isProduction ? productionRefusal(env) : developmentRefusal(env);
  if (refusal) throw new ConfigError(refusal);
  if (env.WEB_CONCURRENCY > 1 && !env.DATABASE_URL) {
    throw new ConfigError(
      `WEB_CONCURRENCY=${env.WEB_CONCURRENCY} needs DATABASE_URL: the embedded database (PGlite) can be opened by one process only. Set DATABASE_URL to a PostgreSQL server, or leave WEB_CONCURRENCY at 1.`,
    );
  }
  if ((env.S3_ACCESS_KEY_ID === undefined) !== (env.S3_SECRET_ACCESS_KEY === undefined)) {
    throw new ConfigError("S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both, or neither to use the AWS SDK's own credentials");
  }
  const payments: Config["payments"] =
    provider === "razorpay"
      ? {
          provider,
          keyId: env.RAZORPAY_KEY_ID ?? "",
          keySecret: env.RAZORPAY_KEY_SECRET ?? "",
          webhookSecret: env.RAZORPAY_WEBHOOK_SECRET ?? "",
          apiUrl: env.RAZORPAY_API_URL.replace(/\/$/, ""),
        }
      : { provider: "sandbox" };
  const port = env.PORT;
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, "");
  return {
    env: env.NODE_ENV,
    isProduction,
    port,
    // Outside production the development mailbox and sandbox are served, so nothing but this machine may reach them.
    host: env.HOST ?? (isProduction ? "0.0.0.0" : "127.0.0.1"),
    dataDir: path.resolve(env.DATA_DIR),
    contentDir: path.resolve(env.CONTENT_DIR),
    publicUrl,
    siteOrigins: siteOriginsOf(publicUrl, isProduction),
    databaseUrl: env.DATABASE_URL,
    databasePoolSize: env.DATABASE_POOL_SIZE,
    webConcurrency: env.WEB_CONCURRENCY,
    authSecret: env.AUTH_SECRET,
    encryptionKey: env.ENCRYPTION_KEY,
    encryptionKeyPrevious: env.ENCRYPTION_KEY_PREVIOUS,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM ?? "Academy <no-reply@academy.example>",
    payments,
    s3: env.S3_BUCKET
      ? {
          bucket: env.S3_BUCKET,
          region: env.S3_REGION,
          endpoint: env.S3_ENDPOINT,
          credentials: env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY } : undefined,
          forcePathStyle: env.S3_FORCE_PATH_STYLE,
        }
      : undefined,
    metricsToken: env.METRICS_TOKEN ?? null,
    google:
      env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
        ? { clientId: env.GOOGLE_CLIENT_ID, clientSecret: env.GOOGLE_CLIENT_SECRET, issuer: env.GOOGLE_ISSUER, standIn: false }
        : // The stand-in keeps its codes and keys in its own process, so it is offered by a single process only.
          isProduction || env.WEB_CONCURRENCY > 1
          ? undefined
          : { clientId: "academy-dev", clientSecret: randomBytes(24).toString("base64url"), issuer: `${publicUrl}${googleStandInPath}`, standIn: true },
    proxyHops: env.TRUST_PROXY,
    analyticsId: env.ANALYTICS_MEASUREMENT_ID ?? null,
    logLevel: env.LOG_LEVEL,
    pageCacheSeconds: env.PAGE_CACHE_SECONDS,
    apiRateLimit: env.API_RATE_LIMIT,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    shutdownDelayMs: env.SHUTDOWN_DELAY_MS,
    hosting: { target: hostingTarget(env, isProduction), dnsServers: env.HOSTING_DNS_SERVERS ?? null },
  };
}

function hostingTarget(env: z.infer<typeof envSchema>, isProduction: boolean): HostingTarget | null {
  const addresses = env.HOSTING_ADDRESSES ?? (isProduction ? null : developmentHostingAddresses);
  if (!addresses) return null;
  return {
    ipv4: addresses.filter((address) => isIP(address) === 4),
    // As resolvers write them (2001:db8::10, not 2001:0DB8:0:0::10), so the two compare.
    ipv6: addresses.filter((address) => isIP(address) === 6).map((address) => new URL(`http://[${address}]`).hostname.slice(1, -1)),
    wwwTarget: env.HOSTING_WWW_TARGET ?? null,
  };
}
