import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, listApiKeys, revokeApiKey } from "../../server/api/keys.ts";
import { createHostingOrder } from "../../server/commerce/index.ts";
import { deviceCode, session, user } from "../../server/db/schema.ts";
import { createNote, pageOfNotes } from "../../server/notes/index.ts";
import { startWebsite } from "../../server/websites/index.ts";
import { payInTestSandbox, startTestApp, type TestApp } from "./helpers.ts";

// The API's contract, checked for every operation its OpenAPI document lists: a new operation is covered without a new test.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

type Operation = { method: string; path: string; url: (ids: Record<string, string>) => string; hasBody: boolean; requiredFields: string[]; anonymous: boolean };

type Header = { $ref: string };
type DeclaredResponse = { headers?: Record<string, Header>; content?: Record<string, unknown> };
type Document = {
  paths: Record<
    string,
    Record<string, { operationId?: string; security?: object[]; servers?: { url: string }[]; requestBody?: { content: { "application/json": { schema: { required?: string[]; $ref?: string } } } }; responses: Record<string, DeclaredResponse> }>
  >;
  components: { schemas: Record<string, { required?: string[] }>; headers: Record<string, { schema: { type: string } }> };
};

const apiDocument = async () => (await (await call("GET", "/api/v1/openapi.json")).json()) as Document;

async function operations(): Promise<Operation[]> {
  const doc = await apiDocument();
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => {
      const schema = operation.requestBody?.content["application/json"].schema;
      const resolved = schema?.$ref ? doc.components.schemas[schema.$ref.split("/").at(-1) ?? ""] : schema;
      // An operation served elsewhere (the invoice) says where; the rest are under the document's server.
      const base = (operation.servers?.[0]?.url ?? "/api/v1").replace(/\/$/, "");
      // Security offering `{}` as one choice: the operation answers a request without a token too (the public catalogue).
      const anonymous = operation.security?.some((requirement) => Object.keys(requirement).length === 0) === true;
      return { method: method.toUpperCase(), path, url: (ids) => `${base}${concrete(path, ids)}`, hasBody: operation.requestBody !== undefined, requiredFields: resolved?.required ?? [], anonymous };
    }),
  );
}

function call(method: string, path: string, init: { token?: string; body?: string } = {}) {
  const headers = new Headers();
  if (init.token) headers.set("authorization", `Bearer ${init.token}`);
  if (init.body !== undefined) headers.set("content-type", "application/json");
  return t.app.fetch(new Request(`http://academy.test${path}`, { method, headers, body: init.body }));
}

/** A verified person with a CLI session token, as `academy login` leaves them: a device code approved for them, then claimed. */
async function personWithToken(name: string) {
  const email = `api-${randomBytes(4).toString("hex")}@example.com`;
  const response = await t.identity.auth.api.signUpEmail({ body: { name, email, password: "a good long password" }, asResponse: true });
  const { user: created } = (await response.json()) as { user: { id: string } };
  await t.database.db.update(user).set({ emailVerified: true }).where(eq(user.id, created.id));
  const started = (await (await call("POST", "/api/auth/device/code", { body: JSON.stringify({ client_id: "academy-cli" }) })).json()) as { device_code: string };
  await t.database.db.update(deviceCode).set({ status: "approved", userId: created.id }).where(eq(deviceCode.deviceCode, started.device_code));
  const granted = await call("POST", "/api/auth/device/token", {
    body: JSON.stringify({ grant_type: "urn:ietf:params:oauth:grant-type:device_code", device_code: started.device_code, client_id: "academy-cli" }),
  });
  const { access_token: token } = (await granted.json()) as { access_token: string };
  const [row] = await t.database.db.select().from(session).where(eq(session.token, token));
  return { id: created.id, email, token, sessionId: row?.id as string };
}

/** The operation's path with its `{id}` filled from `ids`, by the collection it names (an invoice's `{orderId}`, from the orders'). */
function concrete(path: string, ids: Record<string, string>): string {
  const unknown = "00000000-0000-0000-0000-000000000000";
  return path
    .replace(/^\/(\w+)\/\{id\}/, (_, collection: string) => `/${collection}/${ids[collection] ?? unknown}`)
    .replace("{orderId}", ids.orders ?? unknown);
}

