import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { session } from "../../server/db/schema.ts";
import { databaseKinds, identitySuite, postToAuthEndpoint, testCatalog } from "./helpers.ts";

/** The part of a session answer the pages use, from Better Auth's own getSession. */
async function betterAuthSays(suite: ReturnType<typeof identitySuite>, headers: Headers) {
  const found = await suite.identity.auth.api.getSession({ headers });
  return found && { user: { id: found.user.id, name: found.user.name, email: found.user.email, image: found.user.image ?? null, emailVerified: found.user.emailVerified }, session: { id: found.session.id } };
}

describe.each(databaseKinds)("a page request's session on $name", ({ open }) => {
  const suite = identitySuite(open, testCatalog([]));

  /** A person signed in through Better Auth's HTTP endpoint: the cookie their browser holds, and the session's token. */
  async function signedIn() {
    const person = await suite.signUp("Page Priya");
    const signIn = await postToAuthEndpoint(suite.identity, "/sign-in/email", { email: person.email, password: "a good long password" });
    expect(signIn.status).toBe(200);
    // Signing up signed them in too: the session is the one whose token the cookie carries.
    const cookie = signIn.cookie.split("; ").find((pair) => pair.startsWith("better-auth.session_token=")) ?? "";
    const value = decodeURIComponent(cookie.slice(cookie.indexOf("=") + 1));
    const [row] = await suite.db.select().from(session).where(eq(session.token, value.slice(0, value.lastIndexOf("."))));
    if (!row) throw new Error("no session was made");
    return { person, cookie, token: row.token, sessionId: row.id };
  }

  it("is the person and session Better Auth's getSession finds for the same cookie", async () => {
    const { person, cookie, sessionId } = await signedIn();
    const headers = new Headers({ cookie: `theme=dark; ${cookie}` });
    const found = await suite.identity.pageSession(headers);
    expect(found).toEqual({ user: { id: person.id, name: "Page Priya", email: person.email, image: null, emailVerified: false }, session: { id: sessionId } });
    expect(found).toEqual(await betterAuthSays(suite, headers));
  });

  it("has nobody without a session cookie, or with one whose signature is not the secret's", async () => {
    const { cookie, token } = await signedIn();
    expect(await suite.identity.pageSession(new Headers())).toBeNull();
    expect(await suite.identity.pageSession(new Headers({ cookie: "theme=dark" }))).toBeNull();
    const [name = "", value = ""] = cookie.split("=");
    const signature = decodeURIComponent(value).slice(token.length + 1);
    const forgeries = [
      `${token}.${"A".repeat(43)}=`,
      `${token}x.${signature}`,
      `${token}.${signature.slice(0, -2)}`,
      token,
      `.${signature}`,
    ];
    for (const forged of forgeries) {
      const headers = new Headers({ cookie: `${name}=${encodeURIComponent(forged)}` });
      expect(await suite.identity.pageSession(headers), forged).toBeNull();
      expect(await betterAuthSays(suite, headers), forged).toBeNull();
    }
  });

  it("refuses a session signed out elsewhere on the very next request: nothing is cached", async () => {
    const { cookie, sessionId } = await signedIn();
    const headers = new Headers({ cookie });
    expect(await suite.identity.pageSession(headers)).not.toBeNull();
    await suite.db.delete(session).where(eq(session.id, sessionId));
    expect(await suite.identity.pageSession(headers)).toBeNull();
  });

  it("leaves an expired session to Better Auth, which deletes it, and one due for its refresh, which it extends", async () => {
    const context = await suite.identity.auth.$context;
    const { lifetimeMs, refreshAfterMs } = { lifetimeMs: context.sessionConfig.expiresIn * 1000, refreshAfterMs: context.sessionConfig.updateAge * 1000 };

    const expired = await signedIn();
    await suite.db.update(session).set({ expiresAt: new Date(Date.now() - 60_000) }).where(eq(session.id, expired.sessionId));
    expect(await suite.identity.pageSession(new Headers({ cookie: expired.cookie }))).toBeNull();
    expect(await suite.db.select().from(session).where(eq(session.id, expired.sessionId))).toEqual([]);

    const due = await signedIn();
    // Made more than a day ago: the daily refresh is due.
    const dueAt = new Date(Date.now() + lifetimeMs - refreshAfterMs - 60_000);
    await suite.db.update(session).set({ expiresAt: dueAt }).where(eq(session.id, due.sessionId));
    expect((await suite.identity.pageSession(new Headers({ cookie: due.cookie })))?.session.id).toBe(due.sessionId);
    const [refreshed] = await suite.db.select().from(session).where(eq(session.id, due.sessionId));
    expect(refreshed?.expiresAt.getTime()).toBeGreaterThan(Date.now() + lifetimeMs - 60_000);
  });

  it("leaves two session cookies at once to Better Auth, and answers as it does", async () => {
    const first = await signedIn();
    const second = await signedIn();
    const headers = new Headers({ cookie: `${first.cookie}; ${second.cookie}` });
    expect(await suite.identity.pageSession(headers)).toEqual(await betterAuthSays(suite, headers));
  });
});
