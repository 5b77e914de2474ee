// Property-based fuzzing of every form action and JSON endpoint: arbitrary bodies, content types,
// encodings, NUL and lone surrogates, huge and empty values, repeated fields. Whatever arrives, the
// answer is never a 5xx, and a request that is refused (4xx) leaves the learner's data as it was.
// FUZZ_RUNS sets the number of cases (10,000 by default). The seed is fixed so that CI is
// repeatable; explore further with another one, e.g. FUZZ_SEED=$RANDOM npx vitest run tests/integration/fuzz.test.ts
import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import * as fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "../../server/db/schema.ts";
import type { SandboxGateway } from "../../server/payments/sandbox.ts";
import { startTestApp, type TestApp } from "./helpers.ts";

const runs = Number(process.env.FUZZ_RUNS ?? 10_000);
const seed = Number(process.env.FUZZ_SEED ?? 20_261_124);
const origin = "http://academy.test";
const password = "a good long password";

let t: TestApp;
let learner: { cookie: string; email: string; noteId: string; orderId: string; providerOrderId: string; websiteId: string };

function send(path: string, init: RequestInit & { cookie?: string; address?: string } = {}) {
  const headers = new Headers(init.headers);
  headers.set("origin", origin);
  if (init.cookie) headers.set("cookie", init.cookie);
  const remoteAddress = init.address ?? "127.0.0.1";
  return t.app.fetch(new Request(`${origin}${path}`, { ...init, headers, redirect: "manual" }), { incoming: { socket: { remoteAddress } } });
}

const formInit = (fields: Record<string, string>, cookie?: string) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
  cookie,
});

beforeAll(async () => {
  t = await startTestApp();
  const email = `fuzz-${randomBytes(4).toString("hex")}@example.com`;
  const signUp = await send("/api/auth/sign-up/email", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "Fuzz Learner", email, password }),
  });
  const cookie = signUp.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const { user: created } = (await signUp.json()) as { user: { id: string } };
  await t.database.db.update(user).set({ emailVerified: true }).where(eq(user.id, created.id));
  const note = await send("/notes", formInit({ intent: "create" }, cookie));
  const noteId = new URL(note.headers.get("location") ?? "", origin).searchParams.get("note") ?? "";
  const started = await send("/courses/react-fundamentals/confirm", formInit({ intent: "pay", idempotencyKey: randomBytes(12).toString("hex") }, cookie));
  const providerOrderId = /^\/sandbox\/checkout\/(order_\w+)$/.exec(started.headers.get("location") ?? "")?.[1] ?? "";
  const fields = await (t.payments.sandbox as SandboxGateway).pay(providerOrderId, { outcome: "pay", method: "upi" });
  const paid = await send("/api/payments/callback", formInit(fields));
  const orderId = new URL(paid.headers.get("location") ?? "", origin).searchParams.get("order") ?? "";
  const website = await send("/account/services/websites/new", formInit({ planId: "starter-monthly", domain: "fuzz.example.in" }, cookie));
  const websiteId = /^\/account\/services\/websites\/([0-9a-f-]{36})\/renew/.exec(website.headers.get("location") ?? "")?.[1] ?? "";
  expect(noteId && orderId && providerOrderId && websiteId).toBeTruthy();
  learner = { cookie, email, noteId, orderId, providerOrderId, websiteId };
}, 60_000);
afterAll(() => t.close());

/** Everything a refused request must leave alone, as one digest. */
async function dataDigest(): Promise<string> {
  const tables = ["user", "users", "notes", "feedback", "orders", "payments", "refunds", "enrolments", "lesson_progress", "certificates", "course_positions", "websites", "website_periods"];
  const parts = tables.map((name) => sql`coalesce((select md5(string_agg(md5(x::text), '' order by md5(x::text))) from ${sql.identifier(name)} x), '')`);
  const result = await t.database.db.execute(sql`select md5(${sql.join(parts, sql` || `)}) as digest`);
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { digest: string }[];
  return rows[0]?.digest ?? "";
}

// --- What arrives -------------------------------------------------------------------------------

