import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { login } from "../../cli/login.ts";
import { addressLimits } from "../../server/auth/index.ts";
import { deviceCode, session, user } from "../../server/db/schema.ts";
import { createHttpApp } from "../../server/http/app.ts";
import { startTestApp, type TestApp } from "./helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const origin = "http://academy.test";
const cliAgent = "academy-cli/0.1.0 (Linux 6.1; Node 24.21.0)";

function send(path: string, init: RequestInit & { cookie?: string; from?: string; address?: string; app?: TestApp["app"] } = {}) {
  const headers = new Headers(init.headers);
  if (init.from !== undefined) headers.set("origin", init.from);
  if (init.cookie) headers.set("cookie", init.cookie);
  const request = new Request(`${origin}${path}`, { ...init, headers, redirect: "manual" });
  return (init.app ?? t.app).fetch(request, init.address ? { incoming: { socket: { remoteAddress: init.address } } } : undefined);
}

const postJson = (path: string, body: unknown, init: { cookie?: string; from?: string; agent?: string; address?: string } = {}) =>
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
async function startCliLogin(address?: string) {
  const response = await postJson("/api/auth/device/code", { client_id: "academy-cli" }, { agent: cliAgent, address });
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

const poll = (deviceCodeValue: string, address?: string) =>
  postJson("/api/auth/device/token", { grant_type: "urn:ietf:params:oauth:grant-type:device_code", device_code: deviceCodeValue, client_id: "academy-cli" }, { agent: cliAgent, address });

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
    const { next } = (await approved.json()) as { success: boolean; next: string };
    expect(next).toMatch(/^\/cli-auth-success\?outcome=[\w.-]+$/);
    // The page after it says what happened to this person, in this session only.
    const success = async (cookie?: string) => (await send(next, { cookie })).text();
    expect(await success(person.cookie)).toContain(`Academy CLI approved`);
    expect(await success(person.cookie)).toContain(shown);
    for (const stranger of [undefined, (await signedIn("Someone Else")).cookie]) {
      const page = await success(stranger);
      expect(page).toContain("There is no CLI sign-in from this browser to report here.");
      expect(page).not.toContain("is signed in");
      expect(page).not.toContain(shown);
    }
    // A replayed approval changes nothing.
    const replay = await postJson("/api/cli-auth", { cliToken: shown, email: person.email, idToken }, { cookie: person.cookie, from: origin });
    expect(await replay.json()).toEqual({ success: false, error: "That code has already been used. If your terminal is still waiting, run academy login again." });

    await allowPoll(cli.device_code);
    const granted = await poll(cli.device_code);
    expect(granted.status).toBe(200);
    expect(await success(person.cookie)).toContain("The Academy CLI is signed in");
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
    const { success, next } = (await denied.json()) as { success: boolean; next: string };
    expect(success).toBe(true);
    const page = await (await send(next, { cookie: person.cookie })).text();
    expect(page).toContain("CLI sign-in denied");
    expect(page).toContain(`You denied code <code class="font-mono">${cli.user_code.slice(0, 4)}-${cli.user_code.slice(4)}</code>`);
    await allowPoll(cli.device_code);
    expect(await (await poll(cli.device_code)).json()).toMatchObject({ error: "access_denied" });
  });

  it("refuses a forged or foreign id token, one for another code or without its session's cookie, another person's e-mail, an unknown or expired code and another site, each with its message", async () => {
    const [person, other] = [await signedIn(), await signedIn("Someone Else")];
    const cli = await startCliLogin();
    const idToken = await pageIdToken(person.cookie, cli.user_code);
    const otherToken = await pageIdToken(other.cookie, cli.user_code);
    const decide = async (body: object, from = origin, cookie: string | null = person.cookie) => {
      const response = await postJson("/api/cli-auth", body, { cookie: cookie ?? undefined, from });
      return { status: response.status, body: await response.json() };
    };
    const [header, payload] = idToken.split(".");
    const forged = `${header}.${payload}.${Buffer.from("not the signature").toString("base64url")}`;
    const signedOut = "Your sign-in on this page has expired. Reload the page, sign in again if asked, and approve once more.";

    expect(await decide({ cliToken: cli.user_code, email: person.email, idToken: forged })).toEqual({ status: 400, body: { success: false, error: signedOut } });
    // Another person's page token, sent with this person's cookie: the token's session is not this browser's.
    expect(await decide({ cliToken: cli.user_code, email: other.email, idToken: otherToken })).toEqual({ status: 400, body: { success: false, error: signedOut } });
    // The right token without the session's cookie, or with a bearer token in its place.
    expect(await decide({ cliToken: cli.user_code, email: person.email, idToken }, origin, null)).toEqual({ status: 400, body: { success: false, error: signedOut } });
    expect(await decide({ cliToken: cli.user_code, email: person.email, idToken }, origin, "theme=dark")).toEqual({ status: 400, body: { success: false, error: signedOut } });
    expect(await decide({ cliToken: cli.user_code, email: other.email, idToken: otherToken }, origin, other.cookie.replace(/session_token=[^;]+/, "session_token=forged"))).toEqual({
      status: 400,
      body: { success: false, error: signedOut },
    });
    expect(await decide({ cliToken: cli.user_code, email: other.email, idToken }, origin)).toEqual({
      status: 400,
      body: { success: false, error: "The e-mail address sent does not match the account signed in on this page. Reload the page and try again." },
    });
    // The page's token approves only the code it was shown with.
    const another = await startCliLogin();
    expect(await decide({ cliToken: another.user_code, email: person.email, idToken })).toEqual({
      status: 400,
      body: { success: false, error: "This page was opened for another code. Open the link your terminal shows, or run academy login again." },
    });
    const [spared] = await t.database.db.select().from(deviceCode).where(eq(deviceCode.deviceCode, another.device_code));
    expect(spared).toMatchObject({ status: "pending", userId: null });
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

  it("sends a signed-out visitor to sign in for the CLI first, showing its code, and back to the approval afterwards", async () => {
    const cli = await startCliLogin();
    const shown = `${cli.user_code.slice(0, 4)}-${cli.user_code.slice(4)}`;
    const page = await (await send(`/login?cliToken=${shown}`)).text();
    expect(page).toContain(`name="redirectTo" value="/login?cliToken=${shown}"`);
    expect(page).toContain("<title>Sign in the Academy CLI");
    expect(page).toContain("The academy command in your terminal asked to sign in.");
    expect(page).toContain(shown);
    expect(page).not.toContain("Welcome back");
    // Creating an account instead keeps to the CLI, and its code.
    const signup = await (await send(`/login?mode=signup&redirectTo=${encodeURIComponent(`/login?cliToken=${shown}`)}`)).text();
    expect(signup).toContain("Create your account for the Academy CLI");
    expect(signup).toContain(shown);
    // A malformed code is not shown as one to compare.
    for (const path of ["/login?cliToken=%3Cb%3Enope", `/login?redirectTo=${encodeURIComponent("/login?cliToken=%ZZ")}`]) {
      const odd = await send(path);
      expect(odd.status, path).toBe(200);
      const html = await odd.text();
      expect(html, path).toContain("Sign in the Academy CLI");
      expect(html, path).not.toContain("Check that your terminal shows this code");
    }
  });

  it("tells a visitor who decided nothing here how to sign the CLI in, not that it is signed in", async () => {
    const person = await signedIn();
    for (const [path, cookie] of [["/cli-auth-success", undefined], ["/cli-auth-success", person.cookie], ["/cli-auth-success?outcome=forged", person.cookie], ["/cli-auth-success?denied=1", undefined]] as const) {
      const page = await (await send(path, { cookie })).text();
      expect(page, path).toContain("There is no CLI sign-in from this browser to report here.");
      expect(page, path).toContain("Run <code class=\"font-mono\">academy login</code> in your terminal");
      expect(page, path).not.toContain("is signed in");
      expect(page.includes("Settings → Signed-in devices"), path).toBe(cookie !== undefined);
    }
  });
});

