import { isAPIError } from "better-auth/api";
import { and, count, eq } from "drizzle-orm";
import { formatOrderNumber } from "../../common/format.ts";
import type { CustomerAction } from "../../common/staff.ts";
import type { Auth } from "../auth/index.ts";
import { signInLockedUntil, unlockSignIn } from "../auth/account-limits.ts";
import { grantCourse, type Shop } from "../commerce/index.ts";
import type { Db } from "../db/client.ts";
import { session, user } from "../db/schema.ts";
import { NotFound, TooManyRequests, ValidationError } from "../errors.ts";
import { recordAudit, stateReason, type Actor } from "./audit.ts";

async function customer(db: Db, id: string): Promise<{ id: string; email: string; emailVerified: boolean }> {
  const [found] = await db.select({ id: user.id, email: user.email, emailVerified: user.emailVerified }).from(user).where(eq(user.id, id)).limit(1);
  if (!found) throw new NotFound("No customer has this id: the account may have been deleted.");
  return found;
}

/**
 * Sends a mail through Better Auth as the customer's own request would, so the per-address limits on
 * mails to one person (server/auth/index.ts accountLimits) hold for staff too: support cannot flood an inbox.
 */
async function mailThroughAuth(send: () => Promise<unknown>, tooSoon: string): Promise<void> {
  try {
    await send();
  } catch (error) {
    if (isAPIError(error) && error.statusCode === 429) throw new TooManyRequests(tooSoon, 15 * 60);
    throw error;
  }
}

/** Does `action` for the customer with `customerId`, writing who did it; returns what to tell the staff member. */
export async function actForCustomer(deps: { db: Db; auth: Auth }, actor: Actor, customerId: string, action: CustomerAction): Promise<string> {
  const { db, auth } = deps;
  const person = await customer(db, customerId);
  const subject = { kind: "user", id: person.id };
  switch (action) {
    case "resend-verification": {
      if (person.emailVerified) throw new ValidationError("Their e-mail is verified already: there is nothing to confirm.");
      await mailThroughAuth(
        () => auth.api.sendVerificationEmail({ body: { email: person.email, callbackURL: "/" } }),
        "Several confirmation mails went to them in the last few minutes. Ask them to look in their spam folder, and try again later.",
      );
      await recordAudit(db, actor, { action: "customer.resend-verification", subject, after: { email: person.email } });
      return `A new confirmation link is on its way to ${person.email}.`;
    }
    case "send-password-reset": {
      await mailThroughAuth(
        () => auth.api.requestPasswordReset({ body: { email: person.email, redirectTo: "/reset-password" } }),
        "Several reset links went to them in the last hour. Ask them to use the newest one, or try again later.",
      );
      await recordAudit(db, actor, { action: "customer.send-password-reset", subject, after: { email: person.email } });
      return `A link to choose a new password is on its way to ${person.email}. It works for one hour.`;
    }
    case "unlock-sign-in": {
      const lockedUntil = await signInLockedUntil(db, person.email, new Date());
      if (!lockedUntil) throw new ValidationError("Their sign-in is not locked: they may sign in now.");
      await db.transaction(async (tx) => {
        await unlockSignIn(tx, person.email);
        await recordAudit(tx, actor, { action: "customer.unlock-sign-in", subject, before: { lockedUntil: lockedUntil.toISOString() }, after: { lockedUntil: null } });
      });
      return "They may sign in again now. If they have forgotten their password, send them a reset link.";
    }
    case "revoke-sessions": {
      return db.transaction(async (tx) => {
        const [before] = await tx.select({ sessions: count() }).from(session).where(eq(session.userId, person.id));
        await tx.delete(session).where(eq(session.userId, person.id));
        await recordAudit(tx, actor, { action: "customer.revoke-sessions", subject, before: { sessions: before?.sessions ?? 0 }, after: { sessions: 0 } });
        const signedOut = before?.sessions ?? 0;
        return signedOut === 0 ? "They were not signed in anywhere." : `Signed out of ${signedOut} ${signedOut === 1 ? "device or CLI" : "devices and CLIs"}.`;
      });
    }
  }
}

/**
 * Gives the customer a course without payment (a ₹0 order, no tax invoice), with the reason in the
 * audit log in the same transaction; returns what to tell the staff member.
 */
export async function grantCourseToCustomer(
  shop: Shop,
  actor: Actor,
  customerId: string,
  grant: { courseId: string; reason: string; idempotencyKey: string },
): Promise<string> {
  const person = await customer(shop.db, customerId);
  const reason = stateReason(grant.reason, "why they get the course without paying");
  const { order, granted } = await grantCourse(shop, { userId: person.id, courseId: grant.courseId, idempotencyKey: grant.idempotencyKey }, (tx, made) =>
    recordAudit(tx, actor, { action: "customer.grant-course", subject: { kind: "user", id: person.id }, after: { courseId: made.courseId, order: made.id }, reason }),
  );
  const named = `${order.title} (order ${formatOrderNumber(order.number)}, ₹0, no tax invoice)`;
  return granted ? `${named} is now in their account.` : `${named} was given already.`;
}

/** Signs the customer out of one browser or CLI, writing who did it; returns what to tell the staff member. */
export async function revokeCustomerSession(db: Db, actor: Actor, customerId: string, sessionId: string): Promise<string> {
  const person = await customer(db, customerId);
  return db.transaction(async (tx) => {
    const [ended] = await tx
      .delete(session)
      .where(and(eq(session.id, sessionId), eq(session.userId, person.id)))
      .returning({ userAgent: session.userAgent, createdAt: session.createdAt });
    if (!ended) throw new NotFound("That sign-in has ended already: it is not in their list any more.");
    await recordAudit(tx, actor, { action: "customer.revoke-session", subject: { kind: "user", id: person.id }, before: { session: sessionId, userAgent: ended.userAgent, signedInAt: ended.createdAt.toISOString() } });
    return "Signed out of that browser or CLI at its next request.";
  });
}