const awkward = [
  "", " ", "\u0000", "a\u0000b", "\uD800", "\uDFFF", "x\uD83D", "\uFFFE", "\r\n", "%00", "%", "%E0%A4%A", "+", "&", "=", "[]", "{}", "null",
  "0", "-1", "5", "3.5", "NaN", "1e309", "99999999999999999999", "true", "<script>alert(1)</script>", "' OR 1=1 --", "../../etc/passwd",
  "javascript:alert(1)", "//evil.example", "/\t/evil.example", "\\\\evil.example", "ü", "🎓", "name@example.com", "a".repeat(129), "x".repeat(100_001),
];

const nasty = fc.oneof(
  fc.constantFrom(...awkward),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 20 }).map((codes) => String.fromCharCode(...codes)),
);

const fieldNames = [
  "intent", "name", "email", "password", "remember", "redirectTo", "token", "currentPassword", "newPassword", "noteId", "title", "body", "orderId",
  "rating", "comment", "outcome", "method", "idempotencyKey", "gstin", "confirmation", "sessionId", "photo", "retry", "callbackURL", "provider",
  "razorpay_order_id", "razorpay_payment_id", "razorpay_signature", "error[metadata]", "image", "revokeOtherSessions", "planId", "domain", "serviceId",
];
const intents = [
  "signin", "signup", "name", "photo", "remove-photo", "password", "create", "save", "delete", "restore", "refund", "pay", "cancel", "complete",
  "incomplete", "opened", "add-note", "issue", "resend", "signout", "revoke-session", "revoke-others", "delete-account", "cancel-website",
];

/** A value that is sometimes the learner's own (so requests get past "not found" and into the checks behind it). */
const value = (name: string) =>
  fc.oneof(
    { weight: 3, arbitrary: nasty },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        ...(name === "intent" ? intents : []),
        ...(name === "noteId" ? [learner.noteId] : []),
        ...(name === "orderId" ? [learner.orderId] : []),
        ...(name === "outcome" ? ["pay", "decline"] : []),
        ...(name === "method" ? ["upi", "card"] : []),
        ...(name === "planId" ? ["starter-monthly", "business-yearly"] : []),
        ...(name === "domain" ? ["shop.example.in", "fuzz.example.in"] : []),
        ...(name === "email" || name === "confirmation" ? [learner.email] : []),
        "",
      ),
    },
  );

const fields = fc.array(
  fc
    .oneof({ weight: 4, arbitrary: fc.constantFrom(...fieldNames) }, { weight: 1, arbitrary: nasty })
    .chain((name) => value(name).map((v) => [name, v] as const)),
  { maxLength: 8 },
);

type Body = { contentType: string | null; body: BodyInit | null; label: string };

const rawTypes = [
  "text/plain", "application/json", "application/x-www-form-urlencoded", "multipart/form-data", "multipart/form-data; boundary=x",
  "application/octet-stream", "application/x-www-form-urlencoded; charset=utf-16", "", "garbage/;;;",
];

const bodies: fc.Arbitrary<Body> = fc.oneof(
  fields.map((f) => ({
    contentType: "application/x-www-form-urlencoded",
    body: new URLSearchParams(f.map(([k, v]) => [k, v])).toString(),
    label: "urlencoded",
  })),
  fields.map((f) => {
    const form = new FormData();
    for (const [k, v] of f) form.append(k, k === "photo" ? new File([v], "p.png", { type: "image/png" }) : v);
    return { contentType: null, body: form, label: "multipart" };
  }),
  fields.map((f) => ({ contentType: "application/json", body: JSON.stringify(Object.fromEntries(f)), label: "json object" })),
  fc.jsonValue().map((v) => ({ contentType: "application/json", body: JSON.stringify(v), label: "json value" })),
  fc
    .tuple(fc.constantFrom(...rawTypes), fc.uint8Array({ maxLength: 300 }))
    .map(([contentType, bytes]) => ({ contentType, body: new Uint8Array(bytes), label: `raw ${contentType}` })),
  fc.constant({ contentType: "application/x-www-form-urlencoded", body: null, label: "empty" }),
);

