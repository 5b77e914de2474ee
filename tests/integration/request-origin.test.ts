import { randomBytes } from "node:crypto";
import { and, count, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addressLimits } from "../../server/auth/index.ts";
import { throttles, user } from "../../server/db/schema.ts";
import { createHttpApp } from "../../server/http/app.ts";
import { startTestApp, type TestApp } from "./helpers.ts";
import type { ProofChallenge } from "../../common/proof-of-work.ts";
import { solveProof } from "../support/proof-of-work.ts";

/** The production configuration as deployed: nginx terminates TLS and forwards plain http to 127.0.0.1. */
const publicOrigin = "https://academy.example";
const internalOrigin = "http://127.0.0.1:3000";

let t: TestApp;
let behindProxy: ReturnType<typeof createHttpApp>;
beforeAll(async () => {
  t = await startTestApp({ publicUrl: publicOrigin });
  behindProxy = createHttpApp({ ...t.deps, production: true, proxyHops: 1 });
});
afterAll(() => t.close());

const socket = (remoteAddress: string) => ({ incoming: { socket: { remoteAddress } } });
const freshAddress = () => `203.0.${randomBytes(2).join(".")}`;

/** A form post as the browser sends it through the proxy: its own https origin, the proxy's http URL. */
function postForm(
  path: string,
  fields: Record<string, string>,
  { origin = publicOrigin as string | null, secFetchSite = "same-origin" as string | null, address = freshAddress() } = {},
) {
  const headers = new Headers({ "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": `6.6.6.6, ${address}` });
  if (origin) headers.set("origin", origin);
  if (secFetchSite) headers.set("sec-fetch-site", secFetchSite);
  return behindProxy.fetch(
    new Request(`${internalOrigin}${path}`, { method: "POST", headers, body: new URLSearchParams(fields), redirect: "manual" }),
    socket("127.0.0.1"),
  );
}

