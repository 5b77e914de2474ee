import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../server/api/keys.ts";
import { apiScopes } from "../../server/api/scopes.ts";
import { deviceCode, session, user } from "../../server/db/schema.ts";
import { createNote } from "../../server/notes/index.ts";
import { startTestApp, type TestApp } from "./helpers.ts";

// Each scope × each operation of the OpenAPI document, and which tokens are credentials at all.
// The operations come from the document, so a new route is in the matrix without a new test.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const origin = "http://academy.test";

function call(method: string, path: string, init: { token?: string; body?: string; cookie?: string } = {}) {
  const headers = new Headers();
  if (init.token) headers.set("authorization", `Bearer ${init.token}`);
  if (init.cookie) headers.set("cookie", init.cookie);
  if (init.body !== undefined) headers.set("content-type", "application/json");
  return t.app.fetch(new Request(`${origin}${path}`, { method, headers, body: init.body }), { incoming: { socket: { remoteAddress: "10.20.0.1" } } });
}

/** A new account through the sign-up endpoint: its cookie, and the session token sign-up answers with. */
async function signUp(verified: boolean) {
  const email = `scope-${randomBytes(4).toString("hex")}@example.com`;
  const response = await call("POST", "/api/auth/sign-up/email", { body: JSON.stringify({ name: "Scope Sita", email, password: "a good long password" }) });
  expect(response.status).toBe(200);
  const cookie = response.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const { user: created, token } = (await response.json()) as { user: { id: string }; token: string };
  if (verified) await t.database.db.update(user).set({ emailVerified: true }).where(eq(user.id, created.id));
  return { id: created.id, email, cookie, signUpToken: token };
}

/** The token `academy login` ends with: a device code, approved for the person, then claimed. */
async function cliToken(userId: string): Promise<string> {
  const started = (await (await call("POST", "/api/auth/device/code", { body: JSON.stringify({ client_id: "academy-cli" }) })).json()) as { device_code: string };
  await t.database.db.update(deviceCode).set({ status: "approved", userId }).where(eq(deviceCode.deviceCode, started.device_code));
  const granted = await call("POST", "/api/auth/device/token", {
    body: JSON.stringify({ grant_type: "urn:ietf:params:oauth:grant-type:device_code", device_code: started.device_code, client_id: "academy-cli" }),
  });
  expect(granted.status).toBe(200);
  return ((await granted.json()) as { access_token: string }).access_token;
}

type Operation = { method: string; path: string; base: string; scopes: string[]; hasBody: boolean };

async function operations(): Promise<Operation[]> {
  const doc = (await (await call("GET", "/api/v1/openapi.json")).json()) as {
    paths: Record<string, Record<string, { security?: { bearer?: string[] }[]; requestBody?: unknown; servers?: { url: string }[] }>>;
  };
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      // An operation served elsewhere (the invoice) says where.
      base: (operation.servers?.[0]?.url ?? "/api/v1").replace(/\/$/, ""),
      scopes: operation.security?.[0]?.bearer ?? ["(none declared)"],
      hasBody: operation.requestBody !== undefined,
    })),
  );
}

/** What each operation must declare: reading needs `read`, changing notes `notes:write`, and a credential may always end itself. */
function expectedScopes(op: Operation): string[] {
  if (op.method === "DELETE" && op.path === "/session") return [];
  if (op.method === "GET") return ["read"];
  if (op.path.startsWith("/notes")) return ["notes:write"];
  return ["(a write the rule does not know yet: decide its scope here)"];
}

