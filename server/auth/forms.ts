import { APIError } from "better-auth/api";
import { proofHeader, type ProofChallenge } from "../../common/proof-of-work.ts";
import { accountExistsMessage } from "../../common/sign-in.ts";
import { clientIpHeader } from "./options.ts";
import { proofChallenge } from "./proof-of-work.ts";

/** What forms need of the Better Auth instance (server/auth/index.ts makes it). */
type Auth = { handler: (request: Request) => Promise<Response> };

/** The outcome of calling a Better Auth endpoint from a route action. */
export type AuthResult =
  | { ok: true; headers: Headers; body: unknown }
  | { ok: false; status: number; code: string; message: string; challenge?: ProofChallenge | undefined };

/** A refusal's body: Better Auth's code and message, and a challenge when solving one lets the request through. */
function failure(status: number, body: unknown, fallback: string): Extract<AuthResult, { ok: false }> {
  const { code, message, challenge } = (body ?? {}) as { code?: string; message?: string; challenge?: unknown };
  const parsed = proofChallenge.safeParse(challenge);
  return { ok: false, status, code: code ?? "", message: message ?? fallback, ...(parsed.success && { challenge: parsed.data }) };
}

/**
 * Runs a Better Auth call made with `asResponse: true`, keeping its Set-Cookie headers for our own
 * response. Errors thrown by hooks (our per-account limits) arrive as APIError and become results too.
 */
export async function callAuth(call: Promise<Response>): Promise<AuthResult> {
  let response: Response;
  try {
    response = await call;
  } catch (error) {
    if (!(error instanceof APIError)) throw error;
    return failure(error.statusCode, error.body, error.message);
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) return failure(response.status, body, response.statusText);
  const headers = new Headers();
  for (const cookie of response.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  return { ok: true, headers, body };
}

/** What a form passes on from the browser's request: who it is, and where the form was sent from. */
const forwardedHeaders = ["cookie", "user-agent", "accept-language", clientIpHeader];

/**
 * Posts a form's values to a Better Auth endpoint through its HTTP handler, as the JSON API is
 * reached, so forms and API share one set of per-address rate limits and origin checks (calling
 * `auth.api.*` in process skips both). `request` is the form's request as the HTTP layer handed
 * it on: on our own origin, with the client's address.
 */
export function postToAuth(auth: Auth, request: Request, endpoint: `/${string}`, body: object, proof?: string | undefined): Promise<AuthResult> {
  const url = new URL(request.url);
  const headers = new Headers({ "content-type": "application/json", origin: url.origin });
  for (const name of forwardedHeaders) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  // A solved challenge, sent with the form when the address was past its limit.
  if (proof) headers.set(proofHeader, proof);
  const call = auth.handler(new Request(new URL(`/api/auth${endpoint}`, url), { method: "POST", headers, body: JSON.stringify(body) }));
  return callAuth(call);
}

export type AuthAction = "sign-in" | "sign-up" | "google" | "reset-request" | "reset" | "verification-resend";

/** Spec §8 texts where the spec fixes them; plain, specific words elsewhere. */
export function authErrorMessage(action: AuthAction, error: { status: number; code: string; message: string }): string {
  if (error.status === 429) {
    // The per-address limits word their own refusal, with the real wait.
    if (error.code === "NETWORK_LIMIT") return error.message;
    switch (action) {
      case "sign-in":
        return "Too many failed attempts. Please wait a few minutes or reset your password.";
      case "reset-request":
        return "Too many password reset requests. Please wait before trying again.";
      case "verification-resend":
        return "You have asked for several e-mails in a short time. Please wait a few minutes before asking again.";
      default:
        return "Too many requests. Please wait a few minutes before trying again.";
    }
  }
  switch (error.code) {
    case "INVALID_EMAIL_OR_PASSWORD":
      return "That e-mail and password don't match an account. Check both and try again, or reset your password.";
    case "USER_ALREADY_EXISTS":
    case "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL":
      return accountExistsMessage;
    case "PASSWORD_TOO_SHORT":
      return "Your password needs at least 8 characters.";
    case "PASSWORD_TOO_LONG":
      return "Your password can have at most 128 characters.";
    case "INVALID_EMAIL":
      return "Enter a valid e-mail address, like name@example.com.";
    case "INVALID_TOKEN":
      return "This link has expired or was already used. Ask for a new one.";
    case "INVALID_PASSWORD":
      return "That is not your current password.";
    default:
      return error.message;
  }
}
