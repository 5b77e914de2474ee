import { z } from "zod";
import { authErrorMessage, postToAuth, type Auth } from "../../../server/auth/index.ts";
import { readForm, refuse } from "../forms.server.ts";

/** The second-factor form, as a code from the app or a recovery code (app/components/second-factor-form.tsx). */
export const secondFactorForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("totp"), code: z.string().trim().regex(/^\d{6}$/, "Enter the 6-digit code your app shows now."), redirectTo: z.string().optional() }),
  z.object({ intent: z.literal("recovery"), code: z.string().trim().min(1, "Enter one of your recovery codes."), redirectTo: z.string().optional() }),
]);

/**
 * Checks a second factor through Better Auth's endpoints, as its JSON API is reached: during a
 * sign-in (the two-factor cookie names the person) or on a signed-in session. On success, the
 * headers carry the session cookie to pass on; otherwise the form's reply.
 */
export async function checkSecondFactor(auth: Auth, request: Request) {
  const form = await readForm(request, secondFactorForm);
  if (!form.ok) return { ok: false as const, reply: form.reply };
  const { code, redirectTo } = form.value;
  const byApp = form.value.intent === "totp";
  const result = await postToAuth(auth, request, byApp ? "/two-factor/verify-totp" : "/two-factor/verify-backup-code", { code });
  if (result.ok) return { ok: true as const, headers: result.headers, redirectTo: redirectTo ?? null };
  if (result.code === "INVALID_TWO_FACTOR_COOKIE") return { ok: false as const, reply: refuse(form, { status: 400, message: "This sign-in took too long. Sign in again with your e-mail and password." }) };
  if (result.status === 429 || result.code === "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE" || result.code === "ACCOUNT_LOCKED") {
    return { ok: false as const, reply: refuse(form, { status: 429, message: authErrorMessage("sign-in", { ...result, status: 429 }) }) };
  }
  const wrong = byApp ? "That is not the code your app shows now. Enter the newest one." : "That recovery code is not one of yours, or it was used already.";
  return { ok: false as const, reply: refuse(form, { status: 400, message: null }, { code: wrong }) };
}
