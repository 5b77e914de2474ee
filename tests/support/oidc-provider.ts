// Google's OpenID Connect endpoints for the end-to-end tests: the development stand-in, on its own port.
import { createServer } from "node:http";
import { getRequestListener } from "@hono/node-server";
import { createGoogleStandIn } from "../../server/auth/google-stand-in.ts";

const port = Number(process.env.OIDC_PORT ?? 4320);
const standIn = await createGoogleStandIn({
  issuer: `http://127.0.0.1:${port}`,
  clientId: process.env.OIDC_CLIENT_ID ?? "academy-test-client",
  clientSecret: process.env.OIDC_CLIENT_SECRET ?? "academy-test-secret",
});

const server = createServer(getRequestListener((request) => standIn.handle(request)));
server.listen(port, "127.0.0.1", () => process.stdout.write(`test OpenID provider at ${standIn.issuer}\n`));
for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => server.close(() => process.exit(0)));
