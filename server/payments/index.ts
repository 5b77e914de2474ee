import type { Catalog } from "../catalog/index.ts";
import type { Shop } from "../commerce/shop.ts";
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import { createRazorpayProvider } from "./razorpay.ts";
import { createSandboxGateway, startSandboxWebhooks, type SandboxGateway, type SandboxWebhookWorker } from "./sandbox.ts";

export { ProviderError } from "./provider.ts";
export { sandboxMethods, type SandboxMethod } from "./sandbox.ts";

export const webhookPath = "/api/payments/webhook";
export const callbackPath = "/api/payments/callback";

/** The configured provider, with the sandbox's generated signing secrets filled in. */
export type PaymentSettings =
  | { provider: "sandbox"; keySecret: string; webhookSecret: string }
  | Extract<Config["payments"], { provider: "razorpay" }>;

export interface Payments {
  shop: Shop;
  /** The local gateway when it is the provider; null with Razorpay. */
  sandbox: SandboxGateway | null;
  /** With the sandbox, starts delivering its webhooks through `deliver` (our own HTTP handler). */
  startWebhooks(deliver: (request: Request) => Promise<Response>): void;
  stop(): Promise<void>;
}

export function createPayments(options: {
  settings: PaymentSettings;
  db: Db;
  logger: Logger;
  catalog: () => Catalog;
  publicUrl: string;
  mailQueued: () => void;
  now?: () => Date;
}): Payments {
  const { settings, db, logger } = options;
  const sandbox = settings.provider === "sandbox" ? createSandboxGateway(db, settings) : null;
  const provider = settings.provider === "razorpay" ? createRazorpayProvider(settings) : sandbox;
  if (!provider) throw new Error(`Unknown payment provider`);
  let worker: SandboxWebhookWorker | undefined;
  return {
    shop: {
      db,
      provider,
      logger,
      catalog: options.catalog,
      publicUrl: options.publicUrl,
      mailQueued: options.mailQueued,
      now: options.now ?? (() => new Date()),
    },
    sandbox,
    startWebhooks(deliver) {
      if (!sandbox || worker) return;
      worker = startSandboxWebhooks({ gateway: sandbox, deliver, webhookUrl: `${options.publicUrl}${webhookPath}`, logger });
    },
    async stop() {
      await worker?.stop();
    },
  };
}
