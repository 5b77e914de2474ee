import { randomBytes } from "node:crypto";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientIpHeader } from "../../server/auth/index.ts";
import { certificates, lessonProgress, mailOutbox, notes, orders, payments, session, throttles, user, users, websites } from "../../server/db/schema.ts";
import type { SandboxGateway } from "../../server/payments/sandbox.ts";
import { createNote, noteLimits } from "../../server/notes/index.ts";
import { encryptFields } from "../../server/crypto/field-encryption.ts";
import { exportsPerHour, type UserDataExport } from "../../server/users/data-export.ts";
import { readUserDocument } from "../../server/users/user-document.ts";
import { createLogger } from "../../server/logger.ts";
import { inlineStylesheet } from "../../server/http/static-assets.ts";
import { startTestApp, type TestApp } from "./helpers.ts";
import { longestStall } from "../support/longest-stall.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const origin = "http://academy.test";

function send(path: string, init: RequestInit & { cookie?: string } = {}) {
  const headers = new Headers(init.headers);
  headers.set(clientIpHeader, `10.7.${randomBytes(2).join(".")}`);
  headers.set("origin", origin);
  if (init.cookie) headers.set("cookie", init.cookie);
  return t.app.fetch(new Request(`${origin}${path}`, { ...init, headers, redirect: "manual" }));
}

const postJson = (path: string, body: unknown, cookie: string) =>
  send(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body), cookie });

/** A verified account and its session cookie (signed up in-process: this file tests what comes after, not sign-up's rate limit). */
async function signedIn(name = "Ravi Kumar"): Promise<{ id: string; email: string; cookie: string }> {
  const email = `account-${randomBytes(4).toString("hex")}@example.com`;
  const response = await t.identity.auth.api.signUpEmail({ body: { name, email, password: "a good long password" }, asResponse: true });
  expect(response.status).toBe(200);
  const cookie = response.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const { user: created } = (await response.json()) as { user: { id: string } };
  await t.database.db.update(user).set({ emailVerified: true }).where(eq(user.id, created.id));
  return { id: created.id, email, cookie };
}

const account = async (id: string) => (await t.database.db.select().from(user).where(eq(user.id, id)))[0];
const documentOf = (id: string) => readUserDocument(t.database.db, t.identity.cipher, createLogger("silent"), id);

/** Uploads a photo through the profile form and returns the URL it is served at. */
async function uploadPhoto(cookie: string, id: string): Promise<string> {
  const body = new FormData();
  body.set("intent", "photo");
  const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: "#3366ff" } }).png().toBuffer();
  body.set("photo", new File([new Uint8Array(png)], "me.png", { type: "image/png" }));
  const response = await send("/profile", { method: "POST", body, cookie });
  expect(response.status).toBe(200);
  const image = (await account(id))?.image ?? "";
  expect(image).toMatch(new RegExp(`^/uploads/avatars/${id}/[a-f0-9]{32}\\.webp$`));
  return image;
}

