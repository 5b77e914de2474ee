import type { Catalog } from "../catalog/index.ts";
import type { Db } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import type { PaymentProvider } from "../payments/provider.ts";

/** What the commerce functions work with; one per process, shared by pages, API and workers. */
export interface Shop {
  db: Db;
  provider: PaymentProvider;
  catalog: () => Catalog;
  publicUrl: string;
  logger: Logger;
  /** Wakes the mail worker once a transaction that queued mail has committed. */
  mailQueued: () => void;
  now: () => Date;
}

export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** Where a buyer starts learning a course they own. */
export function coursePlayerPath(courseId: string): string {
  return `/account/courses#${courseId}`;
}