describe("refusals on the approval page and /api/cli-auth", () => {
  it("treats a NUL or a malformed code as one we did not issue, on the page and on /api/cli-auth, in the production configuration too", async () => {
    const person = await signedIn();
    const idToken = await pageIdToken(person.cookie, (await startCliLogin()).user_code);
    const production = createHttpApp({ ...t.deps, production: true });
    for (const app of [t.app, production]) {
      for (const code of ["%00", "AB%00CD-EFGH", "%F0%9F%8E%93", "x".repeat(300), "ABCD-EFG1"]) {
        const page = await send(`/login?cliToken=${code}`, { cookie: person.cookie, app });
        expect(page.status, code).toBe(200);
        expect(await page.text()).toContain("That code is not one we issued.");
      }
      for (const cliToken of ["\u0000", "ABCD\u0000EFGH", "🎓🎓🎓🎓"]) {
        const answer = await send("/api/cli-auth", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ cliToken, email: person.email, idToken }),
          cookie: person.cookie,
          from: origin,
          app,
        });
        expect(answer.status).toBe(400);
        expect(await answer.json()).toEqual({ success: false, error: "That code is not one we issued. Check it against your terminal, or run academy login again." });
      }
    }
  });

  it("answers the approval form without JavaScript with the refusal's status and its message, not a server error", async () => {
    const person = await signedIn();
    const cli = await startCliLogin();
    const idToken = await pageIdToken(person.cookie, cli.user_code);
    const form = (fields: Record<string, string>) =>
      send(`/login?cliToken=${cli.user_code}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html" },
        body: new URLSearchParams(fields).toString(),
        cookie: person.cookie,
        from: origin,
      });
    const cases: [Record<string, string>, number, string][] = [
      [{ intent: "cli-approve", cliToken: cli.user_code, email: person.email, idToken: "forged" }, 400, "Your sign-in on this page has expired."],
      [{ intent: "cli-approve", cliToken: "ZZZZ-ZZZZ", email: person.email, idToken }, 400, "That code is not one we issued."],
      [{ intent: "cli-deny", cliToken: cli.user_code, email: "someone@example.com", idToken }, 400, "The e-mail address sent does not match"],
      [{ intent: "cli-approve", cliToken: (await startCliLogin()).user_code, email: person.email, idToken }, 400, "This page was opened for another code."],
    ];
    for (const [fields, status, message] of cases) {
      const response = await form(fields);
      expect(response.status, message).toBe(status);
      expect(response.headers.get("cache-control"), message).toBe("private, no-store");
      expect(await response.text()).toContain(message);
    }
    const nul = await form({ intent: "cli-approve", cliToken: "\u0000", email: person.email, idToken });
    expect(nul.status).toBe(400);
    expect(await nul.text()).toContain("The form contains a NUL character");
    const [untouched] = await t.database.db.select().from(deviceCode).where(eq(deviceCode.deviceCode, cli.device_code));
    expect(untouched).toMatchObject({ status: "pending", userId: null });
    const approved = (await form({ intent: "cli-approve", cliToken: cli.user_code, email: person.email, idToken })).headers.get("location") ?? "";
    expect(approved).toMatch(/^\/cli-auth-success\?outcome=/);
    expect(await (await send(approved, { cookie: person.cookie })).text()).toContain("Academy CLI approved");
  });

  it("keeps the approval page, which carries the session's idToken, out of every cache", async () => {
    const person = await signedIn();
    const page = await send(`/login?cliToken=${(await startCliLogin()).user_code}`, { cookie: person.cookie });
    expect(page.headers.get("cache-control")).toBe("private, no-store");
  });
});

describe("guessing CLI codes", () => {
  it("limits code look-ups per person, and a classroom behind one address still signs in", async () => {
    const address = "10.50.0.1";
    const [guesser, classmate] = [await signedIn(), await signedIn("Class Mate")];
    const cli = await startCliLogin();
    const idToken = /name="idToken" value="([^"]+)"/.exec(await (await send(`/login?cliToken=${cli.user_code}`, { cookie: guesser.cookie, address })).text())?.[1] ?? "";
    for (const letter of "ABCDEFGHJKLMNPQRSTUVWXYZ23456") {
      const page = await send(`/login?cliToken=ZZZZ-ZZZ${letter}`, { cookie: guesser.cookie, address });
      expect(page.status).toBe(200);
    }
    const limited = await send(`/login?cliToken=${cli.user_code}`, { cookie: guesser.cookie, address });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    const html = await limited.text();
    expect(html).toContain("Too many CLI codes were tried from here.");
    // Nothing about the device that asked is shown to a guesser.
    expect(html).not.toContain("Academy CLI on Linux");
    const approval = await postJson("/api/cli-auth", { cliToken: cli.user_code, email: guesser.email, idToken }, { cookie: guesser.cookie, from: origin, address });
    expect(approval.status).toBe(429);
    expect(Number(approval.headers.get("retry-after"))).toBeGreaterThan(0);

    // The classmate at the same address approves their own code as usual.
    const own = await startCliLogin();
    const ownToken = await pageIdToken(classmate.cookie, own.user_code);
    expect(await (await postJson("/api/cli-auth", { cliToken: own.user_code, email: classmate.email, idToken: ownToken }, { cookie: classmate.cookie, from: origin, address })).json()).toMatchObject({ success: true });
  });

  it("limits look-ups per address generously: 600 in 15 minutes, then none", async () => {
    const now = new Date();
    const address = "10.50.0.2";
    for (let i = 0; i < 600; i++) {
      expect(await t.identity.cliLogin.pending("ZZZZ-ZZZZ", now, { userId: `person-${i}`, address })).toEqual({ problem: expect.stringContaining("not one we issued") });
    }
    expect(await t.identity.cliLogin.pending("ZZZZ-ZZZZ", now, { userId: "person-601", address })).toMatchObject({ problem: expect.stringContaining("Too many CLI codes") });
    expect(await t.identity.cliLogin.pending("ZZZZ-ZZZZ", now, { userId: "person-601", address: "10.50.0.3" })).toEqual({ problem: expect.stringContaining("not one we issued") });
  });
});

/** academy login against this app, on a clock the test moves: each of the CLI's waits passes at once. */
function cliAgainstApp(answer?: (poll: number) => Response | undefined) {
  vi.useFakeTimers({ toFake: ["Date"], now: new Date() });
  const polls: { at: number; status: number; error?: string }[] = [];
  vi.stubGlobal("fetch", async (input: string, init: RequestInit) => {
    const request = new Request(input, init);
    const isPoll = request.url.endsWith("/api/auth/device/token");
    const response = (isPoll && answer?.(polls.length + 1)) || (await t.app.fetch(request, { incoming: { socket: { remoteAddress: "10.60.0.3" } } }));
    if (isPoll) polls.push({ at: Date.now(), status: response.status, error: ((await response.clone().json()) as { error?: string }).error });
    return response;
  });
  const clock = { now: () => Date.now(), sleep: async (ms: number) => void vi.setSystemTime(Date.now() + ms) };
  return { polls, run: () => login(origin, { browser: false, json: false }, clock) };
}

describe("polling for the CLI's token", () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("keeps answering everyone behind one address: after 130 polls from it, a new login's first poll is pending, not 429", async () => {
    const address = "10.60.0.1";
    const waiting = await startCliLogin(address);
    for (let i = 0; i < 130; i++) {
      await allowPoll(waiting.device_code);
      const answer = await poll(waiting.device_code, address);
      expect(answer.status, `poll ${i + 1}`).toBe(400);
      expect(await answer.json()).toMatchObject({ error: "authorization_pending" });
    }
    const next = await startCliLogin(address);
    expect(await (await poll(next.device_code, address)).json()).toMatchObject({ error: "authorization_pending" });
  });

  it("tells a code polled more often than its life allows to slow down, and no other code", async () => {
    const address = "10.60.0.2";
    const greedy = await startCliLogin(address);
    for (let i = 0; i < 240; i++) {
      await allowPoll(greedy.device_code);
      expect((await (await poll(greedy.device_code, address)).json()) as object, `poll ${i + 1}`).toMatchObject({ error: "authorization_pending" });
    }
    await allowPoll(greedy.device_code);
    expect(await (await poll(greedy.device_code, address)).json()).toMatchObject({ error: "slow_down" });
    const other = await startCliLogin(address);
    expect(await (await poll(other.device_code, address)).json()).toMatchObject({ error: "authorization_pending" });
  });

  it("academy login left waiting for ten minutes says the code expired", async () => {
    const cli = cliAgainstApp();
    const started = Date.now();
    await expect(cli.run()).rejects.toThrow("The code expired before it was approved. Run academy login for a new one.");
    expect(cli.polls.length).toBeGreaterThanOrEqual(110);
    expect(cli.polls.every((p) => p.status === 400 && p.error === "authorization_pending")).toBe(true);
    expect(Date.now() - started).toBe(10 * 60 * 1000);
  });

  it("academy login waits out a 429 for its Retry-After and adds five seconds to its interval at each slow_down, then says the code expired", async () => {
    const cli = cliAgainstApp((n) => {
      if (n === 2) return Response.json({ message: "Too many requests." }, { status: 429, headers: { "Retry-After": "30" } });
      if (n === 4) return Response.json({ error: "slow_down", error_description: "Polling too fast." }, { status: 400 });
      return undefined;
    });
    const started = Date.now();
    await expect(cli.run()).rejects.toThrow("The code expired before it was approved.");
    const gaps = cli.polls.slice(0, 6).map((p, i, all) => (p.at - (i === 0 ? started : (all[i - 1]?.at ?? 0))) / 1000);
    expect(gaps).toEqual([5, 5, 30, 5, 10, 10]);
  });
});

describe("Better Auth's own limits", () => {
  it("send the standard Retry-After with their 429, as ours do", async () => {
    for (const [path, address] of [["/send-verification-email", "10.70.0.1"], ["/request-password-reset", "10.70.0.2"]] as const) {
      let last: Response | undefined;
      for (let i = 0; i <= addressLimits[path].max; i++) {
        last = await postJson(`/api/auth${path}`, { email: `nobody-${i}@example.com`, redirectTo: "/reset-password" }, { address });
      }
      expect(last?.status, path).toBe(429);
      expect(Number(last?.headers.get("retry-after")), path).toBeGreaterThan(0);
    }
  });
});

describe("the API's door", () => {
  it("answers 401 in the one error shape without a token or with an unknown one, and serves its OpenAPI document and the catalogue to anyone", async () => {
    const catalogue = await send("/api/v1/courses");
    expect(catalogue.status).toBe(200);
    expect(((await catalogue.json()) as { courses: { enrolled: boolean }[] }).courses.every((c) => !c.enrolled)).toBe(true);
    const none = await send("/api/v1/me");
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ error: { code: "unauthorized", message: "Sign in first: run academy login, or send a token as Authorization: Bearer <token>." } });
    expect((await send("/api/v1/courses", { headers: { authorization: "Bearer nope" } })).status).toBe(401);
    const doc = (await (await send("/api/v1/openapi.json")).json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/me", "/courses", "/session"]));
  });
});
