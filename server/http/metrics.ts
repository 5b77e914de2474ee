import type { Hono } from "hono";
import type { Logger } from "../logger.ts";
import { bearerTokenMatches, metricsPath } from "../metrics/http.ts";
import type { HttpDeps } from "./deps.ts";
import type { HttpEnv } from "./env.ts";

/** /metrics, for whoever sends the metrics token as a bearer token. */
export function mountMetrics(app: Hono<HttpEnv>, { token, collector }: NonNullable<HttpDeps["metrics"]>, logger: Logger): void {
  app.get(metricsPath, async (c) => {
    c.header("Cache-Control", "no-store");
    if (!bearerTokenMatches(c.req.header("authorization"), token)) {
      c.header("WWW-Authenticate", "Bearer");
      return c.text("Send the metrics token as Authorization: Bearer <METRICS_TOKEN>.", 401);
    }
    try {
      const text = await collector.scrape();
      c.set("routine", true);
      return c.body(text, 200, { "Content-Type": collector.contentType });
    } catch (error) {
      logger.warn({ requestId: c.get("requestId"), err: error }, "metrics could not be collected");
      return c.text("The metrics could not be collected just now. Try again in a moment.", 503);
    }
  });
}
