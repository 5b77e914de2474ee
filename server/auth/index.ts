import { betterAuth, type BetterAuthOptions } from "better-auth";
import { sql } from "drizzle-orm";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createAuthMiddleware, getSessionFromCtx, isAPIError } from "better-auth/api";
import { genericOAuth } from "better-auth/plugins/generic-oauth";
import { passwordLength } from "../../common/limits.ts";
import type { Catalog } from "../catalog/index.ts";
import type { GoogleSettings } from "../config.ts";
import type { FieldCipher } from "../crypto/field-encryption.ts";
import type { Db } from "../db/client.ts";
import * as schema from "../db/schema.ts";
import type { Logger } from "../logger.ts";
import type { MailMessage } from "../mail/outbox.ts";
import { passwordChangedMail, passwordResetMail, verificationMail, type passwordChangeWays } from "../mail/templates.ts";
import type { FileStorage } from "../storage/index.ts";
import { eraseAccountData } from "../users/delete-account.ts";
import { parseAccountUpdate, photoOnlyByUpload, profileName } from "../users/profile.ts";
import { createUserDocument, recordSignIn, updateUserDocument } from "../users/user-document.ts";
import type { GoogleStandIn } from "./google-stand-in.ts";
import { confirmSecondFactor, rolesOf } from "../staff/index.ts";
import { authLogging, authOptions, clientIpHeader, cliTokenPrefix, requestUserPlugin, secondFactorEndpoints, withLoggedFailures } from "./options.ts";
import { cliAuthMessages, devicePollRefusal, recordCliLoginRequest } from "./cli-login.ts";
import { accountLimits, clearFailedSignIns, maxSessionsPerPerson, signInKey } from "./account-limits.ts";
import { deviceOf, knownDevice, knownDeviceCookie, knownDeviceMaxAgeSeconds, knownDeviceValue, newDeviceId } from "./known-device.ts";
import { isNetworkLimited, networkLimits, networkRefusal } from "./network-limits.ts";
import { proofOfWork } from "./proof-of-work.ts";
import { consumeThrottle } from "./throttle.ts";
import { proofHeader } from "../../common/proof-of-work.ts";

export { clientIpHeader };
export { accessRedirect, emailVerifiedPath, safeRedirectTarget, verifyEmailPath, type Viewer } from "./access.ts";
export { authErrorMessage, callAuth, postToAuth } from "./forms.ts";
export { consumeThrottle } from "./throttle.ts";
export { wellFormedUserCode } from "./cli-login.ts";

export { maxSessionsPerPerson, signInLockedUntil, unlockSignIn } from "./account-limits.ts";

/** Why a staff member's two-factor sign-in cannot be turned off or replaced from a session. */
export const staffTwoFactorLocked = "Two-factor sign-in of a staff member is reset only by an operator at the server (npm run staff -- reset-two-factor).";

/** Signing in again on a browser replaces the sessions it had (a closed browser that forgot its cookie): one row a device. */
async function replaceDeviceSessions(db: Db, userId: string, deviceId: string, newSessionId: string): Promise<void> {
  await db.execute(sql`delete from ${schema.session}
    where ${schema.session.userId} = ${userId} and ${schema.session.deviceId} = ${deviceId} and ${schema.session.id} <> ${newSessionId}`);
}

/** Signs out the person's least recently used devices beyond the limit, never the one just signed in. */
async function keepNewestSessions(db: Db, userId: string, newSessionId: string): Promise<void> {
  await db.execute(sql`delete from ${schema.session}
    where ${schema.session.userId} = ${userId} and ${schema.session.id} <> ${newSessionId}
      and ${schema.session.id} not in (
        select ${schema.session.id} from ${schema.session}
        where ${schema.session.userId} = ${userId} and ${schema.session.id} <> ${newSessionId}
        order by ${schema.session.updatedAt} desc, ${schema.session.createdAt} desc
        limit ${maxSessionsPerPerson - 1})`);
}

/**
 * Per-address limits on Better Auth's endpoints, in fixed windows of a quarter of an hour: those of
 * the forms anyone can send are ours (networkLimits, answered with a proof-of-work challenge past them);
 * the rest are Better Auth's rules, counted in our windows.
 */
