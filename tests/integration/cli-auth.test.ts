import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deviceCode, session, user } from "../../server/db/schema.ts";
import { startTestApp, type TestApp } from "./helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const origin = "http://academy.test";
const cliAgent = "academy-cli/0.1.0 (Linux 6.1; Node 24.21.0)";

function send(path: string, init: RequestInit & { cookie?: string; from?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.from !== undefined) headers.set("origin", init.from);
  if (init.cookie) headers.set("cookie", init.cookie);
  return t.app.fetch(new Request(`${origin}${path}`, { ...init, headers, redirect: "manual" }));
}

const postJson = (path: string, body: unknown, init: { cookie?: string; from?: string; agent?: string } = {}) =>
  send(path, { method: "POST", headers: { "content-type": "application/json", "user-agent": init.agent ?? "test" }, body: JSON.stringify(body), ...init });

async function signedIn(name = "Devi Rao"): Promise<{ id: string; email: string; cookie: string }> {
  const email = `cli-${randomBytes(4).toString("hex")}@example.com`;
  const response = await t.identity.auth.api.signUpEmail({ body: { name, email, password: "a good long password" }, asResponse: true });
  const cookie = response.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const { user: created } = (await response.json()) as { user: { id: string } };
  await t.database.db.update(user).set({ emailVerified: true }).where(eq(user.id, created.id));
  return { id: created.id, email, cookie };
}

/** What `academy login` does first: ask for a device code. */
async function startCliLogin() {
  const response = await postJson("/api/auth/device/code", { client_id: "academy-cli" }, { agent: cliAgent });
  expect(response.status).toBe(200);
  return (await response.json()) as { device_code: string; user_code: string; interval: number };
}

/** The approval page's token, as the browser receives it. */
async function pageIdToken(cookie: string, code: string): Promise<string> {
  const html = await (await send(`/login?cliToken=${code}`, { cookie })).text();
  expect(html).toContain("Sign in the Academy CLI on this device?");
  // The device that asked, as the CLI's User-Agent names it.
  expect(html).toContain("Academy CLI on Linux");
  const token = /name="idToken" value="([^"]+)"/.exec(html)?.[1];
  expect(token).toBeDefined();
  return token as string;
}

const poll = (deviceCodeValue: string) =>
  postJson("/api/auth/device/token", { grant_type: "urn:ietf:params:oauth:grant-type:device_code", device_code: deviceCodeValue, client_id: "academy-cli" }, { agent: cliAgent });

/** Lets the next poll through Better Auth's polling interval. */
const allowPoll = (id: string) => t.database.db.update(deviceCode).set({ lastPolledAt: null }).where(eq(deviceCode.deviceCode, id));

