import { z } from "zod";
import type { CliLogin, Decider } from "../auth/cli-login.ts";

/** Spec §7: what the sign-in page posts when the person approves (or denies) the CLI. */
const cliAuthBody = z.object({
  cliToken: z.string().trim().min(1).max(64),
  email: z.string().trim().min(1).max(254),
  idToken: z.string().min(1).max(2048),
  approve: z.boolean().default(true),
});

export interface CliAuthAnswer {
  status: number;
  /** `next`: the page that says what was decided, for this browser to open. */
  body: { success: boolean; error?: string; next?: string };
  retryAfterSeconds?: number;
}

/**
 * POST /api/cli-auth: `{ cliToken, email, idToken }` → `{ success, error }` (spec §7), and on
 * success `next`, the page that says what was decided. The caller has already checked that the
 * request comes from this site and found the session its cookie names; each `error` is shown
 * verbatim. Decisions are counted per person and per address (CliLogin.decide).
 */
export async function handleCliAuth(deps: { cliLogin: CliLogin; now: () => Date }, body: unknown, from: Decider): Promise<CliAuthAnswer> {
  const parsed = cliAuthBody.safeParse(body);
  if (!parsed.success) return { status: 400, body: { success: false, error: "Send the code, your e-mail address and the page's token as JSON." } };
  const decided = await deps.cliLogin.decide(parsed.data, deps.now(), from);
  if (decided.ok) return { status: 200, body: { success: true, next: decided.next } };
  return { status: decided.status, body: { success: false, error: decided.message }, ...(decided.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: decided.retryAfterSeconds }) };
}