describe("Better Auth's update-user endpoint", () => {
  it("refuses names the profile form refuses, with 400 and the form's message, and changes nothing", async () => {
    const { id, cookie } = await signedIn("Ravi Kumar");
    for (const [name, message] of [
      ["x".repeat(50_000), "Keep your name under 100 characters."],
      ["   ", "Tell us your name."],
      [42, "Tell us your name."],
      // Refused before Better Auth sees it, as every API body with a NUL is.
      ["Ravi\u0000Kumar", "The request contains a NUL character or a broken Unicode sequence, which no field accepts."],
      ["Ravi\u0007Kumar", "Your name can only contain printable characters."],
    ] as const) {
      const response = await postJson("/api/auth/update-user", { name }, cookie);
      expect(response.status, String(name).slice(0, 20)).toBe(400);
      expect(await response.json()).toMatchObject({ message });
    }
    expect((await account(id))?.name).toBe("Ravi Kumar");
    expect((await documentOf(id))?.name).toBe("Ravi Kumar");
  });

  it("never takes an image from the request: a script URL, a tracker or another person's photo is refused and changes nothing", async () => {
    const victim = await signedIn("Victim");
    const victimPhoto = await uploadPhoto(victim.cookie, victim.id);
    const { id, cookie } = await signedIn("Mallory");
    const ownPhoto = await uploadPhoto(cookie, id);
    for (const image of ["javascript:alert(document.cookie)", "https://tracker.example/pixel.gif", victimPhoto, ownPhoto, null, ""]) {
      const response = await postJson("/api/auth/update-user", { image }, cookie);
      expect(response.status, String(image)).toBe(400);
      expect(await response.json()).toMatchObject({ message: "Your photo can only be changed by uploading one on your profile page." });
    }
    expect((await account(id))?.image).toBe(ownPhoto);
    // Removing one's own photo deletes only one's own file.
    const removed = await send("/profile", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "intent=remove-photo", cookie });
    expect(removed.status).toBe(200);
    expect((await account(id))?.image).toBeNull();
    expect((await send(ownPhoto)).status).toBe(404);
    expect((await send(victimPhoto)).status).toBe(200);
  });

  it("refuses fields other than the name, naming them", async () => {
    const { id, cookie } = await signedIn("Ravi Kumar");
    const response = await postJson("/api/auth/update-user", { name: "Ravi K", emailVerified: false, role: "admin" }, cookie);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ message: "Only your name can be changed here, not emailVerified, role." });
    expect(await account(id)).toMatchObject({ name: "Ravi Kumar", emailVerified: true });
  });

  it("saves a good name trimmed, as the form does, on the account and on the user document the certificate prints", async () => {
    const { id, cookie } = await signedIn("Ravi Kumar");
    const response = await postJson("/api/auth/update-user", { name: "  Ravi Shankar Kumar  " }, cookie);
    expect(response.status).toBe(200);
    expect((await account(id))?.name).toBe("Ravi Shankar Kumar");
    expect((await documentOf(id))?.name).toBe("Ravi Shankar Kumar");
  });

  it("still lets the profile form change the name and the photo", async () => {
    const { id, cookie } = await signedIn("Ravi Kumar");
    const saved = await send("/profile", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "intent=name&name=Ravi+S.+Kumar", cookie });
    expect(saved.status).toBe(200);
    expect((await account(id))?.name).toBe("Ravi S. Kumar");
    const first = await uploadPhoto(cookie, id);
    const second = await uploadPhoto(cookie, id);
    expect(second).not.toBe(first);
    expect((await send(first)).status).toBe(404);
    expect((await send(second)).status).toBe(200);
    expect((await documentOf(id))?.profilePicUrl).toBe(second);
  });
});

const postForm = (path: string, fields: Record<string, string>, cookie: string) =>
  send(path, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString(), cookie });

/** A paid order, bought through a checkout form (a course's confirmation by default) and the sandbox's signed callback. */
async function paidOrder(cookie: string, checkout = "/courses/react-fundamentals/confirm", extra: Record<string, string> = {}) {
  const started = await postForm(checkout, { intent: "pay", idempotencyKey: randomBytes(12).toString("hex"), ...extra }, cookie);
  const providerOrderId = /^\/sandbox\/checkout\/(order_\w+)$/.exec(started.headers.get("location") ?? "")?.[1] as string;
  const fields = await (t.payments.sandbox as SandboxGateway).pay(providerOrderId, { outcome: "pay", method: "upi" });
  const paid = await send("/api/payments/callback", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() });
  expect(paid.status).toBe(303);
  const [order] = await t.database.db.select().from(orders).where(eq(orders.providerOrderId, providerOrderId));
  expect(order?.status).toBe("paid");
  return order as typeof orders.$inferSelect;
}

/** A website hosted for a year: ordered through the hosting form and paid like any order. */
async function hostedWebsite(cookie: string, domain: string) {
  const ordered = await postForm("/account/services/websites/new", { serviceId: "website-hosting", planId: "starter-yearly", domain }, cookie);
  const renew = /^(\/account\/services\/websites\/[0-9a-f-]{36}\/renew)\?/.exec(ordered.headers.get("location") ?? "")?.[1] as string;
  expect(renew).toBeDefined();
  return paidOrder(cookie, renew, { planId: "starter-yearly" });
}

