import type { BetterAuthOptions, BetterAuthPlugin } from "better-auth";
import { APIError, createAuthMiddleware, getSessionFromCtx } from "better-auth/api";
import { deviceAuthorization } from "better-auth/plugins/device-authorization";
import { twoFactor } from "better-auth/plugins/two-factor";
import { loadPasswordCheck, type PasswordOwner } from "../../common/password-policy.ts";
import { noteRequestUser, reportError, type Logger } from "../logger.ts";

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

/**
 * The signed-in person of whatever Better Auth endpoint ran (a sign-in's new session, a session
 * looked up), for the request's log lines.
 */
export function requestUserPlugin() {
  return {
    id: "academy-request-user",
    hooks: {
      after: [
        {
          matcher: () => true,
          handler: createAuthMiddleware(async (ctx) => {
            const returned = ctx.context.returned as { user?: { id?: unknown } } | null | undefined;
            const userId = ctx.context.newSession?.user.id ?? ctx.context.session?.user.id ?? returned?.user?.id;
            if (typeof userId === "string") noteRequestUser(userId);
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}

const authLevels = { trace: "debug", debug: "debug", info: "info", warn: "warn" } as const;

/**
 * Better Auth's own log lines as ours: JSON through the process's logger, no colours, errors under
 * `err` (so a failed query's values are dropped as everywhere else). An error it logs while a
 * request is handled goes on that request's line, the one place a failed request is reported. An
 * error no endpoint handles is thrown rather than printed by the library (`onAPIError.throw`), and
 * `withLoggedFailures` reports it.
 */
export function authLogging(logger: Logger) {
  return {
    logger: {
      disableColors: true,
      level: authLevels[logger.level as keyof typeof authLevels] ?? "error",
      log: (level: "debug" | "info" | "warn" | "error", message: string, ...args: unknown[]) => {
        const err = args.find((arg) => arg instanceof Error);
        if (level === "error" && err) return reportError(logger, err, message);
        const details = args.filter((arg) => arg !== err);
        logger[level]({ source: "better-auth", ...(err && { err }), ...(details.length > 0 && { details }) }, message);
      },
    },
    onAPIError: { throw: true },
  } satisfies Pick<BetterAuthOptions, "logger" | "onAPIError">;
}

/** The words a client gets when Better Auth fails on our side (a database error): the details are in the log. */
export const authFailureMessage = "Something went wrong on our side. Please try again.";

/**
 * Better Auth's HTTP handler, answering an error no endpoint handled with a JSON 500 and reporting
 * it once through our logger (on the request's own line), where the library would print the error
 * and its query's values over many plain lines.
 */
export function withLoggedFailures<A extends { handler: (request: Request) => Promise<Response> }>(auth: A, logger: Logger): A {
  const { handler } = auth;
  return {
    ...auth,
    handler: (request: Request) =>
      handler(request).catch((error: unknown) => {
        reportError(logger, error, "sign-in service failed");
        return Response.json({ code: "SERVER_ERROR", message: authFailureMessage }, { status: 500 });
      }),
  };
}

/** Options that shape the database schema; shared by the app and the schema generator. */
export const authOptions = {
  appName: "Academy",
  emailAndPassword: { enabled: true },
  rateLimit: { enabled: true, storage: "database" },
  // Which browser made a session (server/auth/known-device.ts): signing in again there replaces its
  // older session, so the devices list shows one row a device, not one a sign-in.
  session: { additionalFields: { deviceId: { type: "string", required: false, input: false } } },
  plugins: [
    // RFC 8628 for the CLI: the browser approves through /api/cli-auth (server/cli-auth), not the plugin's own pages.
    deviceAuthorization({
      expiresIn: `${cliCodeLifetimeSeconds}s`,
      interval: `${cliPollSeconds}s`,
      validateClient: (clientId) => clientId === cliClientId,
    }),
    passwordPolicy,
    // Staff confirm a second factor (TOTP, or a recovery code) before the back office opens (server/staff).
    twoFactor({ issuer: "Academy", allowPasswordless: true, backupCodeOptions: { amount: 10, length: 10 } }),
  ],
} satisfies BetterAuthOptions;

/** The endpoints that accept a second factor: a success confirms it for the session it made or was made with. */
export const secondFactorEndpoints = new Set(["/two-factor/verify-totp", "/two-factor/verify-backup-code"]);
