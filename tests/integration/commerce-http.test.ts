import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../server/api/keys.ts";
import { clientIpHeader } from "../../server/auth/index.ts";
import { orders, payments, user, websites } from "../../server/db/schema.ts";
import type { SandboxGateway } from "../../server/payments/sandbox.ts";
import { paymentSignature, webhookSignature } from "../../server/payments/signature.ts";
import { paidCourseOrderRows, startTestApp, testPaymentSecrets, type TestApp } from "./helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const origin = "http://academy.test";

function send(path: string, init: RequestInit & { cookie?: string } = {}) {
  const headers = new Headers(init.headers);
  headers.set(clientIpHeader, `10.9.${randomBytes(2).join(".")}`);
  headers.set("origin", origin);
  if (init.cookie) headers.set("cookie", init.cookie);
  return t.app.fetch(new Request(`${origin}${path}`, { ...init, headers, redirect: "manual" }));
}

const form = (fields: Record<string, string>) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
});

/** A verified account and its session cookie. */
async function signedIn(): Promise<{ id: string; cookie: string }> {
  const email = `http-${randomBytes(4).toString("hex")}@example.com`;
  const response = await send("/api/auth/sign-up/email", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "Ravi Kumar", email, password: "a good long password" }),
  });
  expect(response.status).toBe(200);
  const cookie = response.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const { user: created } = (await response.json()) as { user: { id: string } };
  await t.database.db.update(user).set({ emailVerified: true }).where(eq(user.id, created.id));
  return { id: created.id, cookie };
}

async function startOrder(cookie: string, extra: Record<string, string> = {}) {
  const response = await send("/courses/react-fundamentals/confirm", { ...form({ intent: "pay", idempotencyKey: randomBytes(12).toString("hex"), ...extra }), cookie });
  expect(response.status).toBe(302);
  const location = response.headers.get("location") ?? "";
  const providerOrderId = /^\/sandbox\/checkout\/(order_\w+)$/.exec(location)?.[1] as string;
  expect(providerOrderId).toBeDefined();
  const [order] = await t.database.db.select().from(orders).where(eq(orders.providerOrderId, providerOrderId));
  return order as typeof orders.$inferSelect & { providerOrderId: string };
}

const sandbox = () => t.payments.sandbox as SandboxGateway;
const count = (html: string, pattern: RegExp) => html.match(pattern)?.length ?? 0;

const postWebhook = (raw: string, signature: string) =>
  send("/api/payments/webhook", {
    method: "POST",
    headers: { "content-type": "application/json", "x-razorpay-signature": signature, "x-razorpay-event-id": `evt_${randomBytes(6).toString("hex")}` },
    body: raw,
  });

async function paidOrder(cookie: string) {
  const order = await startOrder(cookie);
  const fields = await sandbox().pay(order.providerOrderId, { outcome: "pay", method: "upi" });
  const response = await send("/api/payments/callback", form(fields));
  expect(response.status).toBe(303);
  expect(response.headers.get("location")).toBe(`/courses/react-fundamentals/confirm?order=${order.id}`);
  return { order, paymentId: fields.razorpay_payment_id as string };
}