describe("signing the CLI in from the browser", () => {
  it("approves a code for the signed-in person, whose CLI then gets a token for the API and appears among their devices", async () => {
    const person = await signedIn();
    const cli = await startCliLogin();
    expect((await (await poll(cli.device_code)).json()) as object).toMatchObject({ error: "authorization_pending" });

    const shown = `${cli.user_code.slice(0, 4)}-${cli.user_code.slice(4)}`;
    const idToken = await pageIdToken(person.cookie, shown);
    const approved = await postJson("/api/cli-auth", { cliToken: shown, email: person.email, idToken }, { cookie: person.cookie, from: origin });
    expect(await approved.json()).toEqual({ success: true });
    // A replayed approval changes nothing.
    const replay = await postJson("/api/cli-auth", { cliToken: shown, email: person.email, idToken }, { cookie: person.cookie, from: origin });
    expect(await replay.json()).toEqual({ success: false, error: "That code has already been used. If your terminal is still waiting, run academy login again." });

    await allowPoll(cli.device_code);
    const granted = await poll(cli.device_code);
    expect(granted.status).toBe(200);
    const { access_token: token } = (await granted.json()) as { access_token: string };
    const me = await send("/api/v1/me", { headers: { authorization: `Bearer ${token}` } });
    expect(await me.json()).toEqual({ id: person.id, name: "Devi Rao", email: person.email });
    expect(me.headers.get("ratelimit-limit")).toBe("120");
    expect(me.headers.get("ratelimit-remaining")).toBe("119");

    const sessions = await t.database.db.select().from(session).where(eq(session.userId, person.id));
    expect(sessions.map((s) => s.userAgent)).toContain(cliAgent);
    const settings = await (await send("/settings", { cookie: person.cookie })).text();
    expect(settings).toContain("Academy CLI on Linux");

    // The code is spent: a second claim of the token fails, and so does approving it again.
    await allowPoll(cli.device_code);
    expect((await poll(cli.device_code)).status).toBe(400);
    const late = await postJson("/api/cli-auth", { cliToken: shown, email: person.email, idToken }, { cookie: person.cookie, from: origin });
    expect((await late.json()) as object).toMatchObject({ success: false });

    // Signing out from the CLI revokes its token.
    expect((await send("/api/v1/session", { method: "DELETE", headers: { authorization: `Bearer ${token}` } })).status).toBe(204);
    const after = await send("/api/v1/me", { headers: { authorization: `Bearer ${token}` } });
    expect(after.status).toBe(401);
    expect(await after.json()).toEqual({ error: { code: "unauthorized", message: "This token is not valid any more. Run academy login to sign in again." } });
  });

  it("tells the CLI it was denied", async () => {
    const person = await signedIn();
    const cli = await startCliLogin();
    const idToken = await pageIdToken(person.cookie, cli.user_code);
    const denied = await postJson("/api/cli-auth", { cliToken: cli.user_code, email: person.email, idToken, approve: false }, { cookie: person.cookie, from: origin });
    expect(await denied.json()).toEqual({ success: true });
    await allowPoll(cli.device_code);
    expect(await (await poll(cli.device_code)).json()).toMatchObject({ error: "access_denied" });
  });

  it("refuses a forged or foreign id token, another person's e-mail, an unknown or expired code and another site, each with its message", async () => {
    const [person, other] = [await signedIn(), await signedIn("Someone Else")];
    const cli = await startCliLogin();
    const idToken = await pageIdToken(person.cookie, cli.user_code);
    const otherToken = await pageIdToken(other.cookie, cli.user_code);
    const decide = async (body: object, from = origin) => {
      const response = await postJson("/api/cli-auth", body, { cookie: person.cookie, from });
      return { status: response.status, body: await response.json() };
    };
    const [header, payload] = idToken.split(".");
    const forged = `${header}.${payload}.${Buffer.from("not the signature").toString("base64url")}`;
    const signedOut = "Your sign-in on this page has expired. Reload the page, sign in again if asked, and approve once more.";

    expect(await decide({ cliToken: cli.user_code, email: person.email, idToken: forged })).toEqual({ status: 400, body: { success: false, error: signedOut } });
    expect(await decide({ cliToken: cli.user_code, email: person.email, idToken: otherToken })).toEqual({
      status: 400,
      body: { success: false, error: "The e-mail address sent does not match the account signed in on this page. Reload the page and try again." },
    });
    expect(await decide({ cliToken: "ZZZZ-ZZZZ", email: person.email, idToken })).toEqual({
      status: 400,
      body: { success: false, error: "That code is not one we issued. Check it against your terminal, or run academy login again." },
    });
    expect(await decide({ cliToken: cli.user_code, email: person.email, idToken }, "https://evil.example")).toEqual({
      status: 403,
      body: { success: false, error: "This request came from another site, so nothing was changed." },
    });
    expect(await decide({ cliToken: cli.user_code })).toEqual({ status: 400, body: { success: false, error: "Send the code, your e-mail address and the page's token as JSON." } });
    const [untouched] = await t.database.db.select().from(deviceCode).where(eq(deviceCode.deviceCode, cli.device_code));
    expect(untouched).toMatchObject({ status: "pending", userId: null });

    await t.database.db.update(deviceCode).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(deviceCode.deviceCode, cli.device_code));
    expect(await decide({ cliToken: cli.user_code, email: person.email, idToken })).toEqual({
      status: 400,
      body: { success: false, error: "That code has expired. Run academy login again for a new one." },
    });

    // Signed out, the page's token is worthless.
    await t.database.db.delete(session).where(eq(session.userId, person.id));
    const fresh = await startCliLogin();
    expect(await decide({ cliToken: fresh.user_code, email: person.email, idToken })).toEqual({ status: 400, body: { success: false, error: signedOut } });
  });

  it("forgets codes that expired more than a day ago when the next one is asked for", async () => {
    const stale = await startCliLogin();
    await t.database.db.update(deviceCode).set({ expiresAt: new Date(Date.now() - 2 * 86_400_000) }).where(eq(deviceCode.deviceCode, stale.device_code));
    const fresh = await startCliLogin();
    const codes = (await t.database.db.select().from(deviceCode)).map((c) => c.deviceCode);
    expect(codes).toContain(fresh.device_code);
    expect(codes).not.toContain(stale.device_code);
  });

  it("sends a signed-out visitor to sign in first, and back to the approval afterwards", async () => {
    const cli = await startCliLogin();
    const page = await (await send(`/login?cliToken=${cli.user_code}`)).text();
    expect(page).toContain(`name="redirectTo" value="/login?cliToken=${cli.user_code}"`);
  });
});

describe("the API's door", () => {
  it("answers 401 in the one error shape without a token or with an unknown one, and serves its OpenAPI document to anyone", async () => {
    const none = await send("/api/v1/courses");
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ error: { code: "unauthorized", message: "Sign in first: run academy login, or send a token as Authorization: Bearer <token>." } });
    expect((await send("/api/v1/courses", { headers: { authorization: "Bearer nope" } })).status).toBe(401);
    const doc = (await (await send("/api/v1/openapi.json")).json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/me", "/courses", "/session"]));
  });
});
