import { asc, desc, eq } from "drizzle-orm";
import { consumeThrottle } from "../auth/throttle.ts";
import type { Catalog } from "../catalog/index.ts";
import { listOrders, listPayments } from "../commerce/queries.ts";
import type { FieldCipher } from "../crypto/field-encryption.ts";
import type { Db } from "../db/client.ts";
import { TooManyRequests } from "../errors.ts";
import { account, enrolments, feedback, lessonProgress, mailOutbox, session, user } from "../db/schema.ts";
import { listCertificates } from "../learning/certificates.ts";
import type { Logger } from "../logger.ts";
import { exportNotes, type Note } from "../notes/index.ts";
import { hostingPlan, listWebsites, stateLabels, websiteHistory, websiteState } from "../websites/index.ts";
import { readUserDocument } from "./user-document.ts";

/** A sum of money as people read it: 1499 rupees, not 149900 paise. */
const money = (minor: number, currency: string) => ({ value: minor / 100, currency });

/** A person downloads their data now and then; three an hour leaves room for a download or two that failed. */
export const exportsPerHour = 3;

type ExportServices = { db: Db; cipher: FieldCipher; logger: Logger; catalog: Catalog };

/** The document "Download my data" gives: the sections below, then the notes. */
export type UserDataExport = Awaited<ReturnType<typeof readSections>> & { notes: Note[] };

/**
 * "Download my data": everything we hold on one person, decrypted, as one JSON document streamed
 * out. Counted per person (exportsPerHour, whatever they sign in with); every section but the notes
 * is read at once, and the notes, which can be 20 MB, follow a slice at a time as the client reads.
 */
export async function exportUserData(services: ExportServices, userId: string, now: Date): Promise<ReadableStream<Uint8Array>> {
  const limit = await consumeThrottle(services.db, `data-export:${userId}`, { windowSeconds: 60 * 60, max: exportsPerHour });
  if (!limit.allowed) {
    const minutes = Math.max(1, Math.ceil(limit.retryAfterSeconds / 60));
    throw new TooManyRequests(
      `You have downloaded your data ${exportsPerHour} times in the last hour, the most we allow. Try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`,
      Math.max(1, limit.retryAfterSeconds),
    );
  }
  const sections = JSON.stringify(await readSections(services, userId, now), null, 2);
  const encoder = new TextEncoder();
  let written = 0;
  // Each slice of notes becomes its JSON text in the bulk lane, where it was decrypted.
  const notes = exportNotes(services.db, services.cipher, userId, (slice) =>
    encoder.encode(slice.map((note) => `${written++ ? "," : ""}\n    ${JSON.stringify(note, null, 2).replaceAll("\n", "\n    ")}`).join("")),
  );
  return new ReadableStream<Uint8Array>({
    start(controller) {
      // The sections' closing "\n}" makes way for the notes.
      controller.enqueue(encoder.encode(`${sections.slice(0, -2)},\n  "notes": [`));
    },
    async pull(controller) {
      try {
        const next = await notes.next();
        if (next.done) {
          controller.enqueue(encoder.encode(`${written ? "\n  " : ""}]\n}\n`));
          controller.close();
        } else {
          controller.enqueue(next.value);
        }
      } catch (error) {
        services.logger.error({ err: error }, "the data export stopped while reading notes");
        controller.error(error);
      }
    },
    async cancel() {
      await notes.return(undefined);
    },
  });
}