describe("buying over HTTP", () => {
  it("charges the catalogue price whatever amount the form carries", async () => {
    const { cookie } = await signedIn();
    const order = await startOrder(cookie, { amount: "100", price: "1", total: "1" });
    expect(order.amount).toBe(699_900);
    expect((await sandbox().findOrder(order.providerOrderId))?.amount).toBe(699_900);
  });

  it("sends a signed-out visitor to sign in before confirming", async () => {
    const response = await send("/courses/react-fundamentals/confirm");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/login?redirectTo=%2Fcourses%2Freact-fundamentals%2Fconfirm");
  });

  it("accepts a signed callback without a session, and refuses a forged or garbled one", async () => {
    const { cookie } = await signedIn();
    const order = await startOrder(cookie);
    const fields = await sandbox().pay(order.providerOrderId, { outcome: "pay", method: "card" });
    const forged = { ...fields, razorpay_signature: paymentSignature("guessed-secret", order.providerOrderId, fields.razorpay_payment_id as string) };
    const refused = await send("/api/payments/callback", form(forged));
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("We could not verify this payment");
    expect((await send("/api/payments/callback", form({ anything: "else" }))).status).toBe(400);
    const [before] = await t.database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(before?.status).toBe("created");

    expect((await send("/api/payments/callback", form(fields))).status).toBe(303);
    const [after] = await t.database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(after?.status).toBe("paid");
  });

  it("checks the webhook signature on the raw body and answers 400 to bad input, 200 to the rest", async () => {
    const body = JSON.stringify({ entity: "event", event: "payment.captured", contains: [], payload: {}, created_at: 1 });
    expect((await postWebhook(body, webhookSignature("not-ours", body))).status).toBe(400);
    // The same JSON with different spacing is a different body: its signature no longer matches.
    expect((await postWebhook(JSON.stringify(JSON.parse(body), null, 2), webhookSignature(testPaymentSecrets.webhookSecret, body))).status).toBe(400);
    expect((await postWebhook("nonsense", webhookSignature(testPaymentSecrets.webhookSecret, "nonsense"))).status).toBe(400);
    const ok = await postWebhook(body, webhookSignature(testPaymentSecrets.webhookSecret, body));
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ message: "No payment in this event." });
  });
});

describe("one user can never see or act on another's purchases", () => {
  let a: { id: string; cookie: string };
  let b: { id: string; cookie: string };
  let paid: { order: typeof orders.$inferSelect; paymentId: string };
  let waiting: typeof orders.$inferSelect;

  beforeAll(async () => {
    a = await signedIn();
    b = await signedIn();
    paid = await paidOrder(a.cookie);
    const other = await signedIn();
    waiting = await startOrder(other.cookie);
  });

  it("hides A's receipt from B and from visitors", async () => {
    expect((await send(`/account/orders/${paid.order.id}/receipt`, { cookie: a.cookie })).status).toBe(200);
    expect((await send(`/account/orders/${paid.order.id}/receipt`, { cookie: b.cookie })).status).toBe(404);
    const visitor = await send(`/account/orders/${paid.order.id}/receipt`);
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toMatch(/^\/login\?redirectTo=/);
  });

  it("lists only B's own orders, payments and courses to B", async () => {
    for (const page of ["/account", "/account/orders", "/account/payments", "/account/courses"]) {
      const html = await (await send(page, { cookie: b.cookie })).text();
      expect(html, page).not.toContain(paid.order.id);
      expect(html, page).not.toContain(paid.paymentId);
      expect(html, page).not.toContain("React from Fundamentals to Production");
    }
    const own = await (await send("/account/payments", { cookie: a.cookie })).text();
    expect(own).toContain(paid.paymentId);
  });

  it("does not show A's order state on B's confirmation page", async () => {
    const html = await (await send(`/courses/react-fundamentals/confirm?order=${paid.order.id}`, { cookie: b.cookie })).text();
    expect(html).not.toContain("You&#x27;re enrolled");
    expect(html).toContain("Pay ₹6,999");
  });

  it("refuses B's refund of A's order and B's cancelling of someone else's order, changing nothing", async () => {
    const refund = await send("/account/orders", { ...form({ intent: "refund", orderId: paid.order.id }), cookie: b.cookie });
    expect(refund.status).toBe(404);
    const cancel = await send("/courses/react-fundamentals/confirm", { ...form({ intent: "cancel", orderId: waiting.id }), cookie: b.cookie });
    expect(cancel.status).toBe(404);
    const rows = await t.database.db.select().from(orders).where(eq(orders.id, paid.order.id));
    expect(rows[0]?.status).toBe("paid");
    const [still] = await t.database.db.select().from(orders).where(eq(orders.id, waiting.id));
    expect(still?.status).toBe("created");
    const refunded = await t.database.db.select().from(payments).where(eq(payments.providerPaymentId, paid.paymentId));
    expect(refunded[0]?.status).toBe("captured");
  });
});

describe("limits", () => {
  it("stops one account from opening more than 20 payment attempts in 15 minutes", async () => {
    const { cookie } = await signedIn();
    for (let i = 0; i < 20; i++) await startOrder(cookie);
    const response = await send("/courses/react-fundamentals/confirm", { ...form({ intent: "pay", idempotencyKey: randomBytes(12).toString("hex") }), cookie });
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await response.text()).toContain("Too many payment attempts. Please wait a few minutes before trying again.");
  });
});