export const addressLimits = {
  ...networkLimits,
  // Asked for by someone signed in already, whom the per-account limit also holds.
  "/send-verification-email": { window: 15 * 60, max: 30 },
  "/sign-in/social": { window: 15 * 60, max: 150 },
  "/sign-in/oauth2": { window: 15 * 60, max: 150 },
} as const;

export interface AuthDeps {
  db: Db;
  publicUrl: string;
  trustedOrigins: string[];
  secret: string;
  catalog: () => Catalog;
  cipher: FieldCipher;
  logger: Logger;
  /** Where profile photos are kept, so deleting an account deletes its photo. */
  storage: FileStorage;
  sendMail: (message: MailMessage) => Promise<void>;
  /** Google's OpenID Connect client, when configured; with `standIn`, the development stand-in this server runs. */
  google: (Pick<GoogleSettings, "clientId" | "clientSecret" | "issuer"> & { standIn?: GoogleStandIn | undefined }) | undefined;
  /** How passwords are hashed and checked: Better Auth's own scrypt unless given (tests give the same scrypt, remembered). */
  passwordHashing?: PasswordHashing | undefined;
}

/** Better Auth's `emailAndPassword.password`: hashes a new password, and checks one against a stored hash. */
export type PasswordHashing = NonNullable<NonNullable<BetterAuthOptions["emailAndPassword"]>["password"]>;

/**
 * Google as an OpenID Connect provider found through discovery, so tests can stand in for it. The
 * development stand-in runs in this process: the browser visits its chooser, and the code is
 * exchanged by a call rather than over HTTP, so nothing is fetched before the server listens.
 */
function googlePlugin(google: NonNullable<AuthDeps["google"]>) {
  const { standIn } = google;
  const common = {
    providerId: "google",
    clientId: google.clientId,
    clientSecret: google.clientSecret,
    scopes: ["openid", "email", "profile"],
    // Spec §1: the account is chosen anew at every sign-in.
    prompt: "select_account" as const,
    pkce: true,
  };
  return genericOAuth({
    config: [
      standIn
        ? {
            ...common,
            authorizationUrl: `${standIn.issuer}/authorize`,
            getToken: async (grant) => {
              const tokens = await standIn.exchange(grant);
              if (!tokens) throw new Error("The Google stand-in refused the authorization code.");
              return tokens;
            },
            getUserInfo: async (tokens) => {
              const account = standIn.userInfo(tokens.accessToken);
              return account && { id: account.sub, sub: account.sub, email: account.email, name: account.name, image: account.picture, emailVerified: true };
            },
          }
        : { ...common, discoveryUrl: `${google.issuer.replace(/\/$/, "")}/.well-known/openid-configuration` },
    ],
  });
}