/** Every section of the export but the notes, each read by the same query that serves the person's pages, filtered by their id alone. */
async function readSections(services: ExportServices, userId: string, now: Date) {
  const { db, cipher, logger, catalog } = services;
  const [[profile], document] = await Promise.all([
    db.select({ id: user.id, name: user.name, email: user.email, emailVerified: user.emailVerified, image: user.image, createdAt: user.createdAt, updatedAt: user.updatedAt }).from(user).where(eq(user.id, userId)),
    readUserDocument(db, cipher, logger, userId),
  ]);
  const [signInMethods, sessions, mail, courses, lessonsCompleted, reviews, certificates, orders, payments, websites] = await Promise.all([
    db.select({ provider: account.providerId, createdAt: account.createdAt }).from(account).where(eq(account.userId, userId)),
    db.select({ createdAt: session.createdAt, lastSeenAt: session.updatedAt, expiresAt: session.expiresAt, ipAddress: session.ipAddress, userAgent: session.userAgent }).from(session).where(eq(session.userId, userId)),
    profile
      ? db.select({ subject: mailOutbox.subject, status: mailOutbox.status, createdAt: mailOutbox.createdAt, sentAt: mailOutbox.sentAt }).from(mailOutbox).where(eq(mailOutbox.to, profile.email)).orderBy(desc(mailOutbox.createdAt))
      : [],
    db.select({ courseId: enrolments.courseId, status: enrolments.status, enrolledAt: enrolments.createdAt, revokedAt: enrolments.revokedAt }).from(enrolments).where(eq(enrolments.userId, userId)).orderBy(asc(enrolments.createdAt)),
    db.select({ courseId: lessonProgress.courseId, lessonId: lessonProgress.lessonId, completedAt: lessonProgress.completedAt }).from(lessonProgress).where(eq(lessonProgress.userId, userId)).orderBy(asc(lessonProgress.completedAt)),
    db
      .select({
        courseId: feedback.courseId,
        rating: feedback.rating,
        comment: feedback.comment,
        createdAt: feedback.createdAt,
        updatedAt: feedback.updatedAt,
        hiddenAt: feedback.hiddenAt,
        hiddenReason: feedback.hiddenReason,
        reply: feedback.reply,
      })
      .from(feedback).where(eq(feedback.userId, userId)),
    listCertificates(db, cipher, userId),
    listOrders(db, userId),
    listPayments(db, userId),
    listWebsites(db, userId).then((sites) => Promise.all(sites.map(async (site) => ({ site, periods: await websiteHistory(db, site.id) })))),
  ]);
  return {
    exportedAt: now.toISOString(),
    account: profile ?? null,
    userDocument: document,
    signInMethods,
    sessions,
    mail,
    courses,
    lessonsCompleted,
    reviews,
    certificates: certificates.map(({ id, courseId, courseTitle, learnerName, issuedAt, revokedAt }) => ({ id, courseId, courseTitle, learnerName, issuedAt, revokedAt })),
    orders: orders.map((order) => ({
      number: order.number,
      title: order.title,
      status: order.status,
      total: money(order.amount, order.currency),
      tax: money(order.taxAmount, order.currency),
      buyerGstin: order.buyerGstin,
      createdAt: order.createdAt,
      paidAt: order.paidAt,
      refund: order.refund && { status: order.refund.status, amount: money(order.refund.amount, order.refund.currency), requestedAt: order.refund.createdAt, processedAt: order.refund.processedAt },
    })),
    payments: payments.map((payment) => ({
      orderNumber: payment.orderNumber,
      reference: payment.providerPaymentId,
      status: payment.status,
      method: payment.method,
      amount: money(payment.amount, payment.currency),
      failureReason: payment.failureReason,
      createdAt: payment.createdAt,
    })),
    websites: websites.map(({ site, periods }) => ({
      domain: site.domain,
      plan: hostingPlan(catalog, site.serviceId, site.planId)?.name ?? site.planId,
      status: stateLabels[websiteState(site, now)],
      startedAt: site.startedAt,
      expiresAt: site.expiresAt,
      cancelledAt: site.cancelledAt,
      periods: periods.map((period) => ({ plan: hostingPlan(catalog, site.serviceId, period.planId)?.name ?? period.planId, startsAt: period.startsAt, endsAt: period.endsAt, orderNumber: period.order.number })),
    })),
  };
}
