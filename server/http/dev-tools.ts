import type { Hono, MiddlewareHandler } from "hono";
import { googleStandInPath } from "../auth/google-stand-in.ts";
import { isLoopback } from "./client-address.ts";
import type { HttpDeps } from "./deps.ts";
import { mountDevMailbox } from "./dev-mailbox.ts";
import type { HttpEnv } from "./env.ts";
import { requestHeader } from "./prepared-response.ts";
import { requestNonce } from "./security-headers.ts";

/**
 * Outside production only: the mailbox shows everyone's sign-in links and the sandbox pays for free,
 * so /dev/* and /sandbox/* answer this machine only; the Google stand-in signs in whoever asks.
 */
export function mountDevTools(app: Hono<HttpEnv>, deps: HttpDeps): void {
  // A proxy on this machine connects from loopback: what it forwards is local only when every address it names is.
  const loopbackOnly: MiddlewareHandler<HttpEnv> = async (c, next) => {
    const fromLoopback = isLoopback(c.env?.incoming?.socket.remoteAddress ?? "");
    const otherForwarding = requestHeader(c, "forwarded") !== undefined || requestHeader(c, "x-real-ip") !== undefined;
    const forwardedFor = requestHeader(c, "x-forwarded-for");
    const forwardedLocally = forwardedFor === undefined || (deps.proxyHops > 0 && forwardedFor.split(",").every((hop) => isLoopback(hop.trim())));
    if (!fromLoopback || otherForwarding || !forwardedLocally) {
      return c.text("This development page is only served to the machine the server runs on.", 403);
    }
    await next();
  };

  app.use("/dev/*", loopbackOnly);
  app.use("/sandbox/*", loopbackOnly);
  if (deps.identity.mailTransport.kind === "outbox") mountDevMailbox(app, deps.database.db);
  const standIn = deps.identity.googleStandIn;
  if (standIn) app.all(`${googleStandInPath}/*`, (c) => standIn.handle(c.req.raw, requestNonce(c)));
}