describe("an account with a long history", () => {
  let owner: { id: string; cookie: string };
  const many = 1_200;

  beforeAll(async () => {
    owner = await signedIn();
    const base = Date.parse("2025-01-01T00:00:00Z");
    const made = await t.database.db
      .insert(orders)
      .values(paidCourseOrderRows(owner.id, "react-fundamentals", many, { keyPrefix: "history-", createdAt: (i) => new Date(base + i * 60_000) }))
      .returning({ id: orders.id, createdAt: orders.createdAt });
    await t.database.db
      .insert(payments)
      .values(made.map((o, i) => ({ orderId: o.id, userId: owner.id, providerPaymentId: `pay_history${i}`, amount: 699_900, currency: "INR", status: "captured" as const, createdAt: o.createdAt })));
    await t.database.db.insert(websites).values(
      Array.from({ length: 120 }, (_, i) => ({
        userId: owner.id,
        serviceId: "website-hosting",
        domain: `site${i}-${randomBytes(3).toString("hex")}.example.in`,
        planId: "starter-yearly",
        billingInterval: "year" as const,
        startedAt: new Date(base),
        expiresAt: new Date(Date.now() + (30 + i) * 86_400_000),
      })),
    );
  });

  const page = async (path: string) => {
    const response = await send(path, { cookie: owner.cookie });
    expect(response.status, path).toBe(200);
    // React marks where one interpolated text ends and the next begins; a reader sees one sentence.
    return (await response.text()).replaceAll("<!-- -->", "");
  };

  it("shows the orders 50 at a time, newest first, with the way to older ones and back", async () => {
    const first = await page("/account/orders");
    expect(count(first, /<article aria-labelledby="order-[0-9a-f-]+-title"/g)).toBe(50);
    expect(first).toContain(`Order ${many - 1}`);
    expect(first).not.toContain(`Order ${many - 51}<`);
    expect(first).toContain("Showing 50 orders at a time, newest first.");
    const older = /href="(\/account\/orders\?before=\d+)"/.exec(first)?.[1] ?? "";
    expect(older).not.toBe("");
    const second = await page(older);
    expect(count(second, /<article aria-labelledby="order-[0-9a-f-]+-title"/g)).toBe(50);
    expect(second).toContain(`Order ${many - 51}<`);
    expect(second).toContain('href="/account/orders"');
  });

  it("shows the payments 50 at a time, and the overview reads only the latest page", async () => {
    const payments$ = await page("/account/payments");
    expect(count(payments$, /<article aria-labelledby="payment-[0-9a-f-]+-title"/g)).toBe(50);
    expect(payments$).toMatch(/href="\/account\/payments\?before=[0-9a-f-]{36}"/);
    expect(await page("/account")).toContain("All 50+ orders");
  });

  it("gives API clients the orders a page at a time, every order once", async () => {
    const { secret } = await createApiKey(t.database.db, owner.id, { name: "History", scopes: ["read"], lifetimeDays: 30 }, new Date());
    const seen = new Set<string>();
    let cursor = "";
    for (let round = 0; round < 20; round++) {
      const response = await t.app.fetch(new Request(`${origin}/api/v1/orders?limit=100${cursor ? `&cursor=${cursor}` : ""}`, { headers: { authorization: `Bearer ${secret}` } }));
      expect(response.status).toBe(200);
      const body = (await response.json()) as { orders: { id: string }[]; nextCursor: string | null };
      expect(body.orders.length).toBeLessThanOrEqual(100);
      for (const o of body.orders) seen.add(o.id);
      if (!body.nextCursor) break;
      cursor = body.nextCursor;
    }
    expect(seen.size).toBe(many);
  });

  it("lists at most 100 websites, those needing attention first, and says that more are left off", async () => {
    const html = await page("/account/services/websites");
    expect(count(html, /href="\/account\/services\/websites\/[0-9a-f-]{36}"/g)).toBe(100);
    expect(html).toContain("Showing the first 100 websites");
    expect(await page("/account/services")).toContain("100+ websites");
  });
});
