import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { cliLoginRequests, deviceCode, mailOutbox, notes, rateLimit, scheduledJobs, session, throttles, user, verification } from "../../server/db/schema.ts";
import { cleanUp, sentMailRetentionDays } from "../../server/jobs/clean-up.ts";
import { claimRun, finishRun, scheduleJob, type JobSchedule } from "../../server/jobs/scheduled.ts";
import { createLogger } from "../../server/logger.ts";
import { databaseKinds, migratedDatabaseEach, projectRoot } from "./helpers.ts";

const hours = (n: number) => n * 3_600_000;
const days = (n: number) => n * 86_400_000;

describe.each(databaseKinds)("background work on $name", ({ open }) => {
  const db = () => database().db;
  const database = migratedDatabaseEach(open);

  describe("a scheduled job", () => {
    const job: JobSchedule = { name: "test-job", everySeconds: 600, leaseSeconds: 60 };

    it("is claimed by exactly one of several processes asking at once", async () => {
      const claims = await Promise.all(Array.from({ length: 8 }, () => claimRun(db(), job)));
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await claimRun(db(), job)).toBe(false);
    });

    it("is not due again until its interval has passed after a run", async () => {
      expect(await claimRun(db(), job)).toBe(true);
      await finishRun(db(), job, undefined);
      expect(await claimRun(db(), job)).toBe(false);
      await db().update(scheduledJobs).set({ nextRunAt: sql`now() - interval '1 second'` }).where(eq(scheduledJobs.name, job.name));
      expect(await claimRun(db(), job)).toBe(true);
    });

    it("is taken over when the process running it died and its lease ran out", async () => {
      expect(await claimRun(db(), job)).toBe(true);
      // The owner is gone: nobody finishes the run, and its lease ends.
      await db().update(scheduledJobs).set({ leaseUntil: sql`now() - interval '1 second'` }).where(eq(scheduledJobs.name, job.name));
      expect(await claimRun(db(), job)).toBe(true);
    });

    it("keeps the last failure's message and is due again after its interval", async () => {
      expect(await claimRun(db(), job)).toBe(true);
      await finishRun(db(), job, new Error("SMTP refused"));
      const [row] = await db().select().from(scheduledJobs).where(eq(scheduledJobs.name, job.name));
      expect(row).toMatchObject({ lastError: "SMTP refused", leaseUntil: null });
      expect(row?.nextRunAt.getTime()).toBeGreaterThan(Date.now() + 590_000);
    });

    it("runs once per interval however many processes schedule it", async () => {
      let runs = 0;
      // Each process's claims (its inserts) are counted, so the test waits until all asked again after the run instead of for a guessed time.
      const asks = [0, 0, 0];
      const processes = asks.map((_, i) =>
        scheduleJob({
          db: new Proxy(db(), {
            get: (target, key, receiver) => {
              if (key === "insert") asks[i] = (asks[i] ?? 0) + 1;
              return Reflect.get(target, key, receiver) as unknown;
            },
          }),
          logger: createLogger("silent"),
          job,
          pollMs: 20,
          run: async () => {
            runs += 1;
            await new Promise((resolve) => setTimeout(resolve, 50));
          },
        }),
      );
      await expect.poll(async () => (await db().select().from(scheduledJobs).where(eq(scheduledJobs.name, job.name)))[0]?.lastFinishedAt ?? null).not.toBeNull();
      const asked = [...asks];
      await expect.poll(() => asks.every((n, i) => n >= (asked[i] ?? 0) + 2)).toBe(true);
      await Promise.all(processes.map((p) => p.stop()));
      expect(runs).toBe(1);
    });
  });

  describe("the clean-up", () => {
    const now = new Date();
    const ago = (ms: number) => new Date(now.getTime() - ms);
    const ahead = (ms: number) => new Date(now.getTime() + ms);

    it("removes expired sessions, tokens, codes, counters, old sent mail and long-deleted notes, and nothing else", async () => {
      const userId = randomUUID();
      await db().insert(user).values({ id: userId, name: "Asha", email: `${userId}@example.com` });
      await db().insert(session).values([
        { id: "expired", token: "t1", userId, expiresAt: ago(1000), updatedAt: now },
        { id: "live", token: "t2", userId, expiresAt: ahead(days(1)), updatedAt: now },
      ]);
      await db().insert(verification).values([
        { id: "stale", identifier: "a", value: "v", expiresAt: ago(days(2)) },
        // Just expired: kept a day, so following the link says it expired.
        { id: "just-expired", identifier: "b", value: "v", expiresAt: ago(hours(1)) },
      ]);
      await db().insert(deviceCode).values([
        { id: "old-code", deviceCode: "d1", userCode: "AAAA1111", expiresAt: ago(days(2)), status: "pending" },
        { id: "new-code", deviceCode: "d2", userCode: "BBBB2222", expiresAt: ahead(600_000), status: "pending" },
      ]);
      await db().insert(cliLoginRequests).values([
        { userCode: "AAAA1111", createdAt: ago(days(2)) },
        { userCode: "BBBB2222", createdAt: ago(60_000) },
      ]);
      await db().insert(rateLimit).values([
        { id: "old", key: "1.2.3.4/sign-in", count: 3, lastRequest: ago(days(2)).getTime() },
        { id: "new", key: "1.2.3.5/sign-in", count: 3, lastRequest: ago(60_000).getTime() },
      ]);
      await db().insert(throttles).values([
        { key: "old", count: 2, windowStartedAt: ago(days(2)) },
        { key: "new", count: 2, windowStartedAt: ago(60_000) },
      ]);
      const mail = { to: "asha@example.com", subject: "s", text: "t", html: "h" };
      await db().insert(mailOutbox).values([
        { ...mail, subject: "old sent", status: "sent", sentAt: ago(days(sentMailRetentionDays + 1)) },
        { ...mail, subject: "recent sent", status: "sent", sentAt: ago(days(sentMailRetentionDays - 1)) },
        // Never delivered: kept for whoever looks into why.
        { ...mail, subject: "old failed", status: "failed", createdAt: ago(days(sentMailRetentionDays + 1)) },
      ]);
      await db().insert(notes).values([
        { userId, title: "purged", body: "b", deletedAt: ago(hours(25)) },
        { userId, title: "restorable", body: "b", deletedAt: ago(hours(23)) },
        { userId, title: "live", body: "b" },
      ]);

      expect(await cleanUp(db(), now)).toEqual({
        sessions: 1,
        verifications: 1,
        deviceCodes: 1,
        cliLoginRequests: 1,
        rateLimits: 1,
        throttles: 1,
        sentMail: 1,
        deletedNotes: 1,
        unpaidWebsites: 0,
      });
      expect((await db().select({ id: session.id }).from(session)).map((r) => r.id)).toEqual(["live"]);
      expect((await db().select({ id: verification.id }).from(verification)).map((r) => r.id)).toEqual(["just-expired"]);
      expect((await db().select({ id: deviceCode.id }).from(deviceCode)).map((r) => r.id)).toEqual(["new-code"]);
      expect((await db().select({ code: cliLoginRequests.userCode }).from(cliLoginRequests)).map((r) => r.code)).toEqual(["BBBB2222"]);
      expect((await db().select({ id: rateLimit.id }).from(rateLimit)).map((r) => r.id)).toEqual(["new"]);
      expect((await db().select({ key: throttles.key }).from(throttles)).map((r) => r.key)).toEqual(["new"]);
      expect((await db().select({ subject: mailOutbox.subject }).from(mailOutbox)).map((r) => r.subject).toSorted()).toEqual(["old failed", "recent sent"]);
      expect((await db().select({ title: notes.title }).from(notes)).map((r) => r.title).toSorted()).toEqual(["live", "restorable"]);

      // A second run, or another process's at the same moment, finds nothing more.
      const again = await Promise.all([cleanUp(db(), now), cleanUp(db(), now)]);
      for (const counts of again) expect(Object.values(counts).every((n) => n === 0)).toBe(true);
    });
  });
});

it("keeps sent mail as long as the privacy policy says", async () => {
  const policy = await readFile(path.join(projectRoot, "content/policies/privacy.md"), "utf8");
  expect(policy).toContain(`kept for ${sentMailRetentionDays} days after they are sent, then deleted`);
});
