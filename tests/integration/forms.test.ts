// One way to read a form: a schema per intent, one parse helper, one reply shape; and no route
// parsing its form by hand.
import { randomBytes } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { checked, fieldState, parseForm, replyProblem } from "../../common/forms.ts";
import { noteContent } from "../../common/notes-forms.ts";
import { clientIpHeader } from "../../server/auth/index.ts";
import { user } from "../../server/db/schema.ts";
import { projectRoot, startTestApp, type TestApp } from "./helpers.ts";

const formOf = (fields: [string, string | File][]) => {
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  return form;
};

const accountForm = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("signup"),
    name: z.string().trim().min(1, "Tell us your name."),
    email: z.string().email("Enter a valid e-mail address."),
    password: z.string().min(8, "Your password needs at least 8 characters.").max(128, "At most 128."),
  }),
  z.object({ intent: z.literal("revoke-key"), keyId: z.string().min(1, "Choose a key.") }),
  z.object({ intent: z.literal("scopes"), scopes: checked(z.enum(["read", "write"])) }),
]);

const scopes = (...ticked: string[]) => parseForm(accountForm, formOf([["intent", "scopes"], ...ticked.map((s): [string, string] => ["scopes", s])]));
const note = (title: string, body: string) => parseForm(noteContent, formOf([["title", title], ["body", body]]));

describe("parseForm", () => {
  it("reads each intent with its own schema", () => {
    const signup = parseForm(accountForm, formOf([["intent", "signup"], ["name", " Asha "], ["email", "asha@example.com"], ["password", "a long password"]]));
    expect(signup).toMatchObject({ ok: true, intent: "signup", value: { intent: "signup", name: "Asha", email: "asha@example.com", password: "a long password" } });
    const revoke = parseForm(accountForm, formOf([["intent", "revoke-key"], ["keyId", "k1"]]));
    expect(revoke).toMatchObject({ ok: true, value: { intent: "revoke-key", keyId: "k1" } });
  });

  it("answers a missing or unknown intent with a sentence saying so, not a crash", () => {
    const unknown = parseForm(accountForm, formOf([["intent", "launch-rockets"], ["keyId", "k1"]]));
    expect(unknown).toEqual({
      ok: false,
      reply: {
        intent: "launch-rockets",
        ok: false,
        message: 'This page has no action called "launch-rockets". Reload the page and try again.',
        fieldErrors: {},
        values: { keyId: "k1" },
      },
    });
    const missing = parseForm(accountForm, formOf([["keyId", "k1"]]));
    expect(missing).toMatchObject({ ok: false, reply: { intent: null, message: "The form did not say what to do. Reload the page and try again." } });
  });

  it("gives the first message for each field, and no form-level sentence for field errors", () => {
    const parsed = parseForm(accountForm, formOf([["intent", "signup"], ["name", "  "], ["email", "not an address"], ["password", "short"]]));
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.reply.fieldErrors).toEqual({ name: "Tell us your name.", email: "Enter a valid e-mail address.", password: "Your password needs at least 8 characters." });
    expect(parsed.reply.message).toBeNull();
    expect(replyProblem(parsed.reply)).toBe("Tell us your name.");
  });

  it("sends back what was typed, to fill the form again, but never a password or a token", () => {
    const parsed = parseForm(
      accountForm,
      formOf([["intent", "signup"], ["name", "Asha"], ["email", "bad"], ["password", "hunter2"], ["currentPassword", "old one"], ["idToken", "secret"]]),
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.reply.values).toEqual({ name: "Asha", email: "bad" });
    expect(JSON.stringify(parsed.reply)).not.toMatch(/hunter2|old one|secret/);
    expect(fieldState(parsed.reply, "email")).toEqual({ error: "Enter a valid e-mail address.", defaultValue: "bad" });
    expect(fieldState(parsed.reply, "password")).toEqual({ error: "Your password needs at least 8 characters.", defaultValue: undefined });
  });

  it("reads a checkbox group as a list, whether none, one or several were ticked", () => {
    expect(scopes()).toMatchObject({ ok: true, value: { scopes: [] } });
    expect(scopes("read")).toMatchObject({ ok: true, value: { scopes: ["read"] } });
    expect(scopes("read", "write")).toMatchObject({ ok: true, value: { scopes: ["read", "write"] } });
  });

  it("says a field the page always sends is missing in words, not zod's", () => {
    const parsed = parseForm(accountForm, formOf([["intent", "revoke-key"]]));
    expect(parsed).toMatchObject({ ok: false, reply: { fieldErrors: { keyId: "This form is missing a field. Reload the page and try again." } } });
  });

  it("checks a note's title and text as stored: spaces collapsed, CRLF counted as one character", () => {
    expect(note(`  ${"t".repeat(200)}   `, "a\r\nb")).toMatchObject({ ok: true, value: { title: "t".repeat(200), body: "a\nb" } });
    expect(note("t".repeat(201), "")).toMatchObject({ ok: false, reply: { fieldErrors: { title: "Keep the title to 200 characters or fewer (it has 201)." } } });
    expect(note("", "\r\n".repeat(20_000))).toMatchObject({ ok: true });
    expect(note("", "x".repeat(20_001))).toMatchObject({
      ok: false,
      reply: { fieldErrors: { body: "Keep a note to 20,000 characters or fewer (it has 20,001)." } },
    });
  });
});