describe("API scopes", () => {
  it("declares on every operation the scopes the rule gives it", async () => {
    const ops = await operations();
    expect(ops.length).toBeGreaterThan(10);
    for (const op of ops) expect(op.scopes, `${op.method} ${op.path}`).toEqual(expectedScopes(op));
  });

  it("answers 403 to each credential lacking an operation's scope, and lets it through otherwise, on every operation", async () => {
    const person = await signUp(true);
    const noteId = (await createNote(t.database.db, t.identity.cipher, t.catalog, person.id, { title: "Scoped", body: "text" })).id;
    const keys = Object.fromEntries(
      await Promise.all(
        [["read"], ["notes:write"], [...apiScopes]].map(async (scopes) => {
          const made = await createApiKey(t.database.db, person.id, { name: scopes.join("+"), scopes, lifetimeDays: 30 }, new Date());
          return [`key with ${scopes.join(", ")}`, { token: made.secret, scopes }] as const;
        }),
      ),
    );
    const credentials: Record<string, { token: string; scopes: readonly string[] }> = { ...keys, "CLI session": { token: await cliToken(person.id), scopes: apiScopes } };
    // Signing out last: it ends the CLI session the other calls use.
    const ops = (await operations()).toSorted((a, b) => Number(a.path === "/session") - Number(b.path === "/session"));
    let checked = 0;
    for (const op of ops) {
      for (const [name, credential] of Object.entries(credentials)) {
        const path = `${op.base}${op.path.replace(/\{\w+\}/, op.path.startsWith("/notes") ? noteId : "00000000-0000-0000-0000-000000000000")}`;
        const response = await call(op.method, path, { token: credential.token, body: op.hasBody ? JSON.stringify({ title: "x", body: "y" }) : undefined });
        const missing = op.scopes.filter((scope) => !credential.scopes.includes(scope));
        const label = `${op.method} ${op.path} with a ${name}`;
        if (missing.length > 0) {
          expect(response.status, label).toBe(403);
          expect(await response.json(), label).toEqual({
            error: { code: "forbidden", message: `This key may not do that: it needs the "${missing[0]}" scope. Create a key with it on /api-tools.` },
          });
        } else {
          expect([401, 403, 500], label).not.toContain(response.status);
        }
        checked++;
      }
    }
    expect(checked).toBe(ops.length * Object.keys(credentials).length);
  });

  it("keeps a key with only notes:write away from everything it could read", async () => {
    const person = await signUp(true);
    const writer = await createApiKey(t.database.db, person.id, { name: "Writer", scopes: ["notes:write"], lifetimeDays: 30 }, new Date());
    for (const path of ["/me", "/orders", "/progress", "/websites", "/notes", "/courses"]) {
      expect((await call("GET", `/api/v1${path}`, { token: writer.secret })).status, path).toBe(403);
    }
    expect((await call("POST", "/api/v1/notes", { token: writer.secret, body: JSON.stringify({ title: "Mine", body: "hello" }) })).status).toBe(201);
  });
});

describe("which tokens are API credentials", () => {
  it("refuses a browser's session token: sign-up's, a verified person's, and every token list-sessions shows", async () => {
    const unverified = await signUp(false);
    expect((await call("GET", "/api/v1/me", { token: unverified.signUpToken })).status).toBe(401);
    const verified = await signUp(true);
    expect((await call("GET", "/api/v1/me", { token: verified.signUpToken })).status).toBe(401);
    const cli = await cliToken(verified.id);
    expect((await call("GET", "/api/v1/me", { token: cli })).status).toBe(200);

    const listed = (await (await call("GET", "/api/auth/list-sessions", { cookie: verified.cookie })).json()) as { id: string; token?: string }[];
    expect(listed).toHaveLength(2);
    for (const shown of listed) {
      if (shown.token) expect((await call("GET", "/api/v1/me", { token: shown.token })).status).toBe(401);
    }
    // The CLI's own token is not shown to a page at all.
    expect(listed.map((s) => s.token)).not.toContain(cli);
  });

  it("stops a CLI session of an account that is not verified", async () => {
    const person = await signUp(true);
    const cli = await cliToken(person.id);
    await t.database.db.update(user).set({ emailVerified: false }).where(eq(user.id, person.id));
    expect((await call("GET", "/api/v1/me", { token: cli })).status).toBe(401);
  });

  it("does not let an unverified account approve a CLI through Better Auth's own device endpoints, nor claim a token so", async () => {
    const person = await signUp(false);
    const started = (await (await call("POST", "/api/auth/device/code", { body: JSON.stringify({ client_id: "academy-cli" }) })).json()) as { device_code: string; user_code: string };
    // Looking the code up while signed in binds it to the person, as the plugin's own page does.
    await call("GET", `/api/auth/device?user_code=${started.user_code}`, { cookie: person.cookie });
    const approve = await t.app.fetch(
      new Request(`${origin}/api/auth/device/approve`, {
        method: "POST",
        headers: { cookie: person.cookie, origin, "content-type": "application/json" },
        body: JSON.stringify({ userCode: started.user_code }),
      }),
    );
    expect(approve.status).toBe(403);
    expect(await approve.json()).toMatchObject({ error: "access_denied", error_description: "Verify your e-mail address first, then approve the CLI." });
    const [row] = await t.database.db.select().from(deviceCode).where(eq(deviceCode.deviceCode, started.device_code));
    expect(row?.status).toBe("pending");

    // Approved some other way, the code still gives no token to an unverified account.
    await t.database.db.update(deviceCode).set({ status: "approved", userId: person.id }).where(eq(deviceCode.deviceCode, started.device_code));
    const granted = await call("POST", "/api/auth/device/token", {
      body: JSON.stringify({ grant_type: "urn:ietf:params:oauth:grant-type:device_code", device_code: started.device_code, client_id: "academy-cli" }),
    });
    expect(granted.status).toBe(400);
    expect(await granted.json()).toMatchObject({ error: "access_denied" });
    expect(await t.database.db.select().from(session).where(eq(session.userId, person.id))).toHaveLength(1);
  });
});
