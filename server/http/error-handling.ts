import type { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ServiceUnavailable } from "../errors.ts";
import { reportError } from "../logger.ts";
import type { HttpDeps } from "./deps.ts";
import type { Documents } from "./documents.ts";
import type { HttpEnv } from "./env.ts";
import { isSafeMethod } from "./site-origin.ts";
import { profilePhoto } from "../../common/limits.ts";

/** An uncaught error, and a body over the limit, answered with the site's error page. */
export function mountErrorHandling(app: Hono<HttpEnv>, deps: HttpDeps, { errorPage }: Documents): void {
  app.onError(async (error, c) => {
    // A service we rely on failed (the file store): an outage the visitor can wait out, logged with its cause.
    if (error instanceof ServiceUnavailable) {
      deps.logger.warn({ err: error.cause ?? error }, error.message);
      c.header("Retry-After", "60");
      return errorPage(c, 503, error.message).catch(() => c.text(error.message, 503));
    }
    reportError(deps.logger, error, "request failed");
    const message = "Something went wrong on our side. Please try again.";
    // The page itself may be what failed: then the sentence alone.
    return errorPage(c, 500, message).catch(() => c.text(message, 500));
  });

  // Nothing we accept is larger than a profile photo plus the form around it. Reads without a body skip
  // the check, which would otherwise build a full Request for every one of them.
  const limitBody = bodyLimit({
    maxSize: profilePhoto.maxBytes + 1024 * 1024,
    onError: (c) => errorPage(c, 413, `Nothing was uploaded: files can be at most ${profilePhoto.maxMegabytes} MB. Go back and choose a smaller one.`),
  });
  app.use("*", (c, next) => (isSafeMethod(c.req.method) ? next() : limitBody(c, next)));
}