const mailTo = async (email: string) => (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(mailOutbox).where(eq(mailOutbox.to, email)))[0]?.n;
const rowsOf = async (table: typeof notes | typeof lessonProgress | typeof session | typeof websites, userId: string) =>
  (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(table).where(eq(table.userId, userId)))[0]?.n;

/** Someone with everything an account gathers: a photo, mail, notes, progress, a paid order, a hosted website and a throttle. */
async function established() {
  const person = await signedIn("Nandini Iyer");
  const photo = await uploadPhoto(person.cookie, person.id);
  const order = await paidOrder(person.cookie);
  const domain = `nandini-${randomBytes(3).toString("hex")}.example.in`;
  const hosting = await hostedWebsite(person.cookie, domain);
  const { db } = t.database;
  await db.insert(notes).values({ userId: person.id, title: "v1:private", body: "v1:private" });
  await db.insert(lessonProgress).values({ userId: person.id, courseId: "react-fundamentals", lessonId: "1-1" });
  await db.insert(throttles).values({ key: `/sign-in/email:${person.email}`, count: 1, windowStartedAt: new Date() });
  expect(await mailTo(person.email)).toBeGreaterThan(0);
  return { ...person, photo, order, hosting, domain };
}

async function expectErased(person: Awaited<ReturnType<typeof established>>) {
  const { db } = t.database;
  expect((await send(person.photo)).status).toBe(404);
  expect(await mailTo(person.email)).toBe(0);
  expect(await account(person.id)).toBeUndefined();
  expect(await db.select().from(users).where(eq(users.uid, person.id))).toEqual([]);
  for (const table of [notes, lessonProgress, session, websites]) expect(await rowsOf(table, person.id)).toBe(0);
  expect(await db.select().from(throttles).where(sql`${throttles.key} like ${`%${person.email}`}`)).toEqual([]);
  // The invoice and the payment stay, for the tax authorities, with nothing that leads to the person.
  const [order] = await db.select().from(orders).where(eq(orders.id, person.order.id));
  expect(order).toMatchObject({ status: "paid", amount: 699_900, taxAmount: 106_764, number: person.order.number, userId: null });
  const [payment] = await db.select().from(payments).where(eq(payments.orderId, person.order.id));
  expect(payment).toMatchObject({ status: "captured", amount: 699_900, userId: null });
  const kept = JSON.stringify([order, payment]);
  for (const personal of [person.id, person.email, "Nandini"]) expect(kept).not.toContain(personal);
  // The website goes with the account; its invoice stays, saying what was bought (the plan), but no longer for which domain:
  // the domain named the person's website, and the law asks only for a description of the service.
  expect(person.hosting.title).toBe(`Starter (Yearly) hosting for ${person.domain}`);
  const [hosting] = await db.select().from(orders).where(eq(orders.id, person.hosting.id));
  expect(hosting).toMatchObject({ status: "paid", kind: "website", userId: null, websiteId: null, title: "Starter (Yearly) hosting", amount: 1_499_000, number: person.hosting.number });
  const books = JSON.stringify([await db.select().from(orders).where(eq(orders.id, person.hosting.id)), await db.select().from(payments).where(eq(payments.orderId, person.hosting.id))]);
  for (const personal of [person.domain, person.id, person.email]) expect(books).not.toContain(personal);
}

