// Property-based fuzzing of every form action and JSON endpoint: arbitrary bodies, content types,
// encodings, NUL and lone surrogates, huge and empty values, repeated fields. Whatever arrives, the
// answer is never a 5xx, and a request that is refused (4xx) leaves the learner's data as it was.
// FUZZ_RUNS sets the number of cases (10,000 by default), shared by fuzz-1.test.ts and fuzz-2.test.ts,
// which run side by side on their own apps: half h uses the seed FUZZ_SEED + h. The seed is fixed so
// that CI is repeatable; explore further with another one, e.g. FUZZ_SEED=$RANDOM npx vitest run --project fuzz
import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import * as fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../server/api/keys.ts";
import { deviceCode, user } from "../../server/db/schema.ts";
import { createHttpApp } from "../../server/http/app.ts";
import type { SandboxGateway } from "../../server/payments/sandbox.ts";
import { startTestApp, type TestApp } from "./helpers.ts";

const runs = Number(process.env.FUZZ_RUNS ?? 10_000);
const seed = Number(process.env.FUZZ_SEED ?? 20_261_124);
const origin = "http://academy.test";
const password = "a good long password";

let t: TestApp;
/** The app with the API's per-credential limit out of the way, so the fuzzer reaches what is behind it. */
let app: TestApp["app"];
let learner: { cookie: string; email: string; noteId: string; orderId: string; providerOrderId: string; websiteId: string; cliToken: string; readKey: string; cliCode: string };
/** Each operation of /api/v1 as its OpenAPI document lists it, so a new one is fuzzed without a change here. */
let apiOperations: { method: string; path: string }[] = [];

function send(path: string, init: RequestInit & { cookie?: string; address?: string } = {}) {
  const headers = new Headers(init.headers);
  headers.set("origin", origin);
  if (init.cookie) headers.set("cookie", init.cookie);
  const remoteAddress = init.address ?? "127.0.0.1";
  return app.fetch(new Request(`${origin}${path}`, { ...init, headers, redirect: "manual" }), { incoming: { socket: { remoteAddress } } });
}

const formInit = (fields: Record<string, string>, cookie?: string) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
  cookie,
});



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
  "cliToken", "idToken", "approve", "userCode", "client_id", "device_code", "grant_type", "lessonId", "courseId",
];
const intents = [
  "signin", "signup", "name", "photo", "remove-photo", "password", "create", "save", "delete", "restore", "refund", "pay", "cancel", "complete",
  "incomplete", "opened", "add-note", "issue", "resend", "signout", "revoke-session", "revoke-others", "delete-account", "cancel-website",
  "cli-approve", "cli-deny",
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
        ...(name === "cliToken" || name === "userCode" ? [learner.cliCode] : []),
        ...(name === "client_id" ? ["academy-cli"] : []),
        ...(name === "grant_type" ? ["urn:ietf:params:oauth:grant-type:device_code"] : []),
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
  "/api/payments/callback", "/api/payments/webhook", "/api/cli-auth", "/api/auth/device/code", "/api/auth/device/token", "/api/auth/device/approve",
  "/login?cliToken=CLICODE",
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
const queryNames = ["redirectTo", "token", "q", "note", "order", "pending", "view", "sort", "mode", "error", "all", "page", "cliToken"];
const pageRequest = fc.record({
  page: fc.constantFrom(...pages),
  query: fc.array(fc.tuple(fc.constantFrom(...queryNames), nasty), { maxLength: 4 }),
  signedIn: fc.boolean(),
});

/** Percent-encodes anything, lone surrogates as U+FFFD, as a browser would. */
const encoded = (text: string) => new URLSearchParams({ s: text }).toString().slice(2);

/** A cursor of our shape (base64url of `time|id`) with a time that may not be one, and plain junk. */
const cursors = fc.oneof(
  { weight: 1, arbitrary: nasty },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom("2026-01-01T00:00:00.000Z", "+275760-09-13T00:00:00.000Z", "-271821-04-20T00:00:00.000Z", "0000-00-00", "NaN", ""), fc.uuid()).map(([at, id]) => Buffer.from(`${at}|${id}`).toString("base64url")) },
);

