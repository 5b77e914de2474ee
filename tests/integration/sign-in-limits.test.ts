// The limits on sign-in, sign-up and reset links as Better Auth's HTTP handler applies them: failed
// sign-ins counted per account and per known device, and per-address limits a solved
// proof-of-work challenge gets past (docs/decisions/027).
import { randomBytes } from "node:crypto";
import { and, eq, like, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { encodeProof, proofHeader } from "../../common/proof-of-work.ts";
import { clientIpHeader } from "../../server/auth/index.ts";
import { networkLimits } from "../../server/auth/network-limits.ts";
import { decodeProof, proofChallenge, proofOfWork } from "../../server/auth/proof-of-work.ts";
import { session, throttles } from "../../server/db/schema.ts";
import { solveProof } from "../support/proof-of-work.ts";
import { identitySuite, testAuthSecret, testCatalog } from "./helpers.ts";
import { pgliteCopy } from "../support/database-templates.ts";

const suite = identitySuite(() => pgliteCopy("migrated"), testCatalog([]));
const password = "a good long password";
const freshAddress = () => `198.18.${randomBytes(2).join(".")}`;

/** A browser: its own address and the cookies Better Auth gave it. */
function browser(address = freshAddress()) {
  const cookies = new Map<string, string>();
  return {
    address,
    async post(path: string, body: object, proof?: string) {
      const headers = new Headers({ "content-type": "application/json", origin: "http://academy.test", [clientIpHeader]: address });
      if (cookies.size) headers.set("cookie", [...cookies].map(([name, value]) => `${name}=${value}`).join("; "));
      if (proof) headers.set(proofHeader, proof);
      const response = await suite.identity.auth.handler(new Request(`http://academy.test/api/auth${path}`, { method: "POST", headers, body: JSON.stringify(body) }));
      for (const cookie of response.headers.getSetCookie()) {
        const [pair = ""] = cookie.split(";");
        const at = pair.indexOf("=");
        cookies.set(pair.slice(0, at), pair.slice(at + 1));
      }
      return response;
    },
    signIn(email: string, guess = password, proof?: string) {
      return this.post("/sign-in/email", { email, password: guess }, proof);
    },
  };
}

/** Moves the address's counter for `path` on to its limit, as if a classroom had used it up. */
async function useUp(address: string, path: keyof typeof networkLimits) {
  const counted = await suite.db
    .update(throttles)
    .set({ count: networkLimits[path].max })
    .where(and(like(throttles.key, `%${address}%`), like(throttles.key, `%${path}`)))
    .returning({ key: throttles.key });
  expect(counted).toHaveLength(1);
}

describe("failed sign-ins, counted per account", () => {
  it("never locks out someone who signs in again and again with the right password", async () => {
    const { email } = await suite.signUp();
    const statuses = [];
    for (let i = 0; i < 14; i++) statuses.push((await browser().signIn(email)).status);
    expect(statuses).toEqual(statuses.map(() => 200));
  });

  it("locks the account for strangers after ten failures, with the spec's words, but not for a device it signed in on before", async () => {
    const { email } = await suite.signUp();
    const own = browser();
    expect((await own.signIn(email)).status).toBe(200);

    const guesses = [];
    for (let i = 0; i < 11; i++) guesses.push((await browser().signIn(email, `guess number ${i}`)).status);
    expect(guesses).toEqual([...Array<number>(10).fill(401), 429]);
    const stranger = await browser().signIn(email);
    expect(stranger.status).toBe(429);
    expect(await stranger.json()).toMatchObject({ code: "RATE_LIMITED" });

    // The owner's own browser still signs in with the right password: its failures are its own.
    expect((await own.signIn(email)).status).toBe(200);
    // And its own typing mistakes are limited too, on its own count.
    const typos = [];
    for (let i = 0; i < 11; i++) typos.push((await own.signIn(email, "a good long pasword")).status);
    expect(typos).toEqual([...Array<number>(10).fill(401), 429]);
  });

  it("does not take a device cookie signed for another account, or not signed at all", async () => {
    const victim = await suite.signUp();
    const attacker = await suite.signUp();
    const own = browser();
    expect((await own.signIn(attacker.email)).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await browser().signIn(victim.email, `guess ${i}`)).status).toBe(401);
    // The attacker's cookie is signed, but says it signed in to another account: it counts as a stranger.
    expect((await own.signIn(victim.email, "guess 11")).status).toBe(429);
  });

  it("clears the count when the right password comes, so a few typos never add up over the day", async () => {
    const { email } = await suite.signUp();
    const device = browser();
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 6; i++) expect((await device.signIn(email, "a good long pasword")).status).toBe(401);
      expect((await device.signIn(email)).status).toBe(200);
    }
  });
});

