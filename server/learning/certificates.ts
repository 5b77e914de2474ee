import { randomBytes } from "node:crypto";
import { and, asc, eq, inArray, isNull, max } from "drizzle-orm";
import { formatDay } from "../../common/format.ts";
import type { CertificateFace } from "../../common/view-types.ts";
import type { Catalog, Course } from "../catalog/index.ts";
import { decryptFields, type FieldCipher } from "../crypto/field-encryption.ts";
import type { Db } from "../db/client.ts";
import { certificates, enrolments, lessonProgress, user } from "../db/schema.ts";
import { consumeThrottle } from "../auth/throttle.ts";
import { Conflict, Forbidden, Gone, NotFound, refuseTooMany, ValidationError } from "../errors.ts";
import type { Logger } from "../logger.ts";
import { profileName } from "../users/profile.ts";
import { readUserDocument } from "../users/user-document.ts";
import { allLessons, courseState, findCourse } from "./player.ts";

/** What a certificate states, and nothing about its holder's account. */
export interface Certificate {
  id: string;
  courseId: string;
  courseTitle: string;
  learnerName: string;
  issuedAt: Date;
  /** When a refund of the course revoked it; null while it stands. */
  revokedAt: Date | null;
  /** When it was reissued with its holder's one name correction; null if it never was. */
  nameCorrectedAt: Date | null;
}

export interface CertificateServices {
  db: Db;
  cipher: FieldCipher;
  logger: Logger;
  catalog: Catalog;
}

/** Crockford's base32: no I, L, O or U, so an ID read aloud or retyped survives. */
const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const prefix = "AC";
const codeLength = 16;

function grouped(code: string): string {
  return `${prefix}-${code.match(/.{4}/g)?.join("-")}`;
}

/** A new verification code, AC-XXXX-XXXX-XXXX-XXXX: 80 random bits, nothing derived from the learner. */
export function newCertificateId(): string {
  // 32 symbols divide 256 evenly, so masking a byte keeps every symbol equally likely.
  const code = Array.from(randomBytes(codeLength), (byte) => alphabet[byte & 31]).join("");
  return grouped(code);
}

/**
 * The stored form of an ID as someone typed it: any case, with or without dashes and spaces, and
 * Crockford's look-alikes (O for 0, I and L for 1) read as the digits they resemble. Null when it
 * cannot be one of ours.
 */
export function normaliseCertificateId(input: string): string | null {
  const compact = input.toUpperCase().replace(/[\s-]/g, "");
  if (!compact.startsWith(prefix)) return null;
  const code = compact.slice(prefix.length).replace(/O/g, "0").replace(/[IL]/g, "1");
  if (code.length !== codeLength || [...code].some((c) => !alphabet.includes(c))) return null;
  return grouped(code);
}

function readable(cipher: FieldCipher, row: typeof certificates.$inferSelect): Certificate {
  const plain = decryptFields(cipher, row, ["learnerName"]);
  return {
    id: plain.id,
    courseId: plain.courseId,
    courseTitle: plain.courseTitle,
    learnerName: plain.learnerName,
    issuedAt: plain.issuedAt,
    revokedAt: plain.revokedAt,
    nameCorrectedAt: plain.nameCorrectedAt,
  };
}

/** The certificate with this verification code, for anyone who has the code; a revoked one says when it was revoked. */
export async function findCertificate(db: Db, cipher: FieldCipher, certificateId: string): Promise<Certificate> {
  const id = normaliseCertificateId(certificateId);
  const [row] = id ? await db.select().from(certificates).where(eq(certificates.id, id)) : [];
  if (!row) throw new NotFound("We could not find a certificate with that ID.");
  return readable(cipher, row);
}

/** What the certificate shows, on its page and in its PDF: the catalogue's instructor and issuer beside what it states. */
export function certificateFace(catalog: Catalog, publicUrl: string, certificate: Certificate): CertificateFace {
  const course = catalog.courses.find((c) => c.id === certificate.courseId);
  const instructor = course && catalog.team.find((m) => m.id === course.instructor);
  return {
    id: certificate.id,
    learnerName: certificate.learnerName,
    courseTitle: certificate.courseTitle,
    issuedAt: certificate.issuedAt,
    instructor: instructor ? { name: instructor.name, role: instructor.role } : null,
    issuer: { name: catalog.site.name, legalName: catalog.site.legalName },
    verifyUrl: `${publicUrl}/certificates/${certificate.id}`,
  };
}

