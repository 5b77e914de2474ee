import { asc, desc, eq } from "drizzle-orm";
import type { Catalog } from "../catalog/index.ts";
import { listOrders, listPayments } from "../commerce/queries.ts";
import type { FieldCipher } from "../crypto/field-encryption.ts";
import type { Db } from "../db/client.ts";
import { account, enrolments, feedback, lessonProgress, mailOutbox, session, user } from "../db/schema.ts";
import { listCertificates } from "../learning/certificates.ts";
import type { Logger } from "../logger.ts";
import { exportNotes } from "../notes/index.ts";
import { hostingPlan, listWebsites, stateLabels, websiteHistory, websiteState } from "../websites/index.ts";
import { readUserDocument } from "./user-document.ts";

/** A sum of money as people read it: 1499 rupees, not 149900 paise. */
const money = (minor: number, currency: string) => ({ value: minor / 100, currency });

/**
 * "Download my data": everything we hold on one person, decrypted, in one document. Each section
 * is read by the same query that serves the person's pages, filtered by their id alone.
 */
export async function exportUserData(services: { db: Db; cipher: FieldCipher; logger: Logger; catalog: Catalog }, userId: string, now: Date) {
  const { db, cipher, logger, catalog } = services;
  const [[profile], document] = await Promise.all([
    db.select({ id: user.id, name: user.name, email: user.email, emailVerified: user.emailVerified, image: user.image, createdAt: user.createdAt, updatedAt: user.updatedAt }).from(user).where(eq(user.id, userId)),
    readUserDocument(db, cipher, logger, userId),
  ]);
  const [signInMethods, sessions, mail, notes, courses, lessonsCompleted, reviews, certificates, orders, payments, websites] = await Promise.all([
    db.select({ provider: account.providerId, createdAt: account.createdAt }).from(account).where(eq(account.userId, userId)),
    db.select({ createdAt: session.createdAt, lastSeenAt: session.updatedAt, expiresAt: session.expiresAt, ipAddress: session.ipAddress, userAgent: session.userAgent }).from(session).where(eq(session.userId, userId)),
    profile
      ? db.select({ subject: mailOutbox.subject, status: mailOutbox.status, createdAt: mailOutbox.createdAt, sentAt: mailOutbox.sentAt }).from(mailOutbox).where(eq(mailOutbox.to, profile.email)).orderBy(desc(mailOutbox.createdAt))
      : [],
    exportNotes(db, cipher, userId),
    db.select({ courseId: enrolments.courseId, status: enrolments.status, enrolledAt: enrolments.createdAt, revokedAt: enrolments.revokedAt }).from(enrolments).where(eq(enrolments.userId, userId)).orderBy(asc(enrolments.createdAt)),
    db.select({ courseId: lessonProgress.courseId, lessonId: lessonProgress.lessonId, completedAt: lessonProgress.completedAt }).from(lessonProgress).where(eq(lessonProgress.userId, userId)).orderBy(asc(lessonProgress.completedAt)),
    db.select({ courseId: feedback.courseId, rating: feedback.rating, comment: feedback.comment, createdAt: feedback.createdAt, updatedAt: feedback.updatedAt }).from(feedback).where(eq(feedback.userId, userId)),
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
    notes,
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
