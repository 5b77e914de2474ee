// The reference a request's fixed cost is compared with: a bare Hono app on Node, answering
// /healthz as ours does and serving the same bytes as ours from memory. `node bench/bare-hono.ts`
// listens on BARE_HONO_PORT; BARE_HONO_BODIES names a JSON file of { path, file, type, encoding }.
import { readFileSync } from "node:fs";
import { serve } from "@hono/node-server";
import { Hono } from "hono";

interface Body {
  path: string;
  file: string;
  type: string;
  encoding: string | null;
}

const app = new Hono();
app.get("/healthz", (c) => c.json({ status: "ok" }));
const bodies = process.env.BARE_HONO_BODIES ? (JSON.parse(readFileSync(process.env.BARE_HONO_BODIES, "utf8")) as Body[]) : [];
for (const body of bodies) {
  const bytes = readFileSync(body.file);
  app.get(body.path, (c) => c.body(bytes, 200, { "content-type": body.type, ...(body.encoding && { "content-encoding": body.encoding }) }));
}
serve({ fetch: app.fetch, port: Number(process.env.BARE_HONO_PORT ?? 4402), hostname: "127.0.0.1" });