export function createAuth(deps: AuthDeps) {
  const { db, cipher, logger } = deps;
  const proofs = proofOfWork(deps.secret);
  const deviceCookieOptions = { httpOnly: true, sameSite: "lax", path: "/", secure: deps.publicUrl.startsWith("https://"), maxAge: knownDeviceMaxAgeSeconds } as const;
  const tellPasswordChanged = (to: { email: string; name: string }, way: keyof typeof passwordChangeWays) =>
    deps.sendMail(passwordChangedMail(deps.catalog().site, to, { changedAt: new Date(), way, forgotPasswordUrl: `${deps.publicUrl}/forgot-password` }));
  const auth = betterAuth({
    ...authOptions,
    ...authLogging(logger),
    baseURL: deps.publicUrl,
    secret: deps.secret,
    trustedOrigins: deps.trustedOrigins,
    plugins: [...authOptions.plugins, requestUserPlugin(), ...(deps.google ? [googlePlugin(deps.google)] : [])],
    database: drizzleAdapter(db, { provider: "pg", schema }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: passwordLength.min,
      maxPasswordLength: passwordLength.max,
      autoSignIn: true,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: 60 * 60,
      sendResetPassword: ({ user, url }) => deps.sendMail(passwordResetMail(deps.catalog().site, user, url)),
      onPasswordReset: ({ user }) => tellPasswordChanged(user, "reset"),
      ...(deps.passwordHashing && { password: deps.passwordHashing }),
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      expiresIn: 24 * 60 * 60,
      sendVerificationEmail: ({ user, url }) => deps.sendMail(verificationMail(deps.catalog().site, user, url)),
    },
    user: {
      deleteUser: {
        enabled: true,
        // The one way an account is deleted: the settings page calls this endpoint too, after its own confirmation.
        beforeDelete: async (account) => {
          await eraseAccountData({ db, cipher, logger, storage: deps.storage }, account);
        },
      },
    },
    session: {
      ...authOptions.session,
      expiresIn: 30 * 24 * 60 * 60,
      updateAge: 24 * 60 * 60,
    },
    rateLimit: {
      enabled: true,
      storage: "database",
      window: 60,
      max: 120,
      customRules: {
        ...addressLimits,
        // Counted in the hook below instead, where a solved challenge can let a request past them.
        ...Object.fromEntries(Object.keys(networkLimits).map((path) => [path, false])),
        // Limited per code instead (devicePollRefusal): everyone behind an address polls at once.
        "/device/token": false,
      },
      // Better Auth's own counter restarts its window only after a quiet one, so a busy address (a
      // classroom, an office) would be refused all day; ours are fixed windows that start again on time.
      customStorage: {
        consume: async (key, rule) => {
          const hit = await consumeThrottle(db, `auth:${key}`, { windowSeconds: rule.window, max: rule.max });
          return { allowed: hit.allowed, retryAfter: hit.allowed ? null : Math.max(1, hit.retryAfterSeconds) };
        },
      },
    },
    advanced: {
      ipAddress: { ipAddressHeaders: [clientIpHeader] },
      useSecureCookies: deps.publicUrl.startsWith("https://"),
      // Every signed-in request looks its session up: one query joining the user, not two.
      database: { joins: true },
    },
    // No tracer is installed, and a no-op span around every call still cost a share of each request.
    experimental: { instrumentation: { enabled: false } },
    databaseHooks: {
      user: {
        create: {
          after: async (user) => {
            await createUserDocument(db, cipher, user);
          },
        },
      },
      session: {
        create: {
          // The CLI's sessions are told apart by their token: only they are bearer credentials for the API.
          before: async (session, context) => {
            if (context?.path === "/device/token") return { data: { ...session, token: `${cliTokenPrefix}${session.token}` } };
            if (context?.path !== "/sign-in/email" && context?.path !== "/sign-up/email") return;
            const known = deviceOf(await context.getSignedCookie(knownDeviceCookie, context.context.secret));
            return { data: { ...session, deviceId: known ?? newDeviceId() } };
          },
          after: async (session) => {
            const { deviceId } = session as typeof session & { deviceId?: string | null };
            if (deviceId) await replaceDeviceSessions(db, session.userId, deviceId, session.id);
            await keepNewestSessions(db, session.userId, session.id);
            const user = await db.query.user.findFirst({ where: (u, { eq }) => eq(u.id, session.userId) });
            if (user) await recordSignIn(db, cipher, logger, user);
          },
        },
      },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        const address = ctx.headers?.get(clientIpHeader);
        if (isNetworkLimited(ctx.path) && address) {
          const refusal = await networkRefusal({ db, proofOfWork: proofs }, { path: ctx.path, address, proof: ctx.headers?.get(proofHeader) }, new Date());
          if (refusal) {
            const { message, challenge, retryAfterSeconds } = refusal;
            throw new APIError("TOO_MANY_REQUESTS", { message, code: "NETWORK_LIMIT", challenge }, { "Retry-After": String(retryAfterSeconds) });
          }
        }
        if (ctx.path === "/device/token") {
          const refusal = await devicePollRefusal(db, (ctx.body as { device_code?: unknown } | undefined)?.device_code);
          if (refusal) throw new APIError("BAD_REQUEST", refusal);
          return;
        }
        if (ctx.path === "/device/approve") {
          // The plugin's own approval, like ours (/api/cli-auth), is for verified accounts only.
          const current = await getSessionFromCtx(ctx);
          if (current && !current.user.emailVerified) throw new APIError("FORBIDDEN", { error: "access_denied", error_description: cliAuthMessages.unverified });
          return;
        }
        if (ctx.path === "/two-factor/enable" || ctx.path === "/two-factor/disable") {
          // A stolen session and password must not swap a staff member's authenticator for another:
          // once theirs is on, only an operator at the server resets it (npm run staff -- reset-two-factor).
          const current = await getSessionFromCtx(ctx);
          const enabled = (current?.user as { twoFactorEnabled?: boolean | null } | undefined)?.twoFactorEnabled === true;
          if (current && enabled && (await rolesOf(db, current.user.id)).length > 0) {
            throw new APIError("FORBIDDEN", { message: staffTwoFactorLocked, code: "STAFF_TWO_FACTOR_LOCKED" });
          }
          return;
        }
        if (ctx.path === "/update-user") {
          // The form's own rules, for every caller: a bad field is refused and nothing changes.
          const update = parseAccountUpdate(ctx.body);
          if (!update.ok) throw new APIError("BAD_REQUEST", { message: update.message, code: "INVALID_PROFILE" });
          return { context: { body: { name: update.name } } };
        }
        if (ctx.path === "/sign-up/email") {
          // As on update-user: a photo is only ever one the server stored for this person.
          if (Object.hasOwn(ctx.body ?? {}, "image")) throw new APIError("BAD_REQUEST", { message: photoOnlyByUpload, code: "INVALID_PROFILE" });
          // The same rules for a name as the profile's, whichever way the account is made.
          const name = profileName.safeParse((ctx.body as { name?: unknown } | undefined)?.name);
          if (!name.success) throw new APIError("BAD_REQUEST", { message: name.error.issues[0]?.message ?? "Tell us your name.", code: "INVALID_PROFILE" });
          return { context: { body: { ...(ctx.body as object), name: name.data } } };
        }
        const limit = accountLimits[ctx.path as keyof typeof accountLimits];
        const email = (ctx.body as { email?: unknown } | undefined)?.email;
        if (!limit || typeof email !== "string") return;
        // A sign-in is counted before the password is checked, so attempts sent at once cannot all slip under the limit; one that succeeds clears the count (after).
        const key = ctx.path === "/sign-in/email" ? signInKey(email, knownDevice(await ctx.getSignedCookie(knownDeviceCookie, ctx.context.secret), email)) : `${ctx.path}:${email.trim().toLowerCase()}`;
        const { allowed, retryAfterSeconds } = await consumeThrottle(db, key, limit);
        if (!allowed) {
          throw new APIError("TOO_MANY_REQUESTS", { message: "Too many requests", code: "RATE_LIMITED" }, { "Retry-After": String(retryAfterSeconds) });
        }
      }),
      after: createAuthMiddleware(async (ctx) => {
        if ((ctx.path === "/sign-in/email" || ctx.path === "/sign-up/email") && !isAPIError(ctx.context.returned)) {
          const email = (ctx.body as { email: string }).email;
          const cookie = await ctx.getSignedCookie(knownDeviceCookie, ctx.context.secret);
          if (ctx.path === "/sign-in/email") await clearFailedSignIns(db, email, knownDevice(cookie, email));
          const device = (ctx.context.newSession?.session as { deviceId?: string | null } | undefined)?.deviceId ?? deviceOf(cookie);
          if (device) await ctx.setSignedCookie(knownDeviceCookie, knownDeviceValue(email, device), ctx.context.secret, deviceCookieOptions);
          return;
        }
        if (ctx.path === "/device/code") {
          const userCode = (ctx.context.returned as { user_code?: unknown } | undefined)?.user_code;
          if (typeof userCode === "string") await recordCliLoginRequest(db, { userCode, userAgent: ctx.headers?.get("user-agent") ?? null, ipAddress: ctx.headers?.get(clientIpHeader) ?? null });
          return;
        }
        if (secondFactorEndpoints.has(ctx.path)) {
          const confirmed = ctx.context.newSession?.session.id ?? (await getSessionFromCtx(ctx))?.session.id;
          if (confirmed && !isAPIError(ctx.context.returned)) await confirmSecondFactor(db, confirmed);
          return;
        }
        if (ctx.path === "/change-password") {
          const changed = ctx.context.session;
          if (changed && !isAPIError(ctx.context.returned)) await tellPasswordChanged(changed.user, "settings");
          return;
        }
        // The certificate prints the user document's name, so a new name reaches it however it was changed.
        const session = ctx.context.session;
        if (ctx.path !== "/update-user" || !session || isAPIError(ctx.context.returned)) return;
        await updateUserDocument(db, cipher, session.user.id, { name: (ctx.body as { name: string }).name });
      }),
    },
  });
  return withLoggedFailures(auth, logger);
}

export type Auth = ReturnType<typeof createAuth>;
