// The reference a request's fixed cost is compared with: a bare Hono app on Node, answering
// /healthz as ours does. `node bench/bare-hono.ts` listens on BARE_HONO_PORT.
import { serve } from "@hono/node-server";
import { Hono } from "hono";

const app = new Hono();
app.get("/healthz", (c) => c.json({ status: "ok" }));
serve({ fetch: app.fetch, port: Number(process.env.BARE_HONO_PORT ?? 4402), hostname: "127.0.0.1" });
