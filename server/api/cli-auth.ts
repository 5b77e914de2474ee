import { z } from "zod";
import type { CliLogin } from "../auth/cli-login.ts";

/** Spec §7: what the sign-in page posts when the person approves (or denies) the CLI. */
const cliAuthBody = z.object({
  cliToken: z.string().trim().min(1).max(64),
  email: z.string().trim().min(1).max(254),
  idToken: z.string().min(1).max(2048),
  approve: z.boolean().default(true),
});

export interface CliAuthAnswer {
  status: number;
  body: { success: boolean; error?: string };
  retryAfterSeconds?: number;
}

/**
 * POST /api/cli-auth: `{ cliToken, email, idToken }` → `{ success, error }` (spec §7). The caller
 * has already checked that the request comes from this site; each `error` is shown verbatim.
 * Decisions are counted per person and per address (CliLogin.decide).
 */
export async function handleCliAuth(deps: { cliLogin: CliLogin; now: () => Date }, body: unknown, clientAddress: string): Promise<CliAuthAnswer> {
  const parsed = cliAuthBody.safeParse(body);
  if (!parsed.success) return { status: 400, body: { success: false, error: "Send the code, your e-mail address and the page's token as JSON." } };
  const decided = await deps.cliLogin.decide(parsed.data, deps.now(), { address: clientAddress });
  if (decided.ok) return { status: 200, body: { success: true } };
  return { status: decided.status, body: { success: false, error: decided.message }, ...(decided.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: decided.retryAfterSeconds }) };
}
