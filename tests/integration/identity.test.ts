import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { beforeAll, describe, expect, it } from "vitest";
import { clientIpHeader } from "../../server/auth/index.ts";
import { consumeThrottle } from "../../server/auth/throttle.ts";
import { loadCatalog, type Catalog } from "../../server/catalog/index.ts";
import { createFieldCipher, loadEncryptionKey } from "../../server/crypto/field-encryption.ts";
import { appRoots, mailOutbox, users } from "../../server/db/schema.ts";
import { createLogger } from "../../server/logger.ts";
import { deliverDueMail, enqueueMail, listMailbox, maxAttempts, type MailTransport } from "../../server/mail/outbox.ts";
import { createMailTransport } from "../../server/mail/transport.ts";
import { readUserDocument, recordSignIn } from "../../server/users/user-document.ts";
import { contentDir, databaseKinds, identitySuite, migratedDatabaseEach } from "./helpers.ts";

let catalog: Catalog;
beforeAll(async () => {
  catalog = await loadCatalog(contentDir);
});

const headers = () => new Headers({ [clientIpHeader]: `10.1.${randomBytes(2).join(".")}` });
const email = (label: string) => `${label}-${randomBytes(4).toString("hex")}@example.com`;
const silent = createLogger("silent");

describe.each(databaseKinds)("identity on $name", ({ open }) => {
  const suite = identitySuite(open, () => catalog);

  it("creates an encrypted user document on sign-up, with no plaintext in the database", async () => {
    const address = email("doc");
    const { user } = await suite.identity.auth.api.signUpEmail({
      body: { name: "Ishaan Mehta", email: address, password: "a good long password" },
      headers: headers(),
    });
    const raw = (await suite.db.select().from(users).where(sql`${users.uid} = ${user.id}`))[0];
    expect(raw).toBeDefined();
    const stored = JSON.stringify(raw);
    expect(stored).not.toContain("Ishaan");
    expect(stored).not.toContain(address);
    expect(raw?.name).toMatch(/^v1:/);
    expect(raw?.email).toMatch(/^v1:/);
    expect(raw?.profilePicUrl).toMatch(/^v1:/);

    const doc = await readUserDocument(suite.db, suite.identity.cipher, silent, user.id);
    expect(doc).toMatchObject({ uid: user.id, name: "Ishaan Mehta", email: address, profilePicUrl: "" });
    expect(doc?.createdAt).toBeInstanceOf(Date);
  });

  it("queues a verification mail whose link verifies the address", async () => {
    const address = email("verify");
    await suite.identity.auth.api.signUpEmail({ body: { name: "Nila", email: address, password: "a good long password" }, headers: headers() });
    const [mail] = await listMailbox(suite.db, address);
    expect(mail?.subject).toContain("Confirm your e-mail address");
    expect(mail?.text).toContain(mail?.links[0]);
    expect(mail?.html).toContain("Confirm my e-mail address");
    const token = new URL(mail?.links[0] ?? "").searchParams.get("token") ?? "";
    await suite.identity.auth.api.verifyEmail({ query: { token } });
    const verified = await suite.db.execute<{ email_verified: boolean }>(
      sql`select email_verified from "user" where email = ${address}`,
    );
    expect((verified as unknown as { rows: { email_verified: boolean }[] }).rows[0]?.email_verified).toBe(true);
  });

  it("updates only name, photo and last login on a later sign-in", async () => {
    const address = email("later");
    const { user } = await suite.identity.auth.api.signUpEmail({ body: { name: "Old Name", email: address, password: "a good long password" }, headers: headers() });
    const before = await readUserDocument(suite.db, suite.identity.cipher, silent, user.id);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await recordSignIn(suite.db, suite.identity.cipher, silent, { id: user.id, name: "New Name", email: "ignored@example.com", image: "https://img.example/p.png" });
    const after = await readUserDocument(suite.db, suite.identity.cipher, silent, user.id);
    expect(after).toMatchObject({ name: "New Name", email: address, profilePicUrl: "https://img.example/p.png" });
    expect(after?.createdAt).toEqual(before?.createdAt);
    expect(after?.lastLogin.getTime()).toBeGreaterThan(before?.lastLogin.getTime() ?? 0);
  });

  it("returns no data for a missing document and keeps legacy plaintext readable", async () => {
    expect(await readUserDocument(suite.db, suite.identity.cipher, silent, "no-such-user")).toBeNull();
    const address = email("legacy");
    const { user } = await suite.identity.auth.api.signUpEmail({ body: { name: "Legacy", email: address, password: "a good long password" }, headers: headers() });
    await suite.db.update(users).set({ name: "Plain Legacy Name" }).where(sql`${users.uid} = ${user.id}`);
    expect((await readUserDocument(suite.db, suite.identity.cipher, silent, user.id))?.name).toBe("Plain Legacy Name");
  });

  it("rejects a wrong password and a duplicate sign-up with Better Auth's codes", async () => {
    const address = email("dup");
    await suite.identity.auth.api.signUpEmail({ body: { name: "Dup", email: address, password: "a good long password" }, headers: headers() });
    await expect(
      suite.identity.auth.api.signUpEmail({ body: { name: "Dup 2", email: address, password: "another password" }, headers: headers() }),
    ).rejects.toMatchObject({ body: { code: expect.stringMatching(/^USER_ALREADY_EXISTS/) } });
    await expect(
      suite.identity.auth.api.signInEmail({ body: { email: address, password: "wrong password" }, headers: headers() }),
    ).rejects.toMatchObject({ body: { code: "INVALID_EMAIL_OR_PASSWORD" } });
    await expect(
      suite.identity.auth.api.signInEmail({ body: { email: email("nobody"), password: "wrong password" }, headers: headers() }),
    ).rejects.toMatchObject({ body: { code: "INVALID_EMAIL_OR_PASSWORD" } });
  });

  it("limits sign-in attempts per account, whatever the address", async () => {
    const address = email("limit");
    for (let i = 0; i < 10; i++) {
      await expect(suite.identity.auth.api.signInEmail({ body: { email: address, password: `guess ${i}` }, headers: headers() })).rejects.toMatchObject({
        statusCode: 401,
      });
    }
    await expect(suite.identity.auth.api.signInEmail({ body: { email: address, password: "guess" }, headers: headers() })).rejects.toMatchObject({
      statusCode: 429,
    });
  });

  it("counts throttle windows atomically and starts a new window when the old one ends", async () => {
    const key = `test:${randomBytes(4).toString("hex")}`;
    const results = await Promise.all(Array.from({ length: 5 }, () => consumeThrottle(suite.db, key, { windowSeconds: 60, max: 3 })));
    expect(results.filter((r) => r.allowed)).toHaveLength(3);
    expect(results.find((r) => !r.allowed)?.retryAfterSeconds).toBeGreaterThan(0);
    await suite.db.execute(sql`update throttles set window_started_at = now() - interval '2 minutes' where key = ${key}`);
    expect((await consumeThrottle(suite.db, key, { windowSeconds: 60, max: 3 })).allowed).toBe(true);
  });

  it("retries failed mail with back-off and gives up after the last attempt", async () => {
    const to = email("retry");
    await enqueueMail(suite.db, { to, subject: "Retry me", text: "t", html: "<p>t</p>", links: [] });
    const broken: MailTransport = { kind: "smtp", send: () => Promise.reject(new Error("connection refused")), close: () => {} };
    await deliverDueMail(suite.db, broken);
    let [row] = await suite.db.select().from(mailOutbox).where(sql`${mailOutbox.to} = ${to}`);
    expect(row).toMatchObject({ status: "pending", attempts: 1, lastError: "connection refused" });
    expect(row?.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 20_000);
    await suite.db.update(mailOutbox).set({ attempts: maxAttempts - 1, nextAttemptAt: new Date(0) }).where(sql`${mailOutbox.to} = ${to}`);
    await deliverDueMail(suite.db, broken);
    [row] = await suite.db.select().from(mailOutbox).where(sql`${mailOutbox.to} = ${to}`);
    expect(row?.status).toBe("failed");
  });
});

