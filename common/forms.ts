import { z } from "zod";
import type { ProofChallenge } from "./proof-of-work.ts";

/**
 * What a page's action answers when it does not redirect, for every form: which form (`intent`),
 * whether it worked, a sentence for the whole form, a message per field, and what was sent, to fill
 * the form again (never a password or a token).
 */
export interface FormReply {
  intent: string | null;
  ok: boolean;
  message: string | null;
  fieldErrors: Record<string, string>;
  values: Record<string, string>;
  /** A proof-of-work challenge: solved and sent back with the form, it lets the form past a busy network's limit. */
  challenge?: ProofChallenge | undefined;
}

/** A form as it arrived: which form it was and what it held, for the reply. */
export interface SentForm {
  intent: string | null;
  values: Record<string, string>;
}

export type ParsedForm<T> = ({ ok: true; value: T } & SentForm) | { ok: false; reply: FormReply };

/** Fields never sent back to the page: a password or a token must not sit in its HTML. */
const secretField = /password|token/i;

/** Which form this was and what it held, without reading it against a schema (a client action's own reply). */
export function sentForm(form: FormData): SentForm {
  const intent = form.get("intent");
  const values: Record<string, string> = {};
  for (const [name, value] of form) {
    if (name !== "intent" && typeof value === "string" && !secretField.test(name)) values[name] ??= value;
  }
  return { intent: typeof intent === "string" ? intent : null, values };
}

/** A form's fields as zod reads them: a name sent more than once (checkboxes) becomes a list. */
function formObject(form: FormData): Record<string, FormDataEntryValue | FormDataEntryValue[]> {
  const object: Record<string, FormDataEntryValue | FormDataEntryValue[]> = {};
  for (const name of new Set(form.keys())) {
    const all = form.getAll(name);
    object[name] = all.length === 1 ? (all[0] as FormDataEntryValue) : all;
  }
  return object;
}

function intentProblem(intent: string | null): string {
  return intent
    ? `This page has no action called "${intent}". Reload the page and try again.`
    : "The form did not say what to do. Reload the page and try again.";
}

// A field the page always sends is missing only when the form was not ours: say so rather than zod's words.
const missingField: z.core.$ZodErrorMap = (issue) =>
  issue.code === "invalid_type" && issue.input === undefined ? "This form is missing a field. Reload the page and try again." : undefined;

/**
 * Reads a form with its schema (one per intent, as `z.discriminatedUnion("intent", …)` where a page
 * has several). Invalid input becomes a reply with the first message for each field; a missing or
 * unknown intent, a reply saying so. Invalid input is answered with status 400.
 */
export function parseForm<S extends z.ZodType>(schema: S, form: FormData): ParsedForm<z.output<S>> {
  const sent = sentForm(form);
  const parsed = schema.safeParse(formObject(form), { error: missingField });
  if (parsed.success) return { ok: true, value: parsed.data, ...sent };
  const fieldErrors: Record<string, string> = {};
  let message: string | null = null;
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (field === "intent") message = intentProblem(sent.intent);
    else if (typeof field === "string") fieldErrors[field] ??= issue.message;
    else message ??= issue.message;
  }
  return { ok: false, reply: { ...sent, ok: false, message, fieldErrors } };
}

/** The reply to a form that did what it asked. */
export function succeeded(sent: SentForm, message: string | null = null): FormReply {
  return { intent: sent.intent, ok: true, message, fieldErrors: {}, values: sent.values };
}

/** The reply to a form that was refused: a sentence for the form, and any messages per field. */
export function refused(sent: SentForm, message: string | null, fieldErrors: Record<string, string> = {}): FormReply {
  return { intent: sent.intent, ok: false, message, fieldErrors, values: sent.values };
}

/** A checkbox group's values, however many were ticked (none sends nothing, one sends a single value). */
export function checked<T extends z.ZodType>(item: T) {
  return z.preprocess((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]), z.array(item));
}

/** A checkbox or a hidden confirmation: true when the form sent `on`, false when it sent nothing or anything else. */
export function flag(on: string) {
  return z
    .string()
    .optional()
    .transform((value) => value === on);
}

/** The reply for this intent, or undefined when the last reply was another form's (pages with several forms). */
export function replyFor(reply: FormReply | undefined, ...intents: string[]): FormReply | undefined {
  return reply && intents.includes(reply.intent ?? "") ? reply : undefined;
}

/** What a field shows after a refused form: its message, and what was typed in it. Spread onto a text field. */
export function fieldState(reply: FormReply | undefined, name: string): { error?: string; defaultValue?: string } {
  if (!reply || reply.ok) return {};
  return { error: reply.fieldErrors[name], defaultValue: reply.values[name] };
}

/** The one sentence for a form that shows a single alert: the form's message, or else the first field's. */
export function replyProblem(reply: FormReply | undefined): string | null {
  if (!reply || reply.ok) return null;
  return reply.message ?? Object.values(reply.fieldErrors)[0] ?? null;
}