describe("download my data", () => {
  it("holds the person's courses, progress, notes, certificates, orders, payments and websites, and nobody else's", async () => {
    const person = await signedIn("Meera Pillai");
    const other = await signedIn("Someone Else");
    const { db } = t.database;
    const course = await paidOrder(person.cookie);
    const domain = `meera-${randomBytes(3).toString("hex")}.example.in`;
    const hosting = await hostedWebsite(person.cookie, domain);
    await hostedWebsite(other.cookie, `other-${randomBytes(3).toString("hex")}.example.in`);
    await db.insert(lessonProgress).values({ userId: person.id, courseId: "react-fundamentals", lessonId: "1-1" });
    await createNote(db, t.identity.cipher, t.catalog, person.id, { title: "Hooks", body: "useEffect runs after paint" });
    await createNote(db, t.identity.cipher, t.catalog, other.id, { title: "Not Meera's", body: "secret" });
    await db.insert(certificates).values({ id: `EXPORT${randomBytes(4).toString("hex")}`, userId: person.id, courseId: "react-fundamentals", courseTitle: "React Fundamentals", learnerName: t.identity.cipher.encrypt("Meera Pillai") });

    expect((await send("/settings/my-data.json")).status).toBe(401);
    const response = await send("/settings/my-data.json", { cookie: person.cookie });
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="academy-my-data.json"');
    const text = await response.text();
    const exported = JSON.parse(text) as UserDataExport;
    expect(exported.account).toMatchObject({ id: person.id, email: person.email, name: "Meera Pillai" });
    expect(exported.courses).toMatchObject([{ courseId: "react-fundamentals", status: "active" }]);
    expect(exported.lessonsCompleted).toMatchObject([{ courseId: "react-fundamentals", lessonId: "1-1" }]);
    expect(exported.notes).toMatchObject([{ title: "Hooks", body: "useEffect runs after paint" }]);
    expect(exported.certificates).toMatchObject([{ courseId: "react-fundamentals", learnerName: "Meera Pillai", revokedAt: null }]);
    expect(exported.orders.map((o) => [o.number, o.status, o.total]).toSorted()).toEqual(
      [
        [course.number, "paid", { value: 6999, currency: "INR" }],
        [hosting.number, "paid", { value: 14_990, currency: "INR" }],
      ].toSorted(),
    );
    expect(exported.payments).toHaveLength(2);
    expect(exported.websites).toMatchObject([{ domain, plan: "Starter (Yearly)", status: "Active", periods: [{ plan: "Starter (Yearly)", orderNumber: hosting.number }] }]);
    expect(exported.mail.length).toBeGreaterThan(0);
    for (const theirs of [other.id, other.email, "Not Meera's", "other-"]) expect(text).not.toContain(theirs);
  });

  it("streams a learner's 1,000 full notes out in slices, the event loop free between them", async () => {
    const person = await signedIn("Kavya Rao");
    const start = Date.now() - 30 * 86_400_000;
    const body = "Closures keep the variables of the function that made them. ".repeat(400).slice(0, noteLimits.body);
    const rows = Array.from({ length: noteLimits.perUser }, (_, i) =>
      encryptFields(t.identity.cipher, { userId: person.id, title: `Note ${i}`, body, createdAt: new Date(start + i * 60_000), updatedAt: new Date(start + i * 60_000) }, ["title", "body"]),
    );
    await t.database.db.insert(notes).values(rows);

    // As a browser asks for it: compressed, which must not mean held whole in memory first.
    const { value: { response, chunks }, stallMs, totalMs } = await longestStall(async () => {
      const answer = await send("/settings/my-data.json", { cookie: person.cookie, headers: { "accept-encoding": "gzip, deflate, br, zstd" } });
      const parts: Buffer[] = [];
      for await (const chunk of answer.body ?? []) parts.push(Buffer.from(chunk));
      return { response: answer, chunks: parts };
    });

    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect(response.headers.get("content-length")).toBeNull();
    expect(chunks.length).toBeGreaterThan(10);
    const exported = JSON.parse(gunzipSync(Buffer.concat(chunks)).toString("utf8")) as UserDataExport;
    expect(exported.account).toMatchObject({ id: person.id });
    expect(exported.notes).toHaveLength(noteLimits.perUser);
    expect(exported.notes[999]).toMatchObject({ title: "Note 999", body });
    expect(stallMs).toBeLessThan(totalMs / 4);
  });

  it("refuses more downloads than a few an hour, saying when to try again, and another person's are their own", async () => {
    const person = await signedIn("Farhan Ali");
    const other = await signedIn("Someone Else");
    for (let i = 0; i < exportsPerHour; i++) expect((await send("/settings/my-data.json", { cookie: person.cookie })).status).toBe(200);
    const refused = await send("/settings/my-data.json", { cookie: person.cookie });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(60 * 55);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(60 * 60);
    expect(refused.headers.get("content-disposition")).toBeNull();
    expect(await refused.text()).toMatch(new RegExp(`^You have downloaded your data ${exportsPerHour} times in the last hour, the most we allow\\. Try again in \\d+ minutes\\.$`));
    expect((await send("/settings/my-data.json", { cookie: other.cookie })).status).toBe(200);
  });
});