describe("signed-in devices", () => {
  it("keeps one session a browser: signing in again there replaces the one it had, another browser adds its own", async () => {
    const { id, email } = await suite.signUp();
    const sessionsOf = async () => (await suite.db.select({ deviceId: session.deviceId }).from(session).where(eq(session.userId, id))).map((row) => row.deviceId);
    // The sign-up's own session, on the device that made the account.
    expect(await sessionsOf()).toHaveLength(1);
    const laptop = browser();
    for (let i = 0; i < 3; i++) expect((await laptop.signIn(email)).status).toBe(200);
    expect(await sessionsOf()).toHaveLength(2);
    expect((await browser().signIn(email)).status).toBe(200);
    const devices = await sessionsOf();
    expect(devices).toHaveLength(3);
    expect(new Set(devices).size).toBe(3);
  });
});

describe("a busy network past its per-address limit", () => {
  it("is asked for a proof of work instead of being locked out, and the wait is said in minutes", async () => {
    const { email } = await suite.signUp();
    const classroom = browser();
    expect((await classroom.signIn(email)).status).toBe(200);
    await useUp(classroom.address, "/sign-in/email");

    const refused = await classroom.signIn(email);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(14 * 60);
    const body = (await refused.json()) as { code: string; message: string; challenge: unknown };
    expect(body).toMatchObject({ code: "NETWORK_LIMIT", message: "Too many sign-ins from this network. Try again in 15 minutes." });
    const challenge = proofChallenge.parse(body.challenge);

    const proof = solveProof(challenge);
    expect((await classroom.signIn(email, password, proof)).status).toBe(200);
    // A solution lets one request through, however often it is sent.
    expect((await classroom.signIn(email, password, proof)).status).toBe(429);
  });

  it("refuses a solution that is forged, tampered with or expired", async () => {
    const { email } = await suite.signUp();
    const network = browser();
    expect((await network.signIn(email)).status).toBe(200);
    await useUp(network.address, "/sign-in/email");
    const now = new Date();
    const forged = solveProof(proofOfWork("another server's secret").challenge(now, 1000));
    const ours = proofOfWork(testAuthSecret);
    const expired = solveProof(ours.challenge(new Date(now.getTime() - 6 * 60_000), 1000));
    const real = ours.challenge(now, 1000);
    const solved = decodeProof(solveProof(real));
    const tampered = solved && encodeProof({ ...solved, number: solved.number + 1 });
    for (const proof of [forged, expired, tampered ?? "", "not base64 at all", btoa("{}")]) {
      expect((await network.signIn(email, password, proof)).status, proof).toBe(429);
    }
    expect((await network.signIn(email, password, solveProof(real))).status).toBe(200);
  });

  it("gets sign-ups and reset links through with a solution too, each refusal in its own words", async () => {
    const network = browser();
    expect((await network.post("/sign-up/email", { name: "First", email: `first-${randomBytes(4).toString("hex")}@example.com`, password })).status).toBe(200);
    await useUp(network.address, "/sign-up/email");
    const signUp = { name: "Late Student", email: `late-${randomBytes(4).toString("hex")}@example.com`, password };
    const refused = await network.post("/sign-up/email", signUp);
    const body = (await refused.json()) as { message: string; challenge: unknown };
    expect(body.message).toBe("Too many accounts were created from this network. Try again in 15 minutes.");
    expect((await network.post("/sign-up/email", signUp, solveProof(proofChallenge.parse(body.challenge)))).status).toBe(200);

    const reset = { email: signUp.email, redirectTo: "/reset-password" };
    expect((await network.post("/request-password-reset", reset)).status).toBe(200);
    await useUp(network.address, "/request-password-reset");
    const again = await network.post("/request-password-reset", reset);
    const answer = (await again.json()) as { message: string; challenge: unknown };
    expect(answer.message).toBe("Too many password reset links were asked for from this network. Try again in 15 minutes.");
    expect((await network.post("/request-password-reset", reset, solveProof(proofChallenge.parse(answer.challenge)))).status).toBe(200);
  });

  it("says the wait left in the window, not the whole window", async () => {
    const { email } = await suite.signUp();
    const network = browser();
    expect((await network.signIn(email)).status).toBe(200);
    await useUp(network.address, "/sign-in/email");
    await suite.db
      .update(throttles)
      .set({ windowStartedAt: sql`now() - interval '11 minutes 30 seconds'` })
      .where(like(throttles.key, `%${network.address}%`));
    const refused = await network.signIn(email);
    expect(((await refused.json()) as { message: string }).message).toBe("Too many sign-ins from this network. Try again in 4 minutes.");
  });
});
