import type { BetterAuthOptions, BetterAuthPlugin } from "better-auth";
import { APIError, createAuthMiddleware, getSessionFromCtx } from "better-auth/api";
import { deviceAuthorization } from "better-auth/plugins/device-authorization";
import { loadPasswordCheck, type PasswordOwner } from "../../app/lib/password-policy.ts";

/** The request header the HTTP layer fills with the client's address; anything a client sends in it is replaced. */
export const clientIpHeader = "x-academy-client-ip";

/** The one client the device grant serves: the `academy` command-line tool. */
export const cliClientId = "academy-cli";

/**
 * Every session the CLI's device grant makes has a token starting so (server/auth/index.ts), and
 * only such a token is accepted as a bearer by the API: a browser's session token is not a credential.
 */
export const cliTokenPrefix = "acli_";

/** How long a code from `academy login` may wait for approval in the browser, and how often the CLI may ask. */
export const cliCodeLifetimeSeconds = 10 * 60;
export const cliPollSeconds = 5;

/** The endpoints that set a password, and the body field that carries it. */
const passwordEndpoints: Record<string, "password" | "newPassword"> = {
  "/sign-up/email": "password",
  "/reset-password": "newPassword",
  "/change-password": "newPassword",
};

/**
 * Weak and common passwords are refused on every endpoint that sets one, before it changes
 * anything, whether a form of ours or a script called it: the policy is judged against the
 * account's own name and e-mail (from the body on sign-up, the reset token's account on reset,
 * the session on a change).
 */
const passwordPolicy = {
  id: "academy-password-policy",
  hooks: {
    before: [
      {
        matcher: (ctx) => ctx.path !== undefined && Object.hasOwn(passwordEndpoints, ctx.path),
        handler: createAuthMiddleware(async (ctx) => {
          const body = (ctx.body ?? {}) as Record<string, unknown>;
          const password = body[passwordEndpoints[ctx.path]!];
          // A missing or non-text password is the endpoint's own validation error to give.
          if (typeof password !== "string") return;
          let owner: PasswordOwner = {};
          if (ctx.path === "/sign-up/email") {
            owner = { name: typeof body.name === "string" ? body.name : null, email: typeof body.email === "string" ? body.email : null };
          } else if (ctx.path === "/change-password") {
            owner = (await getSessionFromCtx(ctx))?.user ?? {};
          } else {
            const token = body.token ?? (ctx.query as { token?: unknown } | undefined)?.token;
            const verification = typeof token === "string" ? await ctx.context.internalAdapter.findVerificationValue(`reset-password:${token}`) : null;
            owner = (verification && (await ctx.context.internalAdapter.findUserById(verification.value))) ?? {};
          }
          const verdict = (await loadPasswordCheck())(password, owner);
          if (!verdict.ok) throw new APIError("BAD_REQUEST", { message: verdict.message, code: "PASSWORD_TOO_WEAK" });
        }),
      },
    ],
  },
} satisfies BetterAuthPlugin;

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
    passwordPolicy,
  ],
} satisfies BetterAuthOptions;
