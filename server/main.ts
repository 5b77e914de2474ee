// `npm start` and production. Imported first: modules run in import order, so every library below
// is resolved by server/module-resolution.ts and loaded after NODE_ENV is settled.
import "./module-resolution.ts";
import { configuredEnvironment } from "./production-libraries.ts";
import cluster from "node:cluster";
import { fileURLToPath } from "node:url";
import { superviseWorkers, workerCount } from "./cluster.ts";

const environment = { ...process.env, NODE_ENV: configuredEnvironment };
const workers = cluster.isPrimary ? workerCount(environment) : 1;
if (workers > 1) {
  await superviseWorkers({ environment, workers, exec: fileURLToPath(import.meta.url) });
} else {
  // The server itself is loaded only where it runs: a supervising process stays small.
  await (await import("./serve.ts")).serve(environment);
}