describe("deleting an account", () => {
  it("through Better Auth's delete-user endpoint erases the photo, mail, notes and progress and keeps the invoice without the person", async () => {
    const person = await established();
    const response = await postJson("/api/auth/delete-user", {}, person.cookie);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ success: true });
    await expectErased(person);
  });

  it("through the settings page does the same, once the e-mail address is typed", async () => {
    const person = await established();
    const form = (confirmation: string) =>
      send("/settings", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ intent: "delete-account", confirmation }).toString(),
        cookie: person.cookie,
      });
    expect((await form("someone-else@example.com")).status).toBe(400);
    expect((await send(person.photo)).status).toBe(200);
    expect(await account(person.id)).toBeDefined();

    const deleted = await form(person.email.toUpperCase());
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get("location")).toBe("/?deleted=1");
    await expectErased(person);
  });
});

const inlined = (html: string) => /<style nonce="[^"]+">[^<]*--color-brand-600/.test(html);
const stylesheet = () => [...t.deps.assets.keys()].find((href) => /^\/assets\/app-[\w-]+\.css$/.test(href)) ?? "";
const pageText = async (path: string, cookies: string) => (await send(path, { cookie: cookies })).text();

describe("the stylesheet of signed-in pages", () => {
  it("is inlined until the browser's cookie names the very file it holds, then linked", async () => {
    const { cookie } = await signedIn();
    const href = stylesheet();
    const first = await pageText("/account", cookie);
    expect(inlined(first)).toBe(true);
    expect(first).not.toContain('rel="stylesheet"');

    const cached = await pageText("/account", `${cookie}; academy_css=${href.slice("/assets/".length)}`);
    expect(cached).toContain(`<link rel="stylesheet" href="${href}"/>`);
    expect(inlined(cached)).toBe(false);

    expect(inlined(await pageText("/account", `${cookie}; academy_css=app-0ld3r.css`))).toBe(true);
  });

  it("is sent in gzip with its deflate made once while it is inlined, and the page in brotli once it is linked", async () => {
    const { cookie } = await signedIn();
    const href = stylesheet();
    const browser = { "accept-encoding": "gzip, deflate, br, zstd" };
    const first = await send("/account", { cookie, headers: browser });
    expect(first.headers.get("content-encoding")).toBe("gzip");
    const body = Buffer.from(await first.arrayBuffer());
    expect(first.headers.get("content-length")).toBe(String(body.length));
    expect(body.includes(inlineStylesheet(t.deps.assets, href)?.part.deflated ?? Buffer.alloc(1))).toBe(true);
    const html = gunzipSync(body).toString("utf8");
    expect(inlined(html)).toBe(true);
    expect(html).toMatch(/Ravi Kumar[\s\S]*<\/html>$/);

    const onlyBrotli = await send("/account", { cookie, headers: { "accept-encoding": "br" } });
    expect(onlyBrotli.headers.get("content-encoding")).toBe("br");
    expect(inlined(brotliDecompressSync(Buffer.from(await onlyBrotli.arrayBuffer())).toString("utf8"))).toBe(true);

    const linked = await send("/account", { cookie: `${cookie}; academy_css=${href.slice("/assets/".length)}`, headers: browser });
    expect(linked.headers.get("content-encoding")).toBe("br");
    expect(brotliDecompressSync(Buffer.from(await linked.arrayBuffer())).toString("utf8")).toContain(`<link rel="stylesheet" href="${href}"/>`);
  });

  it("is always inlined for visitors, whose pages are cached and shared", async () => {
    const html = await (await send("/help", { cookie: `academy_css=${stylesheet().slice("/assets/".length)}` })).text();
    expect(inlined(html)).toBe(true);
  });
});
