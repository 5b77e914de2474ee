import type { BetterAuthOptions } from "better-auth";
import { deviceAuthorization } from "better-auth/plugins/device-authorization";

/** The one client the device grant serves: the `academy` command-line tool. */
export const cliClientId = "academy-cli";

/** How long a code from `academy login` may wait for approval in the browser, and how often the CLI may ask. */
export const cliCodeLifetimeSeconds = 10 * 60;
export const cliPollSeconds = 5;

/** Options that shape the database schema; shared by the app and the schema generator. */
export const authOptions = {
  appName: "Academy",
  emailAndPassword: { enabled: true },
  rateLimit: { enabled: true, storage: "database" },
  plugins: [
    // RFC 8628 for the CLI: the browser approves through /api/cli-auth (server/cli-auth), not the plugin's own pages.
    deviceAuthorization({
      expiresIn: `${cliCodeLifetimeSeconds}s`,
      interval: `${cliPollSeconds}s`,
      validateClient: (clientId) => clientId === cliClientId,
    }),
  ],
} satisfies BetterAuthOptions;
