// The renewal page, back from paying, says why a paid hosting order bought nothing in the words
// fulfilment recorded when the payment arrived, and never works a reason out again.
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orders, user, websites } from "../../server/db/schema.ts";
import { startTestApp, type TestApp } from "./helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const send = (path: string, init: RequestInit = {}) => t.app.fetch(new Request(`http://academy.test${path}`, init), { incoming: { socket: { remoteAddress: "10.50.0.1" } } });

async function buyer(): Promise<{ id: string; cookie: string }> {
  const signedUp = await send("/api/auth/sign-up/email", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "Hari Hegde", email: `hosting-${randomBytes(4).toString("hex")}@example.com`, password: "a good long password" }),
  });
  expect(signedUp.status).toBe(200);
  const { user: created } = (await signedUp.json()) as { user: { id: string } };
  await t.database.db.update(user).set({ emailVerified: true }).where(eq(user.id, created.id));
  return { id: created.id, cookie: signedUp.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ") };
}

/** A website whose hosting order was paid and bought no period, with the reason fulfilment recorded (null: none recorded). */
async function unappliedOrder(userId: string, failureReason: string | null) {
  const domain = `unapplied-${randomBytes(4).toString("hex")}.example.in`;
  const [site] = await t.database.db
    .insert(websites)
    .values({ userId, serviceId: "website-hosting", domain, planId: "starter-monthly", billingInterval: "month", cancelledAt: new Date(), cancelledBy: "owner" })
    .returning();
  const [order] = await t.database.db
    .insert(orders)
    .values({
      userId,
      kind: "website",
      websiteId: site!.id,
      planId: "starter-monthly",
      title: `Website hosting for ${domain}`,
      currency: "INR",
      amount: 149_900,
      taxableAmount: 127_034,
      taxAmount: 22_866,
      taxRatePercent: 18,
      taxMode: "inclusive",
      provider: "sandbox",
      idempotencyKey: randomBytes(8).toString("hex"),
      status: "paid",
      paidAt: new Date(),
      failureReason,
    })
    .returning();
  return { domain, path: `/account/services/websites/${site!.id}/renew?order=${order!.id}` };
}

/** The page's sentence: "We received ₹1,499, but <reason>. We are refunding …". */
async function reasonShown(path: string, cookie: string): Promise<string> {
  const page = await send(path, { headers: { cookie } });
  expect(page.status).toBe(200);
  const text = (await page.text()).replaceAll(/<!-- -->/g, "");
  return /We received ₹1,499, but (.+?)\. We are refunding/.exec(text)?.[1] ?? "(no unapplied-payment notice)";
}

describe("a paid hosting order that bought nothing, on the renewal page", () => {
  it("gives the reason fulfilment recorded", async () => {
    const { id, cookie } = await buyer();
    const recorded = "you cancelled the website before this payment arrived, so there was nothing to renew";
    const { path } = await unappliedOrder(id, recorded);
    expect(await reasonShown(path, cookie)).toBe(recorded);
  });

  it("names no reason fulfilment did not record, rather than guessing one that may be false", async () => {
    const { id, cookie } = await buyer();
    const { path } = await unappliedOrder(id, null);
    const shown = await reasonShown(path, cookie);
    expect(shown).not.toMatch(/another customer|withdrawn/);
    expect(shown).toBe("we could not start or extend its hosting when it arrived");
  });
});