/** How many PDFs of their certificates one person may have drawn in an hour: each takes about 65 ms of the server's CPU, during which it answers nobody else. */
export const certificatePdfsPerHour = 20;

/**
 * The holder's own certificate, for its PDF, counted against certificatePdfsPerHour. The page
 * stays public (its ID is the secret that shows it); the file is the holder's alone, and a revoked
 * certificate has none.
 */
export async function holderCertificate(db: Db, cipher: FieldCipher, userId: string, certificateId: string): Promise<Certificate> {
  const certificate = await findCertificate(db, cipher, certificateId);
  if (certificate.revokedAt) throw new Gone(`Certificate ${certificate.id} was revoked on ${formatDay(certificate.revokedAt)}, when the course was refunded, so there is no PDF of it.`);
  const [own] = await db
    .select({ id: certificates.id })
    .from(certificates)
    .where(and(eq(certificates.id, certificate.id), eq(certificates.userId, userId)));
  if (!own) throw new Forbidden("Only the person this certificate was issued to can download it as a PDF. Anyone with its ID can see and check it on its page.");
  const drawn = await consumeThrottle(db, `certificate-pdf:${userId}`, { windowSeconds: 60 * 60, max: certificatePdfsPerHour });
  if (!drawn.allowed) {
    refuseTooMany(`You have downloaded certificates as PDF ${certificatePdfsPerHour} times in the last hour, the most we allow. Their pages can still be printed.`, drawn.retryAfterSeconds);
  }
  return certificate;
}

/** The learner's standing certificate for a course, if one was issued and not revoked. */
async function findOwnCertificate(db: Db, cipher: FieldCipher, userId: string, courseId: string): Promise<Certificate | null> {
  const [row] = await db
    .select()
    .from(certificates)
    .where(and(eq(certificates.userId, userId), eq(certificates.courseId, courseId), isNull(certificates.revokedAt)));
  return row ? readable(cipher, row) : null;
}

/** Every certificate issued to the user, revoked ones included, oldest first, for "Download my data". */
export async function listCertificates(db: Db, cipher: FieldCipher, userId: string): Promise<Certificate[]> {
  const rows = await db.select().from(certificates).where(eq(certificates.userId, userId)).orderBy(asc(certificates.issuedAt));
  return rows.map((row) => readable(cipher, row));
}

/** The IDs of the learner's standing (not revoked) certificates among these courses, by course id. */
export async function issuedCertificateIds(db: Db, userId: string, courseIds: string[]): Promise<Map<string, string>> {
  if (courseIds.length === 0) return new Map();
  const rows = await db
    .select({ id: certificates.id, courseId: certificates.courseId })
    .from(certificates)
    .where(and(eq(certificates.userId, userId), inArray(certificates.courseId, courseIds), isNull(certificates.revokedAt)));
  return new Map(rows.map((r) => [r.courseId, r.id]));
}

/** When the learner last completed one of the course's lessons: the day they finished, once all are done. */
export async function lastLessonCompletedAt(db: Db, course: Course, userId: string): Promise<Date | null> {
  const lessonIds = allLessons(course).map((l) => l.id);
  if (lessonIds.length === 0) return null;
  const [row] = await db
    .select({ at: max(lessonProgress.completedAt) })
    .from(lessonProgress)
    .where(and(eq(lessonProgress.userId, userId), eq(lessonProgress.courseId, course.id), inArray(lessonProgress.lessonId, lessonIds)));
  return row?.at ?? null;
}

/** The name printed on the certificate: the profile's, else the account's. */
async function learnerName(services: CertificateServices, userId: string): Promise<string> {
  const document = await readUserDocument(services.db, services.cipher, services.logger, userId);
  if (document?.name.trim()) return document.name.trim();
  const [account] = await services.db.select({ name: user.name }).from(user).where(eq(user.id, userId));
  return account?.name.trim() ?? "";
}

/**
 * Issues the learner's certificate for a course they are enrolled in and have completed, or returns
 * the one already issued. The course title and the learner's name are kept as they are now. The
 * enrolment row is locked while the certificate is written, so a refund asked for at the same
 * moment either sees the certificate (and is refused) or revokes access first (and this is refused).
 */
