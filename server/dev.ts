import { watch } from "node:fs";
import { getRequestListener } from "@hono/node-server";
import type { ServerBuild } from "react-router";
import { createServer as createViteServer } from "vite";
import { loadCatalog } from "./catalog/index.ts";
import { createHttpApp } from "./http/app.ts";
import { listen, startServices } from "./runtime.ts";

const services = await startServices();
const vite = await createViteServer({ server: { middlewareMode: true }, appType: "custom" });

watch(services.config.contentDir, { recursive: true }, () => {
  loadCatalog(services.config.contentDir).then(
    (next) => {
      services.catalog.current = next;
      services.logger.info("content reloaded");
    },
    (error: unknown) => services.logger.error({ err: error }, "content reload failed; keeping the previous content"),
  );
});

const app = createHttpApp({
  production: false,
  dev: true,
  publicUrl: services.config.publicUrl,
  pageCacheSeconds: 0,
  apiRateLimit: services.config.apiRateLimit,
  siteOrigins: services.config.siteOrigins,
  proxyHops: services.config.proxyHops,
  logger: services.logger,
  catalog: () => services.catalog.current,
  database: services.database,
  identity: services.identity,
  payments: services.payments,
  storage: services.storage,
  googleEnabled: services.config.google !== undefined,
  analyticsId: services.config.analyticsId,
  build: () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
  assets: new Map(),
  draining: () => services.health.draining,
});
const listener = getRequestListener(app.fetch);

services.payments.startWebhooks((request) => Promise.resolve(app.fetch(request)));
await listen(services, (req, res) => vite.middlewares(req, res, () => listener(req, res)));
