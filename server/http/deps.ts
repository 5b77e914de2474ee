import type { ServerBuild } from "react-router";
import type { Catalog } from "../catalog/index.ts";
import type { Database } from "../db/client.ts";
import type { Identity } from "../identity.ts";
import type { Logger } from "../logger.ts";
import type { Metrics } from "../metrics/registry.ts";
import type { Payments } from "../payments/index.ts";
import type { FileStorage } from "../storage/index.ts";
import type { DomainChecker } from "../websites/index.ts";
import type { StaticFile } from "./static-assets.ts";

/** What the HTTP app is built over: the configuration and services its mounts use. */
export interface HttpDeps {
  production: boolean;
  /** Vite dev server mode: no CSP nonce enforcement, no page cache. */
  dev: boolean;
  publicUrl: string;
  pageCacheSeconds: number;
  /** Requests a minute each API credential may make (config.apiRateLimit). */
  apiRateLimit: number;
  /** The origins forms may be sent from (config.siteOrigins); the first is PUBLIC_URL's. */
  siteOrigins: string[];
  /** Proxies of ours in front, each appending to X-Forwarded-For (config.proxyHops). */
  proxyHops: number;
  logger: Logger;
  /** A function so the dev server can swap in edited content without a restart. */
  catalog: () => Catalog;
  database: Database;
  identity: Identity;
  payments: Payments;
  storage: FileStorage;
  hosting: DomainChecker;
  /** Google sign-in is offered only when its client credentials are configured. */
  googleEnabled: boolean;
  analyticsId: string | null;
  build: ServerBuild | (() => Promise<ServerBuild>);
  assets: Map<string, StaticFile>;
  /** True once the process is shutting down: /readyz then answers 503 while requests are still served. */
  draining?: () => boolean;
  /** With METRICS_TOKEN: requests are counted, and /metrics answers whoever sends the token as a bearer token. */
  metrics?: { token: string; collector: Metrics };
}
