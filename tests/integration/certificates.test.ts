import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { certificates, enrolments, lessonProgress } from "../../server/db/schema.ts";
import { createLogger } from "../../server/logger.ts";
import {
  correctCertificateName,
  findCertificate,
  issueCertificate,
  issuedCertificateIds,
  lastLessonCompletedAt,
  newCertificateId,
  normaliseCertificateId,
  revokeCertificates,
  type CertificateServices,
} from "../../server/learning/certificates.ts";
import { setLessonComplete } from "../../server/learning/player.ts";
import { updateUserDocument } from "../../server/users/user-document.ts";
import { databaseKinds, identitySuite, testCatalog, testCourse } from "./helpers.ts";

const course = testCourse("demo", "Demo course", [["1-1", "1-2"], ["2-1"]]);
const catalog = testCatalog([course]);

describe("certificate IDs", () => {
  it("are AC- and sixteen Crockford base32 characters in groups of four, different every time", () => {
    const ids = new Set(Array.from({ length: 200 }, () => newCertificateId()));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(id).toMatch(/^AC-[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
  });

  it("are read in any case, with or without dashes, and with look-alike letters taken as digits", () => {
    expect(normaliseCertificateId("ac-7kq3-m9xd-2hpv-t4ne")).toBe("AC-7KQ3-M9XD-2HPV-T4NE");
    expect(normaliseCertificateId(" AC7KQ3M9XD2HPVT4NE ")).toBe("AC-7KQ3-M9XD-2HPV-T4NE");
    expect(normaliseCertificateId("AC-O0IL-0000-0000-0000")).toBe("AC-0011-0000-0000-0000");
    for (const bad of ["", "AC-", "AC-7KQ3-M9XD-2HPV", "AC-7KQ3-M9XD-2HPV-T4NEX", "XY-7KQ3-M9XD-2HPV-T4NE", "AC-UUUU-0000-0000-0000", "AC-7KQ3-M9XD-2HPV-T4N!"]) {
      expect(normaliseCertificateId(bad)).toBeNull();
    }
  });
});

describe.each(databaseKinds)("certificates of completion on $name", ({ open }) => {
  const suite = identitySuite(open, catalog);
  const services = (): CertificateServices => ({ db: suite.db, cipher: suite.identity.cipher, logger: createLogger("silent"), catalog });

  async function learner(options: { enrolled: "active" | "revoked" | null; done?: string[]; name?: string }): Promise<string> {
    const { id } = await suite.signUp(options.name ?? "Lata Mangeshkar");
    if (options.enrolled) await suite.enrol(id, "demo");
    for (const lessonId of options.done ?? []) await setLessonComplete(suite.db, catalog, id, "demo", lessonId, true);
    if (options.enrolled === "revoked") {
      await suite.db.update(enrolments).set({ status: "revoked" }).where(and(eq(enrolments.userId, id), eq(enrolments.courseId, "demo")));
    }
    return id;
  }

  const allDone = ["1-1", "1-2", "2-1"];
  const issue = (userId: string) => issueCertificate(services(), userId, "demo");
  const correct = (userId: string, certificateId: string, name: unknown, now = new Date("2026-11-25T10:00:00Z")) =>
    correctCertificateName(services(), userId, certificateId, name, now);
  const rowsOf = (userId: string) => suite.db.select().from(certificates).where(eq(certificates.userId, userId));

  it("issues nothing below 100 % or without an active enrolment, and says why", async () => {
    const partly = await learner({ enrolled: "active", done: ["1-1", "1-2"] });
    await expect(issue(partly)).rejects.toMatchObject({ status: 403, message: "Complete every lesson to get your certificate: you have completed 2 of 3 lessons." });
    const visitor = await learner({ enrolled: null });
    await expect(issue(visitor)).rejects.toMatchObject({ status: 403, message: "Enrol in this course and complete every lesson to earn its certificate." });
    const refunded = await learner({ enrolled: "revoked", done: allDone });
    await expect(issue(refunded)).rejects.toMatchObject({ status: 403, message: "Your enrolment in this course has ended, so we cannot issue a certificate for it." });
    await expect(issueCertificate(services(), partly, "no-such-course")).rejects.toMatchObject({ status: 404 });
    for (const userId of [partly, visitor, refunded]) expect(await rowsOf(userId)).toEqual([]);
  });

  it("issues one certificate per learner and course, however often and however fast it is asked for", async () => {
    const userId = await learner({ enrolled: "active", done: allDone });
    const concurrent = await Promise.all([issue(userId), issue(userId), issue(userId), issue(userId)]);
    const again = await issue(userId);
    expect(new Set([...concurrent, again].map((c) => c.id)).size).toBe(1);
    expect(await rowsOf(userId)).toHaveLength(1);
    expect(again).toMatchObject({ courseId: "demo", courseTitle: "Demo course", learnerName: "Lata Mangeshkar" });
    expect((await issuedCertificateIds(suite.db, userId, ["demo", "other"])).get("demo")).toBe(again.id);
  });

  it("keeps the learner's name encrypted at rest and as it was at issue time", async () => {
    const userId = await learner({ enrolled: "active", done: allDone, name: "Asha Bhosle" });
    await updateUserDocument(suite.db, suite.identity.cipher, userId, { name: "Asha B. Bhosle" });
    const issued = await issue(userId);
    expect(issued.learnerName).toBe("Asha B. Bhosle");
    const [row] = await rowsOf(userId);
    expect(row?.learnerName.startsWith("v1:")).toBe(true);
    expect(row?.learnerName).not.toContain("Asha");
    await updateUserDocument(suite.db, suite.identity.cipher, userId, { name: "Someone Else" });
    expect((await findCertificate(suite.db, suite.identity.cipher, issued.id)).learnerName).toBe("Asha B. Bhosle");
  });

  it("falls back to the account's name when the profile has none", async () => {
    const userId = await learner({ enrolled: "active", done: allDone, name: "Kishore Kumar" });
    await updateUserDocument(suite.db, suite.identity.cipher, userId, { name: "" });
    expect((await issue(userId)).learnerName).toBe("Kishore Kumar");
  });

  it("shows a certificate to anyone with its ID, in any case, and only what a certificate states", async () => {
    const userId = await learner({ enrolled: "active", done: allDone });
    const issued = await issue(userId);
    const found = await findCertificate(suite.db, suite.identity.cipher, issued.id.toLowerCase().replaceAll("-", ""));
    expect(found).toEqual({ id: issued.id, courseId: "demo", courseTitle: "Demo course", learnerName: "Lata Mangeshkar", issuedAt: issued.issuedAt, revokedAt: null, nameCorrectedAt: null });
    expect(JSON.stringify(found)).not.toContain(userId);
  });

  it("keeps a revoked certificate findable with its revocation date, no longer the learner's; buying again earns a new one", async () => {
    const userId = await learner({ enrolled: "active", done: allDone });
    const first = await issue(userId);
    const revokedAt = new Date("2026-11-20T08:00:00Z");
    await suite.db.update(enrolments).set({ status: "revoked" }).where(eq(enrolments.userId, userId));
    await revokeCertificates(suite.db, userId, "demo", revokedAt);

    expect(await findCertificate(suite.db, suite.identity.cipher, first.id)).toMatchObject({ id: first.id, revokedAt });
    expect((await issuedCertificateIds(suite.db, userId, ["demo"])).size).toBe(0);
    await expect(issue(userId)).rejects.toMatchObject({ status: 403, message: "Your enrolment in this course has ended, so we cannot issue a certificate for it." });

    await suite.db.update(enrolments).set({ status: "active" }).where(eq(enrolments.userId, userId));
    const second = await issue(userId);
    expect(second.id).not.toBe(first.id);
    expect(second.revokedAt).toBeNull();
    expect((await issuedCertificateIds(suite.db, userId, ["demo"])).get("demo")).toBe(second.id);
    expect((await findCertificate(suite.db, suite.identity.cipher, first.id)).revokedAt).toEqual(revokedAt);
  });

  it("finds no certificate for an unknown or malformed ID", async () => {
    await expect(findCertificate(suite.db, suite.identity.cipher, newCertificateId())).rejects.toMatchObject({ status: 404 });
    await expect(findCertificate(suite.db, suite.identity.cipher, "not-an-id")).rejects.toMatchObject({ status: 404 });
    await expect(findCertificate(suite.db, suite.identity.cipher, "")).rejects.toMatchObject({ status: 404 });
  });

  it("never gives one learner another's certificate", async () => {
    const a = await learner({ enrolled: "active", done: allDone });
    const mine = await issue(a);
    const notEnrolled = await learner({ enrolled: null });
    await expect(issue(notEnrolled)).rejects.toMatchObject({ status: 403 });
    const b = await learner({ enrolled: "active", done: allDone, name: "Bela Shende" });
    const theirs = await issue(b);
    expect(theirs.id).not.toBe(mine.id);
    expect(theirs.learnerName).toBe("Bela Shende");
    expect((await issuedCertificateIds(suite.db, notEnrolled, ["demo"])).size).toBe(0);
    expect(await rowsOf(a)).toHaveLength(1);
  });

  describe("a name correction", () => {
    it("reissues the certificate once with the new name: same ID, the change and the first name recorded", async () => {
      const userId = await learner({ enrolled: "active", done: allDone, name: "Lata Mangeskar" });
      const issued = await issue(userId);
      const at = new Date("2026-11-25T10:00:00Z");
      const corrected = await correct(userId, issued.id.toLowerCase(), "  Lata Mangeshkar ", at);
      expect(corrected).toEqual({ ...issued, learnerName: "Lata Mangeshkar", nameCorrectedAt: at });
      expect(await findCertificate(suite.db, suite.identity.cipher, issued.id)).toEqual(corrected);
      const [row] = await rowsOf(userId);
      expect(row?.learnerName).not.toContain("Lata");
      expect(suite.identity.cipher.decrypt(row?.originalLearnerName ?? "")).toBe("Lata Mangeskar");
    });

    it("allows one correction only: the same name again changes nothing, another is refused and points to support", async () => {
      const userId = await learner({ enrolled: "active", done: allDone, name: "Lata Mangeskar" });
      const issued = await issue(userId);
      const first = await correct(userId, issued.id, "Lata Mangeshkar");
      expect(await correct(userId, issued.id, "Lata Mangeshkar", new Date("2026-11-26T10:00:00Z"))).toEqual(first);
      await expect(correct(userId, issued.id, "L. Mangeshkar")).rejects.toMatchObject({
        status: 409,
        message: "The name on this certificate was already corrected once. To change it again, write to us at support@academy.test.",
      });
      expect((await findCertificate(suite.db, suite.identity.cipher, issued.id)).learnerName).toBe("Lata Mangeshkar");
    });

    it("is refused to anyone but the holder, on a revoked certificate, and for an unknown ID", async () => {
      const holder = await learner({ enrolled: "active", done: allDone });
      const issued = await issue(holder);
      const other = await learner({ enrolled: "active", done: allDone, name: "Bela Shende" });
      await expect(correct(other, issued.id, "Bela Shende")).rejects.toMatchObject({
        status: 403,
        message: "Only the person this certificate was issued to can ask for its name to be corrected.",
      });
      await expect(correct(holder, newCertificateId(), "Lata M.")).rejects.toMatchObject({ status: 404 });
      await revokeCertificates(suite.db, holder, "demo", new Date());
      await expect(correct(holder, issued.id, "Lata M.")).rejects.toMatchObject({ status: 403, message: "This certificate was revoked, so its name can no longer be corrected." });
      expect((await findCertificate(suite.db, suite.identity.cipher, issued.id)).learnerName).toBe("Lata Mangeshkar");
    });

    it("checks the name as the profile does, and refuses the name already printed without using up the correction", async () => {
      const userId = await learner({ enrolled: "active", done: allDone });
      const issued = await issue(userId);
      await expect(correct(userId, issued.id, "   ")).rejects.toMatchObject({ status: 400, message: "Tell us your name." });
      await expect(correct(userId, issued.id, "x".repeat(101))).rejects.toMatchObject({ status: 400, message: "Keep your name under 100 characters." });
      await expect(correct(userId, issued.id, "Lata\nMangeshkar")).rejects.toMatchObject({ status: 400, message: "Your name can only contain printable characters." });
      await expect(correct(userId, issued.id, 42)).rejects.toMatchObject({ status: 400 });
      await expect(correct(userId, issued.id, "Lata Mangeshkar")).rejects.toMatchObject({ status: 400, message: "That is the name already on the certificate. Type the name as it should appear." });
      expect((await findCertificate(suite.db, suite.identity.cipher, issued.id)).nameCorrectedAt).toBeNull();
      expect((await correct(userId, issued.id, "Lata D. Mangeshkar")).learnerName).toBe("Lata D. Mangeshkar");
    });
  });

  it("dates completion by the last lesson completed", async () => {
    const userId = await learner({ enrolled: "active", done: allDone });
    const last = new Date("2026-03-14T10:00:00Z");
    await suite.db
      .update(lessonProgress)
      .set({ completedAt: last })
      .where(and(eq(lessonProgress.userId, userId), eq(lessonProgress.lessonId, "1-2")));
    await suite.db
      .update(lessonProgress)
      .set({ completedAt: new Date("2026-03-01T10:00:00Z") })
      .where(and(eq(lessonProgress.userId, userId), eq(lessonProgress.lessonId, "1-1")));
    await suite.db
      .update(lessonProgress)
      .set({ completedAt: new Date("2026-03-02T10:00:00Z") })
      .where(and(eq(lessonProgress.userId, userId), eq(lessonProgress.lessonId, "2-1")));
    expect(await lastLessonCompletedAt(suite.db, course, userId)).toEqual(last);
  });
});
