import { loadEnvFile } from "./env-file.ts";
import { watch } from "node:fs";
import type { ServerBuild } from "react-router";
import { createServer as createViteServer } from "vite";
import { loadCatalog } from "./catalog/index.ts";
import { createHttpApp } from "./http/app.ts";
import { httpDepsOf, listen, startServices } from "./runtime.ts";

loadEnvFile();

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
  ...httpDepsOf(services),
  production: false,
  dev: true,
  pageCacheSeconds: 0,
  build: () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
  assets: new Map(),
});

services.payments.startWebhooks((request) => Promise.resolve(app.fetch(request)));
await listen(services, (req, res) => vite.middlewares(req, res, () => app.listener(req, res)));