describe("route modules", () => {
  it("read every form through readForm: no hand parsing of FormData, no hand-compared intents", async () => {
    const dir = path.join(projectRoot, "app/routes");
    const handParsing = [
      /String\(\s*form\.get\(/,
      /(?<![.\w])form(Data)?\.get(All)?\(/,
      /\(await request(\.clone\(\))?\.formData\(\)\)\.get\(/,
      /Object\.fromEntries\(\s*await request\.formData\(\)/,
      /(?<![.\w])intent\s*[!=]==/,
      /request\.formData\(\)/,
    ];
    const offenders: string[] = [];
    for (const file of await readdir(dir, { recursive: true })) {
      if (!/\.tsx?$/.test(file) || file.endsWith("forms.server.ts")) continue;
      const source = await readFile(path.join(dir, file), "utf8");
      for (const pattern of handParsing) if (pattern.test(source)) offenders.push(`${file}: ${pattern}`);
    }
    expect(offenders).toEqual([]);
  });
});

describe("an action's reply, over HTTP", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  const origin = "http://academy.test";
  const send = (pathname: string, fields: Record<string, string>, cookie?: string) =>
    t.app.fetch(
      new Request(`${origin}${pathname}`, {
        method: "POST",
        headers: { origin, "content-type": "application/x-www-form-urlencoded", [clientIpHeader]: `10.12.${randomBytes(2).join(".")}`, ...(cookie ? { cookie } : {}) },
        body: new URLSearchParams(fields).toString(),
        redirect: "manual",
      }),
    );

  async function signedIn(): Promise<string> {
    const email = `forms-${randomBytes(4).toString("hex")}@example.com`;
    const response = await t.app.fetch(
      new Request(`${origin}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { origin, "content-type": "application/json", [clientIpHeader]: `10.13.${randomBytes(2).join(".")}` },
        body: JSON.stringify({ name: "Forms Tester", email, password: "velvet quarry lantern orbit" }),
      }),
    );
    expect(response.status).toBe(200);
    await t.database.db.update(user).set({ emailVerified: true }).where(eq(user.email, email));
    return response.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  }

  it("answers an unknown intent with 400 and a sentence on the page", async () => {
    const cookie = await signedIn();
    const response = await send("/notes", { intent: "launch-rockets" }, cookie);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("This page has no action called &quot;launch-rockets&quot;. Reload the page and try again.");
  });

  it("answers a note title over the limit with 400 and the limit's own words", async () => {
    const cookie = await signedIn();
    const created = await send("/notes", { intent: "create" }, cookie);
    const noteId = new URL(created.headers.get("location") ?? "", origin).searchParams.get("note") ?? "";
    const response = await send("/notes", { intent: "save", noteId, title: "t".repeat(201), body: "" }, cookie);
    expect(response.status).toBe(400);
  });
});
