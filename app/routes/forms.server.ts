import { data } from "react-router";
import type { z } from "zod";
import { parseForm, refused, succeeded, type FormReply, type SentForm } from "../../common/forms.ts";
import { UserError } from "../../server/errors.ts";
import type { ProofChallenge } from "../../common/proof-of-work.ts";

/** An action's answer to a form, with its status: 200 when it worked, 400 for invalid input, a domain error's own otherwise. */
export function reply(answer: FormReply, status = answer.ok ? 200 : 400) {
  return data(answer, { status });
}

/** Reads the request's form with its schema; invalid input comes back as the 400 reply to return. */
export async function readForm<S extends z.ZodType>(request: Request, schema: S) {
  const parsed = parseForm(schema, await request.formData());
  return parsed.ok ? parsed : { ok: false as const, reply: reply(parsed.reply) };
}

/** The reply to a form that did what it asked (200). */
export function succeed(sent: SentForm, message: string | null = null) {
  return reply(succeeded(sent, message));
}

/** The reply to a form refused with a status and a sentence, such as an `attempt`'s failure. */
export function refuse(sent: SentForm, failure: { status: number; message: string | null; challenge?: ProofChallenge | undefined }, fieldErrors: Record<string, string> = {}) {
  return reply({ ...refused(sent, failure.message, fieldErrors), ...(failure.challenge && { challenge: failure.challenge }) }, failure.status);
}

type Explained = { message: string | null; fieldErrors?: Record<string, string> };

/**
 * Runs a form's domain call: a UserError becomes the form's reply with the error's status and
 * message (or what `explain` says of it, such as per-field messages); anything else is a bug and propagates.
 */
export async function attemptFor<T>(sent: SentForm, call: () => Promise<T>, explain?: (error: UserError) => Explained | undefined) {
  try {
    return { ok: true as const, value: await call() };
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    const { message, fieldErrors } = explain?.(error) ?? { message: error.message };
    return { ok: false as const, error, reply: refuse(sent, { status: error.status, message }, fieldErrors) };
  }
}
