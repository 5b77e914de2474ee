import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, listApiKeys, revokeApiKey } from "../../server/api/keys.ts";
import { createHostingOrder } from "../../server/commerce/index.ts";
import { deviceCode, session, user } from "../../server/db/schema.ts";
import { createNote } from "../../server/notes/index.ts";
import { startWebsite } from "../../server/websites/index.ts";
import { payInTestSandbox, startTestApp, type TestApp } from "./helpers.ts";

// The API's contract, checked for every operation its OpenAPI document lists: a new operation is covered without a new test.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

type Operation = { method: string; path: string; hasBody: boolean; requiredFields: string[]; anonymous: boolean };

async function operations(): Promise<Operation[]> {
  const doc = (await (await call("GET", "/api/v1/openapi.json")).json()) as {
    paths: Record<string, Record<string, { security?: object[]; requestBody?: { content: { "application/json": { schema: { required?: string[]; $ref?: string } } } } }>>;
    components: { schemas: Record<string, { required?: string[] }> };
  };
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => {
      const schema = operation.requestBody?.content["application/json"].schema;
      const resolved = schema?.$ref ? doc.components.schemas[schema.$ref.split("/").at(-1) ?? ""] : schema;
      // Security offering `{}` as one choice: the operation answers a request without a token too (the public catalogue).
      const anonymous = operation.security?.some((requirement) => Object.keys(requirement).length === 0) === true;
      return { method: method.toUpperCase(), path, hasBody: operation.requestBody !== undefined, requiredFields: resolved?.required ?? [], anonymous };
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

/** The operation's path with each `{id}` filled from `ids`, by the collection it names. */
function concrete(path: string, ids: Record<string, string>): string {
  return path.replace(/^\/(\w+)\/\{id\}/, (_, collection: string) => `/${collection}/${ids[collection] ?? "00000000-0000-0000-0000-000000000000"}`);
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
        const response = await call(op.method, `/api/v1${concrete(op.path, ids)}`, { token, body: op.hasBody ? "{}" : undefined });
        expect(response.status, `${op.method} ${op.path} with ${token ?? "nothing"}`).toBe(401);
        const body = (await response.json()) as { error: { code: string; message: string } };
        expect(body.error.code).toBe("unauthorized");
        expect(body.error.message).toMatch(/academy login/);
      }
    }
  });

  it("answers 404 for another person's resource, and changes nothing", async () => {
    const scoped = (await operations()).filter((op) => op.path.includes("{id}"));
    expect(scoped.map((op) => `${op.method} ${op.path}`).toSorted()).toEqual(["DELETE /notes/{id}", "GET /notes/{id}", "GET /orders/{id}/receipt", "GET /websites/{id}", "PATCH /notes/{id}"]);
    for (const op of scoped) {
      const response = await call(op.method, `/api/v1${concrete(op.path, ids)}`, { token: stranger.token, body: op.hasBody ? JSON.stringify({ title: "x", body: "y" }) : undefined });
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
      const response = await call(op.method, `/api/v1${concrete(op.path, ids)}`, { token: reader.secret, body: op.hasBody ? JSON.stringify({ title: "x", body: "y" }) : undefined });
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
      const path = `/api/v1${concrete(op.path, ids)}`;
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

  it("answers a body that is not JSON with 415, and one with a NUL with 400, in the one error shape, changing nothing", async () => {
    for (const op of (await operations()).filter((o) => o.hasBody)) {
      const path = `/api/v1${concrete(op.path, ids)}`;
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
    }
    expect(await (await call("GET", `/api/v1/notes/${ids.notes}`, { token: owner.token })).json()).toMatchObject({ title: "Mine", body: "private" });
  });

  it("answers JSON everywhere under /api/v1: 404 for a path it does not have, 405 with Allow for a method a path does not take, 413 for a body too large", async () => {
    for (const path of ["/api/v1", "/api/v1/", "/api/v1/nope", "/api/v1/notes/1/2", "/api/v1/me/"]) {
      for (const token of [undefined, owner.token]) {
        const response = await call("GET", path, { token });
        expect(response.status, path).toBe(404);
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
    for (const [method, path, allow] of wrong) {
      // From another site too: the API is not a form, so the answer is the API's, not the forms' cross-site refusal.
      const response = await t.app.fetch(new Request(`http://academy.test${path}`, { method, headers: { authorization: `Bearer ${owner.token}`, origin: "https://elsewhere.example" } }));
      expect(response.status, `${method} ${path}`).toBe(405);
      expect(response.headers.get("allow"), `${method} ${path}`).toBe(allow);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("method_not_allowed");
    }
    const huge = await call("POST", "/api/v1/notes", { token: owner.token, body: JSON.stringify({ title: "x", body: "y".repeat(4 * 1024 * 1024) }) });
    expect(huge.status).toBe(413);
    expect(((await huge.json()) as { error: { code: string } }).error.code).toBe("too_large");
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

  it("refuses a page cursor it did not give out with 400, on every paged list", async () => {
    for (const path of ["/api/v1/notes", "/api/v1/orders"]) {
      for (const cursor of ["not-a-cursor", "-1", "1e3", "99999999999999999999", Buffer.from("9999-99-99T00:00:00Z|x").toString("base64url")]) {
        const response = await call("GET", `${path}?cursor=${encodeURIComponent(cursor)}`, { token: owner.token });
        expect(response.status, `${path} ${cursor}`).toBe(400);
        expect(((await response.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: "invalid_input", message: expect.stringContaining("cursor") });
      }
    }
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