describe("every operation of /api/v1", () => {
  let owner: Awaited<ReturnType<typeof personWithToken>>;
  let stranger: Awaited<ReturnType<typeof personWithToken>>;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    owner = await personWithToken("Owner Olga");
    stranger = await personWithToken("Stranger Sam");
    const { db } = t.database;
    ids.notes = (await createNote(db, t.identity.cipher, t.catalog, owner.id, { title: "Mine", body: "private" })).id;
    const site = await startWebsite(db, t.catalog, { userId: owner.id, serviceId: "website-hosting", planId: "starter-monthly", domain: `api-${randomBytes(3).toString("hex")}.example.in` });
    ids.websites = site.id;
    const order = await createHostingOrder(t.payments.shop, { userId: owner.id, websiteId: site.id, planId: "starter-monthly", idempotencyKey: randomBytes(8).toString("hex") });
    await payInTestSandbox(t.payments, order);
    ids.orders = order.id;
  });

  it("answers 401 in the one error shape without a credential, with an unknown, an expired or a revoked one", async () => {
    const { db } = t.database;
    const expired = await personWithToken("Expired Eve");
    await db.update(session).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(session.id, expired.sessionId));
    const revoked = await personWithToken("Revoked Ravi");
    await db.delete(session).where(eq(session.id, revoked.sessionId));
    const oldKey = await createApiKey(db, owner.id, { name: "Old", scopes: ["read", "notes:write"], lifetimeDays: 30 }, new Date(Date.now() - 31 * 86_400_000));
    const revokedKey = await createApiKey(db, owner.id, { name: "Revoked", scopes: ["read", "notes:write"], lifetimeDays: null }, new Date());
    await revokeApiKey(db, owner.id, revokedKey.key.id, new Date());
    const credentials = [undefined, "not-a-token", "acd_not-a-key", expired.token, revoked.token, oldKey.secret, revokedKey.secret];
    for (const op of await operations()) {
      if (op.path === "/openapi.json") continue;
      for (const token of op.anonymous ? credentials.filter(Boolean) : credentials) {
        const response = await call(op.method, op.url(ids), { token, body: op.hasBody ? "{}" : undefined });
        expect(response.status, `${op.method} ${op.path} with ${token ?? "nothing"}`).toBe(401);
        const body = (await response.json()) as { error: { code: string; message: string } };
        expect(body.error.code).toBe("unauthorized");
        expect(body.error.message).toMatch(/academy login/);
      }
    }
  });

  it("answers 404 for another person's resource, and changes nothing", async () => {
    const scoped = (await operations()).filter((op) => op.path.includes("{"));
    expect(scoped.map((op) => `${op.method} ${op.path}`).toSorted()).toEqual(["DELETE /notes/{id}", "GET /invoices/{orderId}", "GET /notes/{id}", "GET /orders/{id}/receipt", "GET /websites/{id}", "PATCH /notes/{id}"]);
    for (const op of scoped) {
      const response = await call(op.method, op.url(ids), { token: stranger.token, body: op.hasBody ? JSON.stringify({ title: "x", body: "y" }) : undefined });
      expect(response.status, `${op.method} ${op.path}`).toBe(404);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("not_found");
    }
    const mine = await call("GET", `/api/v1/notes/${ids.notes}`, { token: owner.token });
    expect(await mine.json()).toMatchObject({ title: "Mine", body: "private" });
  });

  it("answers 403 to a key without the scope a write needs, and 200 to one with it", async () => {
    const { db } = t.database;
    const reader = await createApiKey(db, owner.id, { name: "Reader", scopes: ["read"], lifetimeDays: 30 }, new Date());
    const writes = (await operations()).filter((op) => op.method !== "GET" && op.path !== "/session");
    expect(writes.map((op) => `${op.method} ${op.path}`).toSorted()).toEqual(["DELETE /notes/{id}", "PATCH /notes/{id}", "POST /notes"]);
    for (const op of writes) {
      const response = await call(op.method, op.url(ids), { token: reader.secret, body: op.hasBody ? JSON.stringify({ title: "x", body: "y" }) : undefined });
      expect(response.status, `${op.method} ${op.path}`).toBe(403);
      expect(((await response.json()) as { error: { code: string; message: string } }).error).toEqual({
        code: "forbidden",
        message: 'This key may not do that: it needs the "notes:write" scope. Create a key with it on /api-tools.',
      });
    }
    expect((await call("GET", `/api/v1/notes/${ids.notes}`, { token: reader.secret })).status).toBe(200);
    const writer = await createApiKey(db, owner.id, { name: "Writer", scopes: ["read", "notes:write"], lifetimeDays: 30 }, new Date());
    const written = await call("POST", "/api/v1/notes", { token: writer.secret, body: JSON.stringify({ title: "By key", body: "hello" }) });
    expect(written.status).toBe(201);
    const [listed] = (await listApiKeys(db, owner.id, new Date())).filter((k) => k.id === writer.key.id);
    expect(listed?.lastUsedAt).not.toBeNull();
  });

  it("answers 400 naming the field for a malformed body", async () => {
    for (const op of (await operations()).filter((o) => o.hasBody)) {
      const path = op.url(ids);
      const notJson = await call(op.method, path, { token: owner.token, body: "{not json" });
      expect(notJson.status, `${op.method} ${op.path} with a broken body`).toBe(400);
      const wrong = await call(op.method, path, { token: owner.token, body: JSON.stringify({ body: 42 }) });
      expect(wrong.status, `${op.method} ${op.path} with a number for text`).toBe(400);
      const { error } = (await wrong.json()) as { error: { code: string; fields: Record<string, string> } };
      expect(error.code).toBe("invalid_input");
      expect(Object.keys(error.fields)).toContain("body");
    }
  });

  it("counts each credential's requests: the 121st in a minute is 429 with Retry-After, and another credential is unaffected", async () => {
    const { db } = t.database;
    const person = await personWithToken("Busy Person");
    const busy = await createApiKey(db, person.id, { name: "Busy", scopes: ["read"], lifetimeDays: 30 }, new Date());
    for (let i = 1; i <= 120; i++) {
      const ok = await call("GET", "/api/v1/me", { token: busy.secret });
      expect(ok.status).toBe(200);
      expect(ok.headers.get("ratelimit-remaining")).toBe(String(120 - i));
    }
    const limited = await call("GET", "/api/v1/me", { token: busy.secret });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.headers.get("ratelimit-remaining")).toBe("0");
    expect(((await limited.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
    expect((await call("GET", "/api/v1/me", { token: person.token })).status).toBe(200);
  });

  it("lets only the counting statement's own commit skip the wait for the disk: the connection's next statement commits as usual", async () => {
    const { db } = t.database;
    expect((await call("GET", "/api/v1/me", { token: owner.token })).status).toBe(200);
    const [setting] = ((await db.execute(sql`select current_setting('synchronous_commit') as value`)) as unknown as { rows: { value: string }[] }).rows;
    expect(setting?.value).toBe("on");
  });

  it("counts a person's credentials together: twice one credential's allowance a minute across all their keys and CLIs, whoever else is busy", async () => {
    const { db } = t.database;
    const person = await personWithToken("Many Keys");
    const keys = await Promise.all([1, 2, 3].map((i) => createApiKey(db, person.id, { name: `Script ${i}`, scopes: ["read"], lifetimeDays: 30 }, new Date())));
    for (let i = 0; i < 240; i++) {
      const ok = await call("GET", "/api/v1/me", { token: (keys[i % 3] as { secret: string }).secret });
      expect(ok.status, `request ${i + 1}`).toBe(200);
      // The tighter of the two windows: this key's own, or the person's across the three.
      expect(Number(ok.headers.get("ratelimit-remaining"))).toBe(Math.min(120 - (Math.floor(i / 3) + 1), 240 - (i + 1)));
    }
    for (const credential of [...keys.map((k) => k.secret), person.token]) {
      const limited = await call("GET", "/api/v1/me", { token: credential });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(((await limited.json()) as { error: { message: string } }).error.message).toMatch(/^Too many requests from your account's keys and signed-in CLIs together\. Try again in \d+ seconds\.$/);
    }
    expect((await call("GET", "/api/v1/me", { token: owner.token })).status).toBe(200);
  });

  it("answers a body that is not JSON with 415, and one with a NUL, nested deeper than a stack or not UTF-8 with 400, in the one error shape, changing nothing", async () => {
    for (const op of (await operations()).filter((o) => o.hasBody)) {
      const path = op.url(ids);
      for (const [contentType, body] of [["text/plain", "hello"], ["application/x-www-form-urlencoded", "title=x&body=y"], [null, "{}"]] as const) {
        const headers = new Headers({ authorization: `Bearer ${owner.token}` });
        if (contentType) headers.set("content-type", contentType);
        const response = await t.app.fetch(new Request(`http://academy.test${path}`, { method: op.method, headers, body }));
        expect(response.status, `${op.method} ${op.path} as ${contentType}`).toBe(415);
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe("unsupported_media_type");
      }
      const nul = await call(op.method, path, { token: owner.token, body: JSON.stringify({ title: "a\u0000b", body: "x" }) });
      expect(nul.status, `${op.method} ${op.path} with a NUL`).toBe(400);
      expect(((await nul.json()) as { error: { code: string } }).error.code).toBe("invalid_input");
      // JSON nested deeper than a call stack goes, and bytes that are not UTF-8 (decoding would save them as U+FFFD): refused, not a 500 nor a garbled note.
      for (const [what, body, message] of [
        ["nested 200,000 deep", `${"[".repeat(200_000)}${"]".repeat(200_000)}`, /^Check body: /],
        ["nested 200,000 deep in a field", `{"title":"x","body":${"[".repeat(200_000)}${"]".repeat(200_000)}}`, /^Check body: /],
        ["not UTF-8", Buffer.concat([Buffer.from('{"title":"x","body":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]), /not valid UTF-8/],
      ] as const) {
        const headers = { authorization: `Bearer ${owner.token}`, "content-type": "application/json" };
        const response = await t.app.fetch(new Request(`http://academy.test${path}`, { method: op.method, headers, body }));
        expect(response.status, `${op.method} ${op.path} ${what}`).toBe(400);
        expect(((await response.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: "invalid_input", message: expect.stringMatching(message) });
      }
    }
    expect(await (await call("GET", `/api/v1/notes/${ids.notes}`, { token: owner.token })).json()).toMatchObject({ title: "Mine", body: "private" });
  });

  it("answers JSON everywhere under /api/v1: 404 for a path it does not have, 405 with Allow for a method a path does not take, 413 for a body too large", async () => {
    for (const path of ["/api/v1", "/api/v1/", "/api/v1/nope", "/api/v1/notes/1/2", "/api/v1/me/", "/api/v1/notes/", "/api/v1//notes", "/api/v1/openapi.json/"]) {
      for (const token of [undefined, owner.token]) {
        const response = await t.app.fetch(new Request(`http://academy.test${path}`, { headers: { accept: "text/html", ...(token ? { authorization: `Bearer ${token}` } : {}) } }));
        expect(response.status, path).toBe(404);
        expect(response.headers.get("content-type"), path).toBe("application/json");
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe("not_found");
      }
    }
    const wrong: [string, string, string][] = [
      ["PUT", "/api/v1/me", "GET, HEAD"],
      ["POST", "/api/v1/me", "GET, HEAD"],
      ["DELETE", "/api/v1/notes", "GET, HEAD, POST"],
      ["PUT", `/api/v1/notes/${ids.notes}`, "GET, HEAD, DELETE, PATCH"],
      ["POST", "/api/v1/openapi.json", "GET, HEAD"],
      ["OPTIONS", "/api/v1/orders", "GET, HEAD"],
    ];
    // As curl sends it (no Origin, with or without a token) and from another site: the API is not a form, so the answer is the API's, not the forms' cross-site refusal.
    const asSent: Record<string, string>[] = [{}, { authorization: `Bearer ${owner.token}` }, { authorization: `Bearer ${owner.token}`, origin: "https://elsewhere.example" }];
    for (const headers of asSent) {
      for (const [method, path, allow] of wrong) {
        const response = await t.app.fetch(new Request(`http://academy.test${path}`, { method, headers }));
        expect(response.status, `${method} ${path}`).toBe(405);
        expect(response.headers.get("allow"), `${method} ${path}`).toBe(allow);
        expect(response.headers.get("content-type")).toBe("application/json");
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe("method_not_allowed");
      }
    }
    const huge = await call("POST", "/api/v1/notes", { token: owner.token, body: JSON.stringify({ title: "x", body: "y".repeat(4 * 1024 * 1024) }) });
    expect(huge.status).toBe(413);
    expect(((await huge.json()) as { error: { code: string } }).error.code).toBe("too_large");
  });

  it("takes no browser session: a cookie alone is 401 in the one error shape, from this site or another, and changes nothing", async () => {
    const email = `cookie-${randomBytes(4).toString("hex")}@example.com`;
    const signUp = await t.identity.auth.api.signUpEmail({ body: { name: "Cookie Chen", email, password: "a good long password" }, asResponse: true });
    const { user: created } = (await signUp.json()) as { user: { id: string } };
    const cookie = signUp.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    await t.database.db.update(user).set({ emailVerified: true }).where(eq(user.id, created.id));
    for (const origin of ["http://academy.test", "https://elsewhere.example"]) {
      for (const [method, path, body] of [["GET", "/api/v1/me", undefined], ["POST", "/api/v1/notes", JSON.stringify({ title: "By cookie", body: "x" })]] as const) {
        const headers = { cookie, origin, ...(body ? { "content-type": "application/json" } : {}) };
        const response = await t.app.fetch(new Request(`http://academy.test${path}`, { method, headers, body }));
        expect(response.status, `${method} ${path} from ${origin}`).toBe(401);
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
      }
    }
    expect((await pageOfNotes(t.database.db, t.identity.cipher, created.id, { limit: 10 })).notes).toEqual([]);
  });

  it("pages through notes with a cursor, each note once", async () => {
    const reader = await personWithToken("Paging Priya");
    for (let i = 0; i < 7; i++) await createNote(t.database.db, t.identity.cipher, t.catalog, reader.id, { title: `Note ${i}`, body: "text" });
    const seen: string[] = [];
    let cursor: string | null = "";
    while (cursor !== null) {
      const page = (await (await call("GET", `/api/v1/notes?limit=3${cursor ? `&cursor=${cursor}` : ""}`, { token: reader.token })).json()) as { notes: { title: string }[]; nextCursor: string | null };
      seen.push(...page.notes.map((n) => n.title));
      cursor = page.nextCursor;
    }
    expect(seen.toSorted()).toEqual(Array.from({ length: 7 }, (_, i) => `Note ${i}`));
  });

  it("refuses a page size it does not give with 400, saying what it takes, on every paged list", async () => {
    for (const path of ["/api/v1/notes", "/api/v1/orders"]) {
      for (const limit of ["", "abc", "0", "101", "2.5"]) {
        const response = await call("GET", `${path}?limit=${limit}`, { token: owner.token });
        expect(response.status, `${path} limit=${limit}`).toBe(400);
        expect(((await response.json()) as { error: { fields: Record<string, string> } }).error.fields).toEqual({ limit: "Give limit as a whole number from 1 to 100." });
      }
    }
  });

  it("refuses a page cursor it did not give out with 400, on every paged list", async () => {
    for (const path of ["/api/v1/notes", "/api/v1/orders"]) {
      for (const cursor of ["", "not-a-cursor", "-1", "1e3", "99999999999999999999", Buffer.from("9999-99-99T00:00:00Z|x").toString("base64url")]) {
        const response = await call("GET", `${path}?cursor=${encodeURIComponent(cursor)}`, { token: owner.token });
        expect(response.status, `${path} ${cursor}`).toBe(400);
        expect(((await response.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: "invalid_input", message: expect.stringContaining("cursor") });
      }
    }
  });
});

/** Every operation of the document, named as `METHOD /path`. */
const each = (doc: Document) =>
  Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, ...operation })));

const headerNames = (response: DeclaredResponse) => Object.keys(response.headers ?? {}).toSorted();

describe("the OpenAPI document", () => {
  it("names every operation with an operationId of its own", async () => {
    const ids = each(await apiDocument()).map((op) => op.operationId);
    expect(ids.every((id) => typeof id === "string" && /^[a-z][A-Za-z]+$/.test(id)), ids.join(", ")).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("declares the rate-limit headers on every answer past the token check, Retry-After on every 429 and WWW-Authenticate on every 401", async () => {
    const doc = await apiDocument();
    expect(Object.keys(doc.components.headers).toSorted()).toEqual(["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "Retry-After", "WWW-Authenticate"]);
    for (const op of each(doc)) {
      expect(Object.keys(op.responses), op.name).toEqual(expect.arrayContaining(["401", "429"]));
      for (const [status, response] of Object.entries(op.responses)) {
        const expected = { "401": ["WWW-Authenticate"], "413": [], "429": ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "Retry-After"] }[status] ?? ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"];
        expect(headerNames(response), `${op.name} ${status}`).toEqual(expected);
        for (const header of Object.values(response.headers ?? {})) expect(doc.components.headers[header.$ref.split("/").at(-1) ?? ""], header.$ref).toBeDefined();
      }
    }
  });

  it("gives every timestamp the date-time format, and every operation that reads a body its 413 and 415", async () => {
    const doc = await apiDocument();
    const timestamps: string[] = [];
    const walk = (schema: unknown, at: string) => {
      if (typeof schema !== "object" || schema === null) return;
      for (const [key, value] of Object.entries(schema)) {
        if (key.endsWith("At") && typeof value === "object" && value !== null && "type" in value) {
          timestamps.push(at + key);
          expect((value as { format?: string }).format, at + key).toBe("date-time");
        }
        walk(value, `${at}${key}.`);
      }
    };
    walk(doc, "");
    expect(timestamps.length).toBeGreaterThanOrEqual(10);
    for (const op of each(doc).filter((o) => o.requestBody)) expect(Object.keys(op.responses), op.name).toEqual(expect.arrayContaining(["400", "413", "415"]));
  });

  it("describes the invoice where it is served, and the token's answers there are the ones it declares", async () => {
    const doc = await apiDocument();
    const invoice = doc.paths["/invoices/{orderId}"]?.get;
    expect(invoice?.servers).toEqual([expect.objectContaining({ url: "/" })]);
    expect(Object.keys(invoice?.responses["200"]?.content ?? {})).toEqual(["text/html"]);
    const person = await personWithToken("Invoice Indu");
    const unknown = await call("GET", "/invoices/00000000-0000-0000-0000-000000000000", { token: person.token });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("ratelimit-remaining")).toMatch(/^\d+$/);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe("not_found");
    const none = await call("GET", "/invoices/00000000-0000-0000-0000-000000000000");
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toBe('Bearer realm="academy"');
    // Served elsewhere, so not under /api/v1.
    expect((await call("GET", "/api/v1/invoices/00000000-0000-0000-0000-000000000000", { token: person.token })).status).toBe(404);
  });

  it("answers with the headers and timestamps it declares, errors after the token check included", async () => {
    const person = await personWithToken("Header Hari");
    const made = await call("POST", "/api/v1/notes", { token: person.token, body: JSON.stringify({ title: "Stamped", body: "text" }) });
    expect(made.status).toBe(201);
    const note = (await made.json()) as Record<string, string>;
    for (const field of ["createdAt", "updatedAt"]) expect(new Date(note[field] ?? "").toISOString(), field).toBe(note[field]);
    const answers = [
      ["GET", "/api/v1/me", undefined, 200],
      ["GET", "/api/v1/notes?cursor=nope", undefined, 400],
      ["PATCH", `/api/v1/notes/${note.id}`, "{broken", 400],
      ["DELETE", `/api/v1/notes/${note.id}`, undefined, 204],
      ["GET", `/api/v1/notes/${note.id}`, undefined, 404],
    ] as const;
    for (const [method, path, body, status] of answers) {
      const response = await call(method, path, { token: person.token, body });
      expect(response.status, `${method} ${path}`).toBe(status);
      for (const name of ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"]) expect(response.headers.get(name), `${method} ${path} ${name}`).toMatch(/^\d+$/);
    }
  });
});

describe("PATCH /notes/{id}", () => {
  it("changes the title, the body or both, keeping what is left out, and refuses an edit of neither", async () => {
    const person = await personWithToken("Patch Padma");
    const note = (await (await call("POST", "/api/v1/notes", { token: person.token, body: JSON.stringify({ title: "First", body: "one" }) })).json()) as { id: string };
    const patch = (edit: Record<string, unknown>) => call("PATCH", `/api/v1/notes/${note.id}`, { token: person.token, body: JSON.stringify(edit) });
    expect(await (await patch({ title: "Renamed" })).json()).toMatchObject({ title: "Renamed", body: "one" });
    expect(await (await patch({ body: "two" })).json()).toMatchObject({ title: "Renamed", body: "two" });
    expect(await (await patch({ title: "Both", body: "three" })).json()).toMatchObject({ title: "Both", body: "three" });
    expect(await (await patch({ title: "" })).json()).toMatchObject({ title: "", body: "three" });
    for (const edit of [{}, { colour: "red" }]) {
      const neither = await patch(edit);
      expect(neither.status).toBe(400);
      expect(((await neither.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: "invalid_input", message: "Check body: Send title, body or both." });
    }
    expect(await (await call("GET", `/api/v1/notes/${note.id}`, { token: person.token })).json()).toMatchObject({ title: "", body: "three" });
  });
});

describe("API keys", () => {
  it("show a new key's secret on a page no cache may keep", async () => {
    const email = `keys-${randomBytes(4).toString("hex")}@example.com`;
    const signUp = await t.identity.auth.api.signUpEmail({ body: { name: "Cache Chitra", email, password: "a good long password" }, asResponse: true });
    const cookie = signUp.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    await t.database.db.update(user).set({ emailVerified: true }).where(eq(user.email, email));
    const made = await t.app.fetch(
      new Request("http://academy.test/api-tools", {
        method: "POST",
        headers: { cookie, origin: "http://academy.test", "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ intent: "create-key", name: "Script", scopes: "read", lifetime: "30" }).toString(),
      }),
    );
    expect(made.status).toBe(200);
    expect(await made.text()).toMatch(/value="acd_[\w-]+"/);
    expect(made.headers.get("cache-control")).toBe("private, no-store");
  });

  it("refuse a blank or long name, no or unknown scopes and an unoffered lifetime, cap each person at 20, and keep another person's key out of reach", async () => {
    const { db } = t.database;
    const person = await personWithToken("Key Keeper");
    const now = new Date();
    const make = (input: { name?: string; scopes?: string[]; lifetimeDays?: number | null }) =>
      createApiKey(db, person.id, { name: input.name ?? "Script", scopes: input.scopes ?? ["read"], lifetimeDays: input.lifetimeDays === undefined ? 30 : input.lifetimeDays }, now);
    await expect(make({ name: "   " })).rejects.toThrow("Give the key a name");
    await expect(make({ name: "x".repeat(61) })).rejects.toThrow("Keep the name to 60 characters or fewer.");
    await expect(make({ scopes: [] })).rejects.toThrow("Choose at least one thing the key may do.");
    await expect(make({ scopes: ["admin"] })).rejects.toThrow('"admin" is not a scope. Choose from read, notes:write.');
    await expect(make({ lifetimeDays: 7 })).rejects.toThrow("Choose how long the key lasts from the list.");
    expect(await listApiKeys(db, person.id, now)).toEqual([]);

    const first = await make({ name: "  Reading   list  " });
    expect(first.key).toMatchObject({ name: "Reading list", scopes: ["read"] });
    expect(first.secret).toMatch(/^acd_[\w-]{43}$/);
    expect(first.key.prefix).toBe(first.secret.slice(0, 10));
    for (let i = 1; i < 20; i++) await make({ name: `Key ${i}` });
    await expect(make({ name: "One too many" })).rejects.toThrow("You have 20 keys already.");

    const other = await personWithToken("Other Olu");
    await expect(revokeApiKey(db, other.id, first.key.id, now)).rejects.toThrow("We could not find that key.");
    expect((await call("GET", "/api/v1/me", { token: first.secret })).status).toBe(200);
    await revokeApiKey(db, person.id, first.key.id, now);
    expect((await call("GET", "/api/v1/me", { token: first.secret })).status).toBe(401);
  });
});
