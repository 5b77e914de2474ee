// The reference a request's fixed cost is compared with: a bare Hono app on Node, answering
// /healthz as ours does and serving the same bytes as ours from memory. `node bench/bare-hono.ts`
// listens on BARE_HONO_PORT; BARE_HONO_BODIES names a JSON file of { path, file, type, encoding },
// or { path, file, headers } for a body sent with exactly these headers (ours, copied).
import { readFileSync } from "node:fs";
import { serve } from "@hono/node-server";
import { Hono } from "hono";

type Body = { path: string; file: string } & ({ type: string; encoding: string | null } | { headers: Record<string, string> });

const app = new Hono();
app.get("/healthz", (c) => c.json({ status: "ok" }));
const bodies = process.env.BARE_HONO_BODIES ? (JSON.parse(readFileSync(process.env.BARE_HONO_BODIES, "utf8")) as Body[]) : [];
for (const body of bodies) {
  const bytes = readFileSync(body.file);
  const headers = "headers" in body ? body.headers : { "content-type": body.type, ...(body.encoding && { "content-encoding": body.encoding }) };
  app.get(body.path, (c) => c.body(bytes, 200, headers));
}
serve({ fetch: app.fetch, port: Number(process.env.BARE_HONO_PORT ?? 4402), hostname: "127.0.0.1" });
