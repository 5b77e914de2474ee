// Input a browser never sends, sent anyway: each case once answered 500 (and some changed things).
// Each must get a clear 4xx and leave the database as it was.
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientIpHeader } from "../../server/auth/index.ts";
import { feedback, notes, orders, session, user } from "../../server/db/schema.ts";
import type { SandboxGateway } from "../../server/payments/sandbox.ts";
import { startTestApp, type TestApp } from "./helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const origin = "http://academy.test";
const nul = "\u0000";

function send(path: string, init: RequestInit & { cookie?: string } = {}) {
  const headers = new Headers(init.headers);
  headers.set(clientIpHeader, `10.11.${randomBytes(2).join(".")}`);
  headers.set("origin", origin);
  if (init.cookie) headers.set("cookie", init.cookie);
  // From this machine: outside production the sandbox answers only loopback clients.
  return t.app.fetch(new Request(`${origin}${path}`, { ...init, headers, redirect: "manual" }), { incoming: { socket: { remoteAddress: "127.0.0.1" } } });
}

const form = (fields: Record<string, string>, cookie?: string) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
  cookie,
});

async function signedIn(password = "a good long password"): Promise<{ id: string; cookie: string }> {
  const email = `bad-${randomBytes(4).toString("hex")}@example.com`;
  const response = await send("/api/auth/sign-up/email", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "Ravi Kumar", email, password }),
  });
  expect(response.status).toBe(200);
  const cookie = response.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const { user: created } = (await response.json()) as { user: { id: string } };
  await t.database.db.update(user).set({ emailVerified: true }).where(eq(user.id, created.id));
  return { id: created.id, cookie };
}

const sandbox = () => t.payments.sandbox as SandboxGateway;

async function enrolled(cookie: string) {
  const started = await send("/courses/react-fundamentals/confirm", form({ intent: "pay", idempotencyKey: randomBytes(12).toString("hex") }, cookie));
  const providerOrderId = /^\/sandbox\/checkout\/(order_\w+)$/.exec(started.headers.get("location") ?? "")?.[1] as string;
  const fields = await sandbox().pay(providerOrderId, { outcome: "pay", method: "upi" });
  expect((await send("/api/payments/callback", form(fields))).status).toBe(303);
}

const expectClientError = (response: Response, label: string) => {
  expect(response.status, label).toBeGreaterThanOrEqual(400);
  expect(response.status, label).toBeLessThan(500);
};

describe("a NUL byte in text", () => {
  it("is refused in a profile name, a note, a review, a reset token and the payment callback, changing nothing", async () => {
    const { id, cookie } = await signedIn();
    expectClientError(await send("/profile", form({ intent: "name", name: `Ravi${nul}Kumar` }, cookie)), "profile name");
    expect((await t.database.db.select().from(user).where(eq(user.id, id)))[0]?.name).toBe("Ravi Kumar");

    const created = await send("/notes", form({ intent: "create" }, cookie));
    const noteId = new URL(created.headers.get("location") ?? "", origin).searchParams.get("note") ?? "";
    expect(noteId).toMatch(/^[0-9a-f-]{36}$/);
    const attempts: Record<string, string>[] = [{ title: `a${nul}b`, body: "x" }, { title: "t", body: `x${nul}y` }, { [`ti${nul}tle`]: "t", body: "y" }];
    for (const fields of attempts) {
      expectClientError(await send("/notes", form({ intent: "save", noteId, ...fields }, cookie)), `note ${JSON.stringify(fields)}`);
    }
    const [note] = await t.database.db.select().from(notes).where(eq(notes.id, noteId));
    expect(note?.updatedAt.getTime()).toBe(note?.createdAt.getTime());

    await enrolled(cookie);
    const review = await send("/course/react-fundamentals/feedback", form({ intent: "save", rating: "4", comment: `Great${nul}course` }, cookie));
    expectClientError(review, "review");
    expect(await t.database.db.select().from(feedback).where(eq(feedback.userId, id))).toHaveLength(0);

    expect((await send(`/reset-password?token=abc${nul}def`)).status, "reset token in the link").toBe(200);
    expectClientError(await send("/reset-password", form({ token: `abc${nul}def`, password: "another long password" })), "reset token posted");

    const paid = (await t.database.db.select().from(orders).where(eq(orders.userId, id)))[0];
    const callback = await send("/api/payments/callback", form({
      razorpay_order_id: `${paid?.providerOrderId}${nul}`,
      razorpay_payment_id: `pay_${nul}`,
      razorpay_signature: nul,
    }));
    expectClientError(callback, "payment callback");
  });
});

