import { z } from "zod";
import type { CliLogin } from "../auth/cli-login.ts";
import { consumeThrottle } from "../auth/throttle.ts";
import type { Db } from "../db/client.ts";
import { UserError } from "../errors.ts";

/** Spec §7: what the sign-in page posts when the person approves (or denies) the CLI. */
const cliAuthBody = z.object({
  cliToken: z.string().trim().min(1).max(64),
  email: z.string().trim().min(1).max(254),
  idToken: z.string().min(1).max(2048),
  approve: z.boolean().default(true),
});

/** Approvals per address in 15 minutes: plenty for a person, too few to guess codes. */
const attempts = { windowSeconds: 15 * 60, max: 30 };

/**
 * POST /api/cli-auth: `{ cliToken, email, idToken }` → `{ success, error }` (spec §7). The caller
 * has already checked that the request comes from this site; each `error` is shown verbatim.
 */
export async function handleCliAuth(
  deps: { db: Db; cliLogin: CliLogin; now: () => Date },
  body: unknown,
  clientAddress: string,
): Promise<{ status: number; body: { success: boolean; error?: string } }> {
  const parsed = cliAuthBody.safeParse(body);
  if (!parsed.success) return { status: 400, body: { success: false, error: "Send the code, your e-mail address and the page's token as JSON." } };
  const limit = await consumeThrottle(deps.db, `cli-auth:${clientAddress}`, attempts);
  if (!limit.allowed) {
    return { status: 429, body: { success: false, error: `Too many attempts. Try again in ${Math.ceil(limit.retryAfterSeconds / 60)} minutes.` } };
  }
  try {
    await deps.cliLogin.decide(parsed.data, deps.now());
    return { status: 200, body: { success: true } };
  } catch (error) {
    if (error instanceof UserError) return { status: error.status, body: { success: false, error: error.message } };
    throw error;
  }
}