export async function issueCertificate(services: CertificateServices, userId: string, courseId: string): Promise<Certificate> {
  const { db, cipher, catalog } = services;
  const course = findCourse(catalog, courseId);
  const existing = await findOwnCertificate(db, cipher, userId, course.id);
  if (existing) return existing;
  const name = await learnerName(services, userId);

  const created = await db.transaction(async (tx) => {
    const [enrolment] = await tx
      .select({ status: enrolments.status })
      .from(enrolments)
      .where(and(eq(enrolments.userId, userId), eq(enrolments.courseId, course.id)))
      .for("update");
    if (enrolment?.status !== "active") {
      throw new Forbidden(
        enrolment
          ? "Your enrolment in this course has ended, so we cannot issue a certificate for it."
          : "Enrol in this course and complete every lesson to earn its certificate.",
      );
    }
    const state = await courseState(tx, course, userId);
    if (state.percent < 100) {
      throw new Forbidden(
        `Complete every lesson to get your certificate: you have completed ${state.completed.size} of ${course.lessonCount} lessons.`,
      );
    }
    if (!name) throw new ValidationError("Add your name on your profile first: it is printed on the certificate.");
    const [row] = await tx
      .insert(certificates)
      .values({ id: newCertificateId(), userId, courseId: course.id, courseTitle: course.title, learnerName: cipher.encrypt(name) })
      // A second request racing this one finds the learner's row through the unique index.
      .onConflictDoNothing({ target: [certificates.userId, certificates.courseId], where: isNull(certificates.revokedAt) })
      .returning();
    return row;
  });
  if (created) return readable(cipher, created);
  const raced = await findOwnCertificate(db, cipher, userId, course.id);
  if (!raced) throw new Error("certificate neither inserted nor found");
  return raced;
}

/** Revokes the learner's standing certificate for a course, in the caller's transaction (a refund's). */
export async function revokeCertificates(tx: Db, userId: string, courseId: string, now: Date): Promise<void> {
  await tx
    .update(certificates)
    .set({ revokedAt: now })
    .where(and(eq(certificates.userId, userId), eq(certificates.courseId, courseId), isNull(certificates.revokedAt)));
}

/**
 * Reissues the holder's certificate once with a corrected name: the same ID and verification
 * address, the new name, and a record of when and of the name first printed. Asking again with the
 * name it already has changes nothing (a resubmitted form); any further change is refused, for
 * support to look at. Only the holder of a standing certificate may ask.
 */
export async function correctCertificateName(
  services: Pick<CertificateServices, "db" | "cipher" | "catalog">,
  userId: string,
  certificateId: string,
  requestedName: unknown,
  now: Date,
): Promise<Certificate> {
  const { db, cipher, catalog } = services;
  const parsed = profileName.safeParse(requestedName);
  if (!parsed.success) throw new ValidationError(parsed.error.issues[0]?.message ?? "Tell us your name.");
  const name = parsed.data;
  const id = normaliseCertificateId(certificateId);
  return db.transaction(async (tx) => {
    const [row] = id ? await tx.select().from(certificates).where(eq(certificates.id, id)).for("update") : [];
    if (!row) throw new NotFound("We could not find a certificate with that ID.");
    if (row.userId !== userId) throw new Forbidden("Only the person this certificate was issued to can ask for its name to be corrected.");
    if (row.revokedAt) throw new Forbidden("This certificate was revoked, so its name can no longer be corrected.");
    const current = readable(cipher, row);
    if (current.learnerName === name) {
      if (current.nameCorrectedAt) return current;
      throw new ValidationError("That is the name already on the certificate. Type the name as it should appear.");
    }
    if (current.nameCorrectedAt) {
      throw new Conflict(`The name on this certificate was already corrected once. To change it again, write to us at ${catalog.site.email}.`);
    }
    const [updated] = await tx
      .update(certificates)
      .set({ learnerName: cipher.encrypt(name), originalLearnerName: row.learnerName, nameCorrectedAt: now })
      .where(eq(certificates.id, row.id))
      .returning();
    if (!updated) throw new Error("certificate locked but not updated");
    return readable(cipher, updated);
  });
}