const formActions = [
  "/login", "/login?mode=signup", "/forgot-password", "/reset-password", "/verify-email", "/logout", "/profile", "/settings", "/notes", "/account/orders",
  "/courses/react-fundamentals/confirm", "/course/react-fundamentals/feedback", "/courses/react-fundamentals/submodule/1-1",
  "/courses/react-fundamentals/certificate", "/sandbox/checkout/SANDBOX", "/sandbox/checkout/order_unknown", "/courses/no-such-course/confirm",
  "/account/services/websites/new", "/account/services/websites/WEBSITE", "/account/services/websites/WEBSITE/renew", "/account/services/websites/0/renew",
];
const jsonEndpoints = [
  "/api/auth/sign-up/email", "/api/auth/sign-in/email", "/api/auth/request-password-reset", "/api/auth/reset-password", "/api/auth/update-user",
  "/api/auth/change-password", "/api/auth/send-verification-email", "/api/auth/sign-in/social", "/api/auth/revoke-session", "/api/auth/delete-user",
  "/api/payments/callback", "/api/payments/webhook",
];

const target = fc.record({
  path: fc.constantFrom(...formActions, ...jsonEndpoints),
  signedIn: fc.boolean(),
  body: bodies,
  address: fc.tuple(fc.integer({ min: 1, max: 254 }), fc.integer({ min: 0, max: 255 })).map(([a, b]) => `10.${a}.${b}.9`),
});

const pages = [
  "/login", "/reset-password", "/verify-email", "/notes", "/account/orders", "/courses/react-fundamentals/confirm", "/certificates/X",
  "/course/react-fundamentals/feedback", "/courses", "/help", "/sandbox/checkout/X", "/profile", "/account/services", "/account/services/websites",
  "/account/services/websites/new", "/account/services/websites/X", "/account/services/websites/X/renew",
];
const queryNames = ["redirectTo", "token", "q", "note", "order", "pending", "view", "sort", "mode", "error", "all", "page"];
const pageRequest = fc.record({
  page: fc.constantFrom(...pages),
  query: fc.array(fc.tuple(fc.constantFrom(...queryNames), nasty), { maxLength: 4 }),
  signedIn: fc.boolean(),
});

describe("fuzzing every form action and JSON endpoint", () => {
  it(`answers ${runs.toLocaleString("en")} arbitrary requests without a 5xx, and changes nothing when it refuses one`, async () => {
    console.info(`fuzz: ${runs} cases, FUZZ_SEED=${seed}`);
    let cases = 0;
    await fc.assert(
      fc.asyncProperty(target, async ({ path, signedIn, body, address }) => {
        cases++;
        // Signing out or deleting the account would end the session the rest of the run needs.
        const cookie = signedIn && path !== "/logout" && path !== "/api/auth/delete-user" ? learner.cookie : undefined;
        const headers: Record<string, string> = body.contentType === null ? {} : { "content-type": body.contentType };
        const before = await dataDigest();
        const url = path.replace("SANDBOX", learner.providerOrderId).replace("WEBSITE", learner.websiteId);
        const response = await send(url, { method: "POST", headers, body: body.body, cookie, address });
        await response.arrayBuffer();
        expect(response.status, `${path} ${body.label}`).toBeLessThan(500);
        if (response.status >= 400) expect(await dataDigest(), `${path} ${body.label} answered ${response.status}`).toBe(before);
      }),
      { numRuns: Math.round(runs * 0.9), seed, endOnFailure: true },
    );
    await fc.assert(
      fc.asyncProperty(pageRequest, async ({ page, query, signedIn }) => {
        cases++;
        // URLSearchParams percent-encodes anything, lone surrogates as U+FFFD, as a browser would.
        const search = new URLSearchParams(query).toString();
        const segment = new URLSearchParams({ s: query[0]?.[1] || "x" }).toString().slice(2);
        const response = await send(`${page.replace("X", segment)}?${search}`, { cookie: signedIn ? learner.cookie : undefined });
        await response.arrayBuffer();
        expect(response.status, `GET ${page}?${search}`).toBeLessThan(500);
      }),
      { numRuns: runs - Math.round(runs * 0.9), seed, endOnFailure: true },
    );
    expect(cases).toBeGreaterThanOrEqual(runs);
  }, 900_000);
});
