import cluster from "node:cluster";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ServerBuild } from "react-router";
import { createHttpApp } from "./http/app.ts";
import { loadStaticAssets } from "./http/static-assets.ts";
import { httpDepsOf, listen, startServices } from "./runtime.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** One server process over the production build: services, the HTTP app, background work, listening. */
export async function serve(environment: Record<string, string | undefined>): Promise<void> {
  const services = await startServices(environment);
  const build = (await import(path.join(root, "build/server/index.js"))) as ServerBuild;
  const assets = await loadStaticAssets(path.join(root, "build/client"));
  const { metricsToken } = services.config;
  // prom-client is loaded only when /metrics is served.
  const metrics = metricsToken
    ? {
        token: metricsToken,
        collector: (await import("./metrics/registry.ts")).createMetrics({
          database: services.database,
          sandboxWebhooks: services.payments.sandbox !== null,
          logger: services.logger,
          worker: cluster.isWorker,
        }),
      }
    : undefined;

  const app = createHttpApp({
    ...httpDepsOf(services),
    production: services.config.isProduction,
    dev: false,
    pageCacheSeconds: services.config.pageCacheSeconds,
    build,
    assets,
    metrics,
  });

  services.payments.startWebhooks((request) => Promise.resolve(app.fetch(request)));
  const started = performance.now();
  const lessons = services.catalog.current.prepareLessons();
  services.logger.info({ lessons, ms: Math.round(performance.now() - started) }, "lessons rendered");
  await listen(services, app.listener);
}