describe("a body that is not a form", () => {
  it("gets 4xx from every form action, whether JSON, plain text or broken multipart", async () => {
    const { cookie } = await signedIn();
    const actions = [
      "/login",
      "/forgot-password",
      "/reset-password",
      "/verify-email",
      "/logout",
      "/profile",
      "/settings",
      "/notes",
      "/account/orders",
      "/courses/react-fundamentals/confirm",
      "/course/react-fundamentals/feedback",
      "/courses/react-fundamentals/submodule/1-1",
      "/courses/react-fundamentals/certificate",
      "/sandbox/checkout/order_unknown",
    ];
    const bodies: [string, string][] = [
      ["application/json", JSON.stringify({ intent: "name", name: "Json" })],
      ["text/plain", "intent=name&name=Plain"],
      ["multipart/form-data; boundary=xyz", "--xyz\r\nContent-Disposition: form-data; name=\"intent\"\r\n\r\nname\r\n--xy"],
      ["multipart/form-data", "no boundary at all"],
    ];
    for (const path of actions) {
      for (const [type, body] of bodies) {
        expectClientError(await send(path, { method: "POST", headers: { "content-type": type }, body, cookie }), `${path} ${type}`);
      }
    }
  });
});

describe("a POST with no body at all", () => {
  it("is read as an empty form, so each action gives its own answer rather than a refusal of the body", async () => {
    const { cookie } = await signedIn();
    const certificate = await send("/courses/react-fundamentals/certificate", { method: "POST", cookie });
    expect(certificate.status).toBe(403);
    expect(await certificate.text()).not.toContain("web form");
    const note = await send("/notes", { method: "POST", cookie });
    expect(note.status).toBe(400);
  });
});

describe("the password change without JavaScript", () => {
  it("changes the password, keeps this device signed in and signs the others out", async () => {
    const { id, cookie } = await signedIn("the first long password");
    const response = await send("/profile", form({ intent: "password", currentPassword: "the first long password", newPassword: "the second long password" }, cookie));
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/profile?password=changed#password");
    const renewed = response.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    expect(renewed).toMatch(/session_token=/);
    const page = await send("/profile?password=changed", { cookie: renewed });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Your password was changed. Other devices were signed out.");
    expect(await t.database.db.select().from(session).where(eq(session.userId, id))).toHaveLength(1);
  });
});

describe("an unknown sandbox order", () => {
  it("is not found, to look at or to pay", async () => {
    expect((await send("/sandbox/checkout/order_doesnotexist")).status).toBe(404);
    expect((await send("/sandbox/checkout/order_doesnotexist", form({ outcome: "pay", method: "upi" }))).status).toBe(404);
  });
});

describe("text no column can hold, sent as JSON", () => {
  it("is refused by the auth API with 400 before anything is looked up or counted", async () => {
    for (const [path, body] of [
      ["/api/auth/sign-in/email", { email: "a\udf87@example.com", password: "whatever it is" }],
      ["/api/auth/sign-in/email", { email: `a${nul}b@example.com`, password: "whatever it is" }],
      ["/api/auth/sign-up/email", { name: "Half \ud800 a pair", email: `bad-${randomBytes(4).toString("hex")}@example.com`, password: "a good long password" }],
      ["/api/auth/request-password-reset", { email: "\udfff@example.com" }],
    ] as const) {
      const response = await send(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      expect(response.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(await response.json()).toMatchObject({ code: "INVALID_INPUT" });
    }
  });
});

describe("a name the profile would refuse", () => {
  it("is refused at sign-up through the API too, with the profile's words, and no account is made", async () => {
    for (const [name, message] of [
      ["Two\nLines", "Your name can only contain printable characters."],
      ["   ", "Tell us your name."],
      ["x".repeat(101), "Keep your name under 100 characters."],
    ] as const) {
      const email = `name-${randomBytes(4).toString("hex")}@example.com`;
      const body = JSON.stringify({ name, email, password: "velvet quarry lantern orbit" });
      const response = await send("/api/auth/sign-up/email", { method: "POST", headers: { "content-type": "application/json" }, body });
      expect(response.status, name).toBe(400);
      expect(await response.json()).toMatchObject({ code: "INVALID_PROFILE", message });
      const signIn = await send("/api/auth/sign-in/email", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password: "velvet quarry lantern orbit" }) });
      expect(signIn.status).toBe(401);
    }
  });
});

describe("an address with text no column can hold", () => {
  it("is not found, not a server error", async () => {
    for (const path of ["/sandbox/checkout/a%00b", "/certificates/a%00b", "/notes?note=a%00b", "/courses/react-fundamentals/confirm?order=a%00b", "/dev/mailbox.json?to=%00", "/dev/mailbox?to=a%00b", "/dev/mailbox.json?to=%ED%A0%80"]) {
      expect((await send(path)).status, path).toBeLessThan(500);
    }
  });
});

describe("a redirectTo whose dot segments resolve to another host", () => {
  const offSite = ["%2F.%2F%2Fevil.example", "%2Fa%2F..%2F%2Fevil.example", "%2F%252e%2F%2Fevil.example", "%2F%2e%2F%2Fevil.example", "%2F.%2F%5Cevil.example", "%2F.%252F%252Fevil.example"];

  it("sends a signed-in visitor of /login, /verify-email and /email-verified to a page of this site", async () => {
    const { cookie } = await signedIn();
    for (const value of offSite) {
      for (const page of ["/login", "/verify-email", "/email-verified"]) {
        const response = await send(`${page}?redirectTo=${value}`, { cookie });
        expect(response.status, `${page} ${value}`).toBe(302);
        const location = response.headers.get("location") ?? "";
        expect(new URL(location, origin).origin, `${page} ${value} → ${location}`).toBe(origin);
      }
    }
  });
});