const apiRequest = fc.record({
  operation: fc.integer({ min: 0, max: 1000 }),
  // Mostly the operation as documented; now and then a method or a path segment it does not take.
  otherMethod: fc.oneof({ weight: 5, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom("PUT", "OPTIONS", "HEAD", "DELETE", "POST", "PATCH", "PROPFIND") }),
  id: fc.oneof(fc.constantFrom("NOTE", "ORDER", "WEBSITE", "00000000-0000-0000-0000-000000000000"), nasty),
  extraPath: fc.oneof({ weight: 8, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: nasty }),
  cursor: fc.option(cursors, { freq: 2 }),
  limit: fc.option(fc.oneof(nasty, fc.constantFrom("0", "1", "100", "101", "-1", "1e3")), { freq: 2 }),
  credential: fc.constantFrom("cli", "cli", "key", "none", "garbage", "acd_garbage", "acli_garbage"),
  body: bodies,
});

/** Half `half` of the cases, on an app of its own: the two halves run in two workers at once. */
export function fuzzHalf(half: 0 | 1): void {
  const count = half === 0 ? Math.ceil(runs / 2) : Math.floor(runs / 2);
  const halfSeed = seed + half;

  beforeAll(async () => {
    t = await startTestApp();
    app = createHttpApp({ ...t.deps, apiRateLimit: 1_000_000, production: false });
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
    const callback = await (t.payments.sandbox as SandboxGateway).pay(providerOrderId, { outcome: "pay", method: "upi" });
    const paid = await send("/api/payments/callback", formInit(callback));
    const orderId = new URL(paid.headers.get("location") ?? "", origin).searchParams.get("order") ?? "";
    const website = await send("/account/services/websites/new", formInit({ planId: "starter-monthly", domain: "fuzz.example.in" }, cookie));
    const websiteId = /^\/account\/services\/websites\/([0-9a-f-]{36})\/renew/.exec(website.headers.get("location") ?? "")?.[1] ?? "";
    // A CLI token, as academy login ends with, and a key that may only read; and a code waiting for approval.
    const deviceStart = async () => (await (await send("/api/auth/device/code", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_id: "academy-cli" }) })).json()) as { device_code: string; user_code: string };
    const granted = await deviceStart();
    await t.database.db.update(deviceCode).set({ status: "approved", userId: created.id }).where(eq(deviceCode.deviceCode, granted.device_code));
    const token = await send("/api/auth/device/token", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ grant_type: "urn:ietf:params:oauth:grant-type:device_code", device_code: granted.device_code, client_id: "academy-cli" }),
    });
    const { access_token: cliToken } = (await token.json()) as { access_token: string };
    const readKey = (await createApiKey(t.database.db, created.id, { name: "Fuzz reader", scopes: ["read"], lifetimeDays: 30 }, new Date())).secret;
    const { user_code: cliCode } = await deviceStart();
    expect(noteId && orderId && providerOrderId && websiteId && cliToken && cliCode).toBeTruthy();
    learner = { cookie, email, noteId, orderId, providerOrderId, websiteId, cliToken, readKey, cliCode };
    const doc = (await (await send("/api/v1/openapi.json")).json()) as { paths: Record<string, Record<string, unknown>> };
    apiOperations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path })));
  }, 60_000);
  afterAll(() => t.close());

  describe(`fuzzing every form action and JSON endpoint, half ${half + 1} of 2`, () => {
    it(`answers ${count.toLocaleString("en")} arbitrary requests without a 5xx, and changes nothing when it refuses one`, async () => {
      console.info(`fuzz: ${count} cases, seed ${halfSeed} (FUZZ_SEED=${seed})`);
      let cases = 0;
      // The API first: the forms may sign the learner's other sessions out, the CLI's among them.
      await fc.assert(
        fc.asyncProperty(apiRequest, async ({ operation, otherMethod, id, extraPath, cursor, limit, credential, body }) => {
          cases++;
          const op = apiOperations[operation % apiOperations.length] ?? { method: "GET", path: "/me" };
          const ids: Record<string, string> = { NOTE: learner.noteId, ORDER: learner.orderId, WEBSITE: learner.websiteId };
          const path = `/api/v1${op.path.replace("{id}", encoded(ids[id] ?? id))}${extraPath === null ? "" : `/${encoded(extraPath)}`}`;
          const token = { cli: learner.cliToken, key: learner.readKey, none: "", garbage: "x", acd_garbage: "acd_x", acli_garbage: "acli_x" }[credential];
          const headers: Record<string, string> = body.contentType === null ? {} : { "content-type": body.contentType };
          if (token) headers.authorization = `Bearer ${token}`;
          const method = otherMethod ?? op.method;
          const before = await dataDigest();
          const query = new URLSearchParams([...(cursor === null ? [] : [["cursor", cursor]]), ...(limit === null ? [] : [["limit", limit]])]);
          const response = await send(`${path}?${query.toString()}`, { method, headers, body: method === "GET" || method === "HEAD" ? null : body.body });
          const text = await response.text();
          expect(response.status, `${method} ${path} ${body.label}`).toBeLessThan(500);
          if (response.status >= 400) {
            // The API's one error shape, whatever went wrong.
            if (method !== "HEAD") expect((JSON.parse(text) as { error: { code: string } }).error.code, `${method} ${path} ${body.label}`).toEqual(expect.any(String));
            expect(await dataDigest(), `${method} ${path} ${body.label} answered ${response.status}`).toBe(before);
          }
        }),
        { numRuns: Math.round(count * 0.2), seed: halfSeed, endOnFailure: true },
      );
      await fc.assert(
        fc.asyncProperty(target, async ({ path, signedIn, body, address }) => {
          cases++;
          // Signing out or deleting the account would end the session the rest of the run needs.
          const cookie = signedIn && path !== "/logout" && path !== "/api/auth/delete-user" ? learner.cookie : undefined;
          const headers: Record<string, string> = body.contentType === null ? {} : { "content-type": body.contentType };
          const before = await dataDigest();
          const url = path.replace("SANDBOX", learner.providerOrderId).replace("WEBSITE", learner.websiteId).replace("CLICODE", learner.cliCode);
          const response = await send(url, { method: "POST", headers, body: body.body, cookie, address });
          await response.arrayBuffer();
          expect(response.status, `${path} ${body.label}`).toBeLessThan(500);
          if (response.status >= 400) expect(await dataDigest(), `${path} ${body.label} answered ${response.status}`).toBe(before);
        }),
        { numRuns: Math.round(count * 0.7), seed: halfSeed, endOnFailure: true },
      );

      await fc.assert(
        fc.asyncProperty(pageRequest, async ({ page, query, signedIn }) => {
          cases++;
          // URLSearchParams percent-encodes anything, lone surrogates as U+FFFD, as a browser would.
          const search = new URLSearchParams(query.map(([name, v]) => [name, name === "cliToken" && v === "" ? learner.cliCode : v])).toString();
          const segment = new URLSearchParams({ s: query[0]?.[1] || "x" }).toString().slice(2);
          const response = await send(`${page.replace("X", segment)}?${search}`, { cookie: signedIn ? learner.cookie : undefined });
          await response.arrayBuffer();
          expect(response.status, `GET ${page}?${search}`).toBeLessThan(500);
        }),
        { numRuns: count - Math.round(count * 0.7) - Math.round(count * 0.2), seed: halfSeed, endOnFailure: true },
      );
      expect(cases).toBeGreaterThanOrEqual(count);
    }, 900_000);
  });
}