function postJson(path: string, body: object, address: string) {
  return behindProxy.fetch(
    new Request(`${internalOrigin}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: publicOrigin, "x-forwarded-for": address },
      body: JSON.stringify(body),
    }),
    socket("127.0.0.1"),
  );
}

const userCount = async () => (await t.database.db.select({ n: count() }).from(user))[0]?.n ?? 0;
const email = () => `origin-${randomBytes(4).toString("hex")}@example.com`;

describe("forms behind a TLS-terminating proxy", () => {
  it("signs up through the form when the browser's https origin is PUBLIC_URL and the server sees http", async () => {
    const response = await postForm("/login", { intent: "signup", name: "Asha Rao", email: email(), password: "a good long password" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/verify-email");
    expect(response.headers.getSetCookie().join()).toMatch(/__Secure-/);
  });

  it("refuses, with 403 and no change, a form sent from another site or with no origin at all", async () => {
    const before = await userCount();
    const fields = { intent: "signup", name: "Mallory", email: email(), password: "a good long password" };
    for (const attempt of [
      { origin: "https://evil.example", secFetchSite: "cross-site" },
      { origin: "http://academy.example", secFetchSite: "cross-site" },
      { origin: "null", secFetchSite: "cross-site" },
      { origin: null, secFetchSite: "cross-site" },
      { origin: null, secFetchSite: null },
    ]) {
      const response = await postForm("/login", fields, attempt);
      expect(response.status, JSON.stringify(attempt)).toBe(403);
      expect(await response.text()).toContain("sent from another site");
    }
    expect(await userCount()).toBe(before);
  });

  it("accepts a form with no Origin header when the browser marks it same-origin", async () => {
    const response = await postForm("/forgot-password", { email: email() }, { origin: null, secFetchSite: "same-origin" });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("If an account uses that address");
  });
});

describe("a classroom behind one address", () => {
  it("signs forty people up and in, typing mistakes included, within the quarter of an hour", async () => {
    const address = freshAddress();
    const people = Array.from({ length: 40 }, () => email());
    // Everyone at once, as a class does when told to sign up.
    const signUps = await Promise.all(
      people.map((person) => postJson("/api/auth/sign-up/email", { name: "Student", email: person, password: "a good long password" }, address)),
    );
    expect(signUps.map((response) => response.status)).toEqual(people.map(() => 200));
    const signIns = await Promise.all(
      people.map(async (person) => [
        (await postForm("/login", { intent: "signin", email: person, password: "a good long pasword" }, { address })).status,
        (await postForm("/login", { intent: "signin", email: person, password: "a good long password" }, { address })).status,
      ]),
    );
    expect(signIns.map(([typo]) => typo)).toEqual(people.map(() => 401));
    expect(signIns.map(([signIn]) => signIn)).not.toContain(429);
  });

  it("gets a new window once the old one is over, however busy the address stayed", async () => {
    const address = freshAddress();
    const { max } = addressLimits["/request-password-reset"];
    for (let i = 0; i < max; i++) expect((await postForm("/forgot-password", { email: email() }, { address })).status).toBe(200);
    expect((await postForm("/forgot-password", { email: email() }, { address })).status).toBe(429);
    // The window started a quarter of an hour ago, and requests kept coming right up to now.
    await t.database.db
      .update(throttles)
      .set({ windowStartedAt: sql`now() - interval '15 minutes 1 second'` })
      .where(like(throttles.key, `%${address}%`));
    expect((await postForm("/forgot-password", { email: email() }, { address })).status).toBe(200);
  });
});

/**
 * Counts, on the address's own counter for `path`, the requests that would leave `left` of `max`:
 * the counter must exist already, made by the requests the test sent. A password check costs a
 * tenth of a second of CPU on purpose, so sending the other hundred and fifty would test the clock.
 */
async function useUpAllBut(left: number, path: string, address: string, max: number) {
  const counted = await t.database.db
    .update(throttles)
    .set({ count: max - left })
    .where(and(like(throttles.key, `%${address}%`), like(throttles.key, `%${path}`)))
    .returning({ key: throttles.key });
  expect(counted).toHaveLength(1);
}

describe("per-address limits reach the forms", () => {
  it("says, with the real wait, that the network used up its sign-ups through the JSON API the address used up its sign-ups through the JSON API", async () => {
    const address = freshAddress();
    const { max } = addressLimits["/sign-up/email"];
    for (let i = 0; i < 2; i++) {
      expect((await postJson("/api/auth/sign-up/email", { name: "Bulk", email: email(), password: "a good long password" }, address)).status).toBe(200);
    }
    await useUpAllBut(2, "/sign-up/email", address, max);
    for (let i = 0; i < 2; i++) {
      expect((await postJson("/api/auth/sign-up/email", { name: "Bulk", email: email(), password: "a good long password" }, address)).status).toBe(200);
    }
    expect((await postJson("/api/auth/sign-up/email", { name: "Bulk", email: email(), password: "a good long password" }, address)).status).toBe(429);
    const before = await userCount();
    const response = await postForm("/login", { intent: "signup", name: "Bulk", email: email(), password: "a good long password" }, { address });
    expect(response.status).toBe(429);
    expect(await response.text()).toMatch(/Too many accounts were created from this network. Try again in 1[45] minutes./);
    expect(await userCount()).toBe(before);
  });

  it("says, with the real wait, that the network used up its sign-ins, after as many through the form as the API allows", async () => {
    const address = freshAddress();
    const { max } = addressLimits["/sign-in/email"];
    const failThroughTheForm = async () => {
      const response = await postForm("/login", { intent: "signin", email: email(), password: "not the password" }, { address });
      expect(response.status).toBe(401);
    };
    await failThroughTheForm();
    await failThroughTheForm();
    await useUpAllBut(2, "/sign-in/email", address, max);
    await failThroughTheForm();
    await failThroughTheForm();
    const response = await postForm("/login", { intent: "signin", email: email(), password: "not the password" }, { address });
    expect(response.status).toBe(429);
    expect(await response.text()).toMatch(/Too many sign-ins from this network. Try again in 1[45] minutes./);
    expect((await postJson("/api/auth/sign-in/email", { email: email(), password: "not the password" }, address)).status).toBe(429);
  });

  it("lets a sign-in through the form past the network's limit when it carries a solved challenge", async () => {
    const address = freshAddress();
    const person = { email: email(), password: "a good long password" };
    expect((await postJson("/api/auth/sign-up/email", { name: "Late", ...person }, address)).status).toBe(200);
    await postForm("/login", { intent: "signin", email: email(), password: "not the password" }, { address });
    await useUpAllBut(0, "/sign-in/email", address, addressLimits["/sign-in/email"].max);
    const refused = await postJson("/api/auth/sign-in/email", person, address);
    expect(refused.status).toBe(429);
    const { challenge } = (await refused.json()) as { challenge: ProofChallenge };
    const response = await postForm("/login", { intent: "signin", ...person, proof: solveProof(challenge) }, { address });
    expect(response.status).toBe(302);
    expect(response.headers.getSetCookie().join()).toMatch(/session_token/);
  });

  it("says, with the real wait, that the network asked for too many reset links", async () => {
    const address = freshAddress();
    for (let i = 0; i < addressLimits["/request-password-reset"].max; i++) expect((await postForm("/forgot-password", { email: email() }, { address })).status).toBe(200);
    const response = await postForm("/forgot-password", { email: email() }, { address });
    expect(response.status).toBe(429);
    expect(await response.text()).toMatch(/Too many password reset links were asked for from this network. Try again in 1[45] minutes./);
  });

  it("counts the address the proxy appended, not the one the client wrote", async () => {
    const address = freshAddress();
    for (let i = 0; i < addressLimits["/request-password-reset"].max; i++) expect((await postForm("/forgot-password", { email: email() }, { address })).status).toBe(200);
    // Same client, a new made-up left-most entry each time: still the same client.
    const headers = { "content-type": "application/x-www-form-urlencoded", origin: publicOrigin, "x-forwarded-for": `${freshAddress()}, ${address}` };
    const response = await behindProxy.fetch(
      new Request(`${internalOrigin}/forgot-password`, { method: "POST", headers, body: new URLSearchParams({ email: email() }) }),
      socket("127.0.0.1"),
    );
    expect(response.status).toBe(429);
  });
});

const getDirect = (path: string, remoteAddress: string) => t.app.fetch(new Request(`${internalOrigin}${path}`), socket(remoteAddress));

/** A request that nginx on this machine forwarded to a development server: it connects from loopback. */
const viaProxy = (path: string, header: [string, string], proxyHops = 0) =>
  createHttpApp({ ...t.deps, production: false, proxyHops }).fetch(new Request(`${internalOrigin}${path}`, { headers: [header] }), socket("127.0.0.1"));

describe("development pages", () => {
  it("serves the mailbox, the sandbox and the Google stand-in only to this machine", async () => {
    expect((await getDirect("/dev/mailbox", "127.0.0.1")).status).toBe(200);
    expect((await getDirect("/dev/mailbox.json", "::1")).status).toBe(200);
    for (const path of ["/dev/mailbox", "/dev/mailbox.json", "/sandbox/checkout/order_anything", "/dev/google/authorize"]) {
      const response = await getDirect(path, "192.168.1.20");
      expect(response.status, path).toBe(403);
    }
  });

  it("does not count a request a proxy forwarded as this machine's, though the proxy runs on it", async () => {
    for (const path of ["/dev/mailbox", "/sandbox/checkout/order_anything", "/dev/google/authorize"]) {
      expect((await viaProxy(path, ["x-forwarded-for", "203.0.113.9"])).status, path).toBe(403);
      expect((await viaProxy(path, ["forwarded", "for=203.0.113.9;proto=https"])).status, path).toBe(403);
      expect((await viaProxy(path, ["x-real-ip", "203.0.113.9"])).status, path).toBe(403);
      // A trusted proxy's own entry is the client; one it appended to a loopback claim still is.
      expect((await viaProxy(path, ["x-forwarded-for", "127.0.0.1, 203.0.113.9"], 1)).status, path).toBe(403);
    }
    expect((await viaProxy("/dev/mailbox", ["x-forwarded-for", "127.0.0.5"], 1)).status).toBe(200);
  });
});