describe.each(databaseKinds)("the mail outbox on $name", ({ open }) => {
  const db = () => database().db;
  const database = migratedDatabaseEach(open);

  const enqueue = async (count: number) => {
    for (let i = 0; i < count; i++) await enqueueMail(db(), { to: `learner${i}@example.com`, subject: `Mail ${i}`, text: "t", html: "<p>t</p>", links: [] });
  };

  it("sends each mail once when several processes deliver at the same moment", async () => {
    await enqueue(25);
    const sent: string[] = [];
    const slow: MailTransport = { kind: "smtp", send: async (mail) => void (await new Promise((resolve) => setTimeout(resolve, 5)), sent.push(mail.subject)), close: () => {} };
    while ((await Promise.all([0, 1, 2].map(() => deliverDueMail(db(), slow)))).some((r) => r.sent > 0));
    expect(sent.toSorted()).toEqual(Array.from({ length: 25 }, (_, i) => `Mail ${i}`).toSorted());
  });

  it("hands the rest of a batch back at once when SMTP is so slow the claim could run out", async () => {
    await enqueue(3);
    const sent: string[] = [];
    // The first send takes 16 s of the worker's clock, more than a batch may spend starting sends.
    let now = 0;
    const slow: MailTransport = { kind: "smtp", send: async (mail) => void (sent.push(mail.subject), (now += 16_000)), close: () => {} };
    expect(await deliverDueMail(db(), slow, { clock: () => now })).toEqual({ sent: 1, failed: 0 });
    expect(sent).toEqual(["Mail 0"]);
    const healthy: MailTransport = { kind: "smtp", send: async (mail) => void sent.push(mail.subject), close: () => {} };
    expect(await deliverDueMail(db(), healthy)).toEqual({ sent: 2, failed: 0 });
  });

  it("keeps what a process sent before it died, and sends the rest once its claim runs out", async () => {
    await enqueue(3);
    const sent: string[] = [];
    // Sends the first mail, then never hears back from SMTP: the process is as good as dead.
    const dying: MailTransport = { kind: "smtp", send: (mail) => (sent.length === 0 ? (sent.push(mail.subject), Promise.resolve()) : new Promise(() => {})), close: () => {} };
    void deliverDueMail(db(), dying);
    await expect.poll(async () => (await db().select().from(mailOutbox).where(eq(mailOutbox.status, "sent"))).length).toBe(1);
    const healthy: MailTransport = { kind: "smtp", send: async (mail) => void sent.push(mail.subject), close: () => {} };
    expect(await deliverDueMail(db(), healthy)).toEqual({ sent: 0, failed: 0 });
    // The dead process's claim on the other two ends.
    await db().update(mailOutbox).set({ nextAttemptAt: sql`now() - interval '1 second'` }).where(eq(mailOutbox.status, "pending"));
    expect(await deliverDueMail(db(), healthy)).toEqual({ sent: 2, failed: 0 });
    expect(sent.toSorted()).toEqual(["Mail 0", "Mail 1", "Mail 2"]);
  });
});

