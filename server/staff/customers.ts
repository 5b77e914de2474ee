import { and, asc, desc, eq, gt, isNull, sql } from "drizzle-orm";
import { formatOrderNumber } from "../../common/format.ts";
import type { OrderStatus, RefundStatus } from "../../common/order-statuses.ts";
import { customerSearchLimit, type StaffRole } from "../../common/staff.ts";
import type { WebsiteState } from "../../common/website-states.ts";
import { maxSessionsPerPerson, signInLockedUntil } from "../auth/account-limits.ts";
import type { Db } from "../db/client.ts";
import { account, certificates, enrolments, feedback, orders, refunds, session, user, websites } from "../db/schema.ts";
import { normaliseDomain, websiteState } from "../websites/index.ts";
import { orderListColumns, withRefund } from "./orders.ts";
import { rolesOf } from "./roles.ts";

/** The order number in what someone typed, as receipts print it or shortened: ACD-000042, acd-42, #42, 42. */
export function orderNumberIn(query: string): number | null {
  const digits = /^(?:acd-?|#)?(\d{1,15})$/i.exec(query.trim())?.[1];
  const number = Number(digits);
  return digits !== undefined && Number.isSafeInteger(number) && number > 0 ? number : null;
}

/** The domain in what someone typed, if it is one: a URL or a bare name, normalised as customers' domains are. */
function domainIn(query: string): string | null {
  const bare = query
    .trim()
    .replace(/^https?:\/\//i, "")
    .replace(/\/.*$/, "");
  if (!bare.includes(".") || bare.includes("@")) return null;
  try {
    return normaliseDomain(bare);
  } catch {
    return null;
  }
}

/** A name's and an address's words, as user_search_idx (server/db/auth-schema.ts) holds them. */
const searchable = sql`to_tsvector('simple', ${user.name} || ' ' || ${user.email})`;

/**
 * What someone typed as a text-search query in which every word must start a word of the name or
 * the address: "kumar" finds Rohan Kumar, "rohan.ku" finds rohan.kumar@example.com. Only letters,
 * digits and an address's own signs are kept, lower-cased as the index holds them, so nothing typed
 * is read as query syntax; null when nothing is left.
 */
function prefixQuery(text: string): string | null {
  const words = text
    .toLowerCase()
    .split(/\s+/)
    .map((word) => word.replace(/[^\p{L}\p{N}@._+-]/gu, ""))
    .filter(Boolean);
  return words.length === 0 ? null : words.map((word) => `'${word}':*`).join(" & ");
}

export interface CustomerMatch {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  createdAt: Date;
  /** Why this person is in the results, when it was not their name or e-mail: "order ACD-000042", "website shop.example.in". */
  through: string | null;
}

/**
 * People whose name or e-mail has words starting with those of `query`, who placed the order it
 * numbers, or whose website has the domain it names: the exact matches (order, domain, e-mail)
 * first, then the newest accounts.
 */
export async function searchCustomers(db: Db, query: string): Promise<CustomerMatch[]> {
  const text = query.trim();
  if (text.length === 0) return [];
  const number = orderNumberIn(text);
  const domain = domainIn(text);
  const words = prefixQuery(text);
  const people = { id: user.id, name: user.name, email: user.email, emailVerified: user.emailVerified, createdAt: user.createdAt };
  const [byOrder, byDomain, byText] = await Promise.all([
    number === null ? [] : db.select({ ...people, number: orders.number }).from(orders).innerJoin(user, eq(user.id, orders.userId)).where(eq(orders.number, number)),
    domain === null
      ? []
      : db
          .selectDistinctOn([user.id], { ...people, domain: websites.domain })
          .from(websites)
          .innerJoin(user, eq(user.id, websites.userId))
          .where(eq(websites.domain, domain))
          .orderBy(user.id),
    words === null
      ? []
      : db
          .select(people)
          .from(user)
          // Cast, not to_tsquery: each word stays one prefix, as typed, where the parser would split "rohan.ku" or "asha-v".
          .where(sql`${searchable} @@ ${words}::tsquery`)
          .orderBy(sql`lower(${user.email}) = lower(${text}) desc`, desc(user.createdAt))
          .limit(customerSearchLimit),
  ]);
  const found = new Map<string, CustomerMatch>();
  for (const { number: ordered, ...person } of byOrder) found.set(person.id, { ...person, through: `order ${formatOrderNumber(ordered)}` });
  for (const { domain: site, ...person } of byDomain) if (!found.has(person.id)) found.set(person.id, { ...person, through: `website ${site}` });
  for (const person of byText) if (!found.has(person.id)) found.set(person.id, { ...person, through: null });
  return [...found.values()].slice(0, customerSearchLimit);
}

/**
 * The order `query` numbers when its buyer has deleted their account, so a search by it finds no
 * one: support is told the account is gone instead of that nobody matches. Null otherwise.
 */
export async function orderOfDeletedAccount(db: Db, query: string): Promise<{ id: string; number: number } | null> {
  const number = orderNumberIn(query);
  if (number === null) return null;
  const [order] = await db
    .select({ id: orders.id, number: orders.number })
    .from(orders)
    .where(and(eq(orders.number, number), isNull(orders.userId)));
  return order ?? null;
}

export interface CustomerOrder {
  id: string;
  number: number;
  kind: "course" | "website";
  title: string;
  amount: number;
  status: OrderStatus;
  refund: { status: RefundStatus } | null;
  createdAt: Date;
  paidAt: Date | null;
}

export interface CustomerWebsite {
  id: string;
  domain: string;
  planId: string;
  state: WebsiteState;
  expiresAt: Date | null;
}

/**
 * What support sees of a customer: who they are and how they sign in, their orders, courses and
 * websites. Never their notes, nor the encrypted profile beyond the name they sign in with.
 */
export interface CustomerOverview {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  createdAt: Date;
  twoFactorEnabled: boolean;
  roles: StaffRole[];
  /** "credential" (a password) and the social providers, e.g. "google". */
  signInMethods: string[];
  activeSessions: number;
  /** The browsers and CLIs signed in now, the most recently used first (at most maxSessionsPerPerson). No addresses. */
  sessions: { id: string; userAgent: string | null; createdAt: Date; lastActiveAt: Date }[];
  /** Until when their sign-ins are refused after too many attempts; null when they may sign in. */
  signInLockedUntil: Date | null;
  /** Courses they may open (and which), and courses taken back (refunded). */
  enrolments: { active: number; revoked: number; activeCourseIds: string[] };
  orders: CustomerOrder[];
  /** Their courses, newest first, with how far they got and their certificate, if one was issued. */
  courses: { courseId: string; status: "active" | "revoked"; progressPercent: number; enrolledAt: Date; certificate: { id: string; issuedAt: Date; revoked: boolean } | null }[];
  /** Their reviews: the stars and whether staff hid it; the text is on the reviews page. */
  reviews: { id: string; courseId: string; rating: number; hidden: boolean }[];
  websites: CustomerWebsite[];
}

/** The customer with `id`, as of `now`; null when there is no such account (or it was deleted). */
export async function customerOverview(db: Db, id: string, now: Date): Promise<CustomerOverview | null> {
  const [person] = await db
    .select({ id: user.id, name: user.name, email: user.email, emailVerified: user.emailVerified, createdAt: user.createdAt, twoFactorEnabled: user.twoFactorEnabled })
    .from(user)
    .where(eq(user.id, id))
    .limit(1);
  if (!person) return null;
  const [roles, methods, sessions, lockedUntil, courseRows, orderRows, siteRows, certificateRows, reviewRows] = await Promise.all([
    rolesOf(db, id),
    db.selectDistinct({ provider: account.providerId }).from(account).where(eq(account.userId, id)).orderBy(asc(account.providerId)),
    db
      .select({ id: session.id, userAgent: session.userAgent, createdAt: session.createdAt, lastActiveAt: session.updatedAt })
      .from(session)
      .where(and(eq(session.userId, id), gt(session.expiresAt, now)))
      .orderBy(desc(session.updatedAt))
      .limit(maxSessionsPerPerson),
    signInLockedUntil(db, person.email, now),
    db
      .select({ courseId: enrolments.courseId, status: enrolments.status, progressPercent: enrolments.furthestProgressPercent, enrolledAt: enrolments.createdAt })
      .from(enrolments)
      .where(eq(enrolments.userId, id))
      .orderBy(desc(enrolments.createdAt)),
    db
      .select({ ...orderListColumns, paidAt: orders.paidAt })
      .from(orders)
      .leftJoin(refunds, eq(refunds.orderId, orders.id))
      .where(eq(orders.userId, id))
      .orderBy(desc(orders.createdAt)),
    db
      .select({ id: websites.id, domain: websites.domain, planId: websites.planId, billingInterval: websites.billingInterval, expiresAt: websites.expiresAt, cancelledAt: websites.cancelledAt, suspendedAt: websites.suspendedAt })
      .from(websites)
      .where(eq(websites.userId, id))
      .orderBy(desc(websites.createdAt)),
    db
      .select({ id: certificates.id, courseId: certificates.courseId, issuedAt: certificates.issuedAt, revokedAt: certificates.revokedAt })
      .from(certificates)
      .where(eq(certificates.userId, id)),
    db
      .select({ id: feedback.id, courseId: feedback.courseId, rating: feedback.rating, hiddenAt: feedback.hiddenAt })
      .from(feedback)
      .where(eq(feedback.userId, id))
      .orderBy(desc(feedback.createdAt)),
  ]);
  const active = courseRows.filter((row) => row.status === "active").map((row) => row.courseId);
  return {
    ...person,
    twoFactorEnabled: person.twoFactorEnabled === true,
    roles,
    signInMethods: methods.map((method) => method.provider),
    activeSessions: sessions.length,
    sessions,
    signInLockedUntil: lockedUntil,
    enrolments: { active: active.length, revoked: courseRows.length - active.length, activeCourseIds: active },
    orders: orderRows.map(withRefund),
    courses: courseRows.map((course) => {
      const certificate = certificateRows.filter((row) => row.courseId === course.courseId).toSorted((a, b) => b.issuedAt.getTime() - a.issuedAt.getTime())[0];
      return { ...course, certificate: certificate ? { id: certificate.id, issuedAt: certificate.issuedAt, revoked: certificate.revokedAt !== null } : null };
    }),
    reviews: reviewRows.map((review) => ({ id: review.id, courseId: review.courseId, rating: review.rating, hidden: review.hiddenAt !== null })),
    websites: siteRows.map((site) => ({ id: site.id, domain: site.domain, planId: site.planId, state: websiteState(site, now), expiresAt: site.expiresAt })),
  };
}