describe("encryption key", () => {
  it("is created once outside production and reused; missing in production is the spec's error", async () => {
    const database = await databaseKinds[0]!.open();
    await database.migrate();
    await expect(loadEncryptionKey(database.db, { envKey: undefined, createIfMissing: false })).rejects.toThrow(
      "Failed to fetch encryption key",
    );
    const first = await loadEncryptionKey(database.db, { envKey: undefined, createIfMissing: true });
    const second = await loadEncryptionKey(database.db, { envKey: undefined, createIfMissing: true });
    expect(second.equals(first)).toBe(true);
    expect((await database.db.select().from(appRoots)).map((r) => r.id)).toEqual(["Encryption"]);
    const fromEnv = await loadEncryptionKey(database.db, { envKey: randomBytes(32).toString("base64"), createIfMissing: false });
    expect(fromEnv.equals(first)).toBe(false);
    const cipher = createFieldCipher(first);
    expect(cipher.decrypt(cipher.encrypt("x"))).toBe("x");
    await database.close();
  });
});

describe("SMTP delivery", () => {
  it("delivers outbox mail over real SMTP", async () => {
    const received: string[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      onData(stream, _session, callback) {
        let message = "";
        stream.on("data", (chunk: Buffer) => (message += chunk.toString()));
        stream.on("end", () => {
          received.push(message);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.server.address() as { port: number };
    const database = await databaseKinds[0]!.open();
    await database.migrate();
    const transport = createMailTransport({ smtpUrl: `smtp://127.0.0.1:${port}`, from: "Academy <no-reply@academy.test>" });
    await enqueueMail(database.db, { to: "learner@example.com", subject: "Hello over SMTP", text: "Plain body", html: "<p>HTML body</p>", links: [] });
    expect(await deliverDueMail(database.db, transport)).toEqual({ sent: 1, failed: 0 });
    expect(received).toHaveLength(1);
    expect(received[0]).toContain("Subject: Hello over SMTP");
    expect(received[0]).toContain("To: learner@example.com");
    expect(received[0]).toContain("Plain body");
    expect(await deliverDueMail(database.db, transport)).toEqual({ sent: 0, failed: 0 });
    transport.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await database.close();
  });
});
