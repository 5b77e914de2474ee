// The back office's roles and its audit log (issue 27): roles live in the database and are read on
// every request; every change is an audit entry in the same transaction; the log refuses to change.
import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { clientIpHeader } from "../../server/auth/index.ts";
import { loadCatalog, type Catalog } from "../../server/catalog/index.ts";
import { formatOrderNumber } from "../../common/format.ts";
import { auditLog, certificates, feedback, mailOutbox, orders, payments, refunds, session, staffRoles, user, websites } from "../../server/db/schema.ts";
import {
  actForCustomer,
  confirmSecondFactor,
  grantCourseToCustomer,
  customerOverview,
  grantRole,
  listAudit,
  listStaff,
  listOutbox,
  listStaffOrders,
  retryWaitingMail,
  revokeCustomerSession,
  orderNumberIn,
  revokeRole,
  rolesOf,
  orderOfDeletedAccount,
  searchCustomers,
  secondFactorNeeded,
  staffMember,
  type Actor,
  type StaffOrderFilter,
} from "../../server/staff/index.ts";
import { migratedDataDir } from "../support/database-templates.ts";
import { childEnv, runNode, type Ran } from "../support/node-process.ts";
import { contentDir, databaseKinds, identitySuite, projectRoot, startTestPayments } from "./helpers.ts";

let catalog: Catalog;
beforeAll(async () => {
  catalog = await loadCatalog(contentDir);
});

const viewer = (id: string, sessionId: string) => ({ id, name: "x", email: "x@example.com", image: null, emailVerified: true, sessionId });
/** The database's own words refusing `query` (Drizzle reports the query, with them as its cause). */
async function refusal(query: Promise<unknown>): Promise<string> {
  const error = await query.then(
    () => null,
    (failure: unknown) => failure as Error & { cause?: Error },
  );
  return (error?.cause ?? error)?.message ?? "no error";
}

const operator: Actor = { id: null, name: "command line (test)", roles: [], address: null };

describe.each(databaseKinds)("staff roles and the audit log on $name", ({ open }) => {
  const suite = identitySuite(open, () => catalog);

  it("grants and revokes roles by e-mail, once each, writing who did it, before and after", async () => {
    const { id, email } = await suite.signUp("Kavya Nair");
    expect(await grantRole(suite.db, operator, email.toUpperCase(), "owner")).toEqual({ changed: true, userId: id });
    expect(await grantRole(suite.db, operator, email, "owner")).toEqual({ changed: false, userId: id });
    const owner: Actor = { id, name: `Kavya Nair <${email}>`, roles: ["owner"], address: "203.0.113.9" };
    const support = await suite.signUp("Ravi Kumar");
    await grantRole(suite.db, owner, support.email, "support");
    await grantRole(suite.db, owner, support.email, "finance");
    expect(await rolesOf(suite.db, support.id)).toEqual(["finance", "support"]);
    await revokeRole(suite.db, owner, support.email, "finance");
    expect(await rolesOf(suite.db, support.id)).toEqual(["support"]);

    const { entries } = await listAudit(suite.db);
    expect(entries.slice(0, 4).map((e) => [e.action, e.actor, e.address])).toEqual([
      ["staff.revoke", `Kavya Nair <${email}>`, "203.0.113.9"],
      ["staff.grant", `Kavya Nair <${email}>`, "203.0.113.9"],
      ["staff.grant", `Kavya Nair <${email}>`, "203.0.113.9"],
      ["staff.grant", "command line (test)", null],
    ]);
    expect(entries[0]).toMatchObject({ subjectKind: "user", subjectId: support.id, actorRoles: ["owner"], before: { roles: ["finance", "support"] }, after: { roles: ["support"] } });
    expect((await listAudit(suite.db, { subjectId: id })).entries).toHaveLength(1);
    expect((await listStaff(suite.db)).map((p) => [p.name, p.roles])).toEqual([
      ["Kavya Nair", ["owner"]],
      ["Ravi Kumar", ["support"]],
    ]);
  });

  it("refuses an unknown account, an unknown role and removing the last owner, with a sentence, changing nothing", async () => {
    const { email } = await suite.signUp("Meera Iyer");
    await expect(grantRole(suite.db, operator, "nobody@example.com", "support")).rejects.toThrow("No account has the e-mail nobody@example.com.");
    await expect(grantRole(suite.db, operator, email, "admin")).rejects.toThrow('There is no role called "admin". The roles are owner, support, finance and content.');
    await grantRole(suite.db, operator, email, "owner");
    // Every other owner goes; the last one stays.
    for (const other of (await listStaff(suite.db)).filter((p) => p.email !== email && p.roles.includes("owner"))) await revokeRole(suite.db, operator, other.email, "owner");
    const written = (await listAudit(suite.db)).entries.length;
    await expect(revokeRole(suite.db, operator, email, "owner")).rejects.toThrow("This is the only owner. Make someone else an owner first, so someone can still manage staff.");
    const owners = await suite.db.select().from(staffRoles).where(eq(staffRoles.role, "owner"));
    expect(owners.map((r) => r.userId)).toHaveLength(1);
    expect((await listAudit(suite.db)).entries).toHaveLength(written);
  });

  it("keeps the audit log append-only: UPDATE, DELETE and TRUNCATE are refused by the database itself", async () => {
    const { email } = await suite.signUp("Arjun Das");
    await grantRole(suite.db, operator, email, "content");
    const sentence = "The audit log is append-only: entries are never changed or deleted.";
    expect(await refusal(suite.db.update(auditLog).set({ reason: "tampered" }))).toBe(sentence);
    expect(await refusal(suite.db.execute(sql`update audit_log set reason = 'tampered'`))).toBe(sentence);
    expect(await refusal(suite.db.execute(sql`delete from audit_log`))).toBe(sentence);
    expect(await refusal(suite.db.execute(sql`truncate audit_log`))).toBe(sentence);
    const { entries } = await listAudit(suite.db, { action: "staff.grant" });
    expect(entries.map((e) => e.reason)).toEqual(entries.map(() => null));
  });

  it("knows a staff member from a customer on each request, and when their session needs the second factor", async () => {
    const learner = await suite.signUp("Priya Shah");
    expect(await staffMember(suite.db, viewer(learner.id, "no-session"))).toBeNull();
    expect(await staffMember(suite.db, null)).toBeNull();

    await grantRole(suite.db, operator, learner.email, "support");
    const signedIn = await suite.db.query.session.findFirst({ where: (s, { eq: is }) => is(s.userId, learner.id) });
    const member = await staffMember(suite.db, viewer(learner.id, signedIn?.id ?? ""));
    expect(member).toMatchObject({ roles: ["support"], twoFactorEnabled: false, secondFactorAt: null });
    expect(secondFactorNeeded(member!)).toBe("set-up");

    await suite.db.execute(sql`update "user" set two_factor_enabled = true where id = ${learner.id}`);
    expect(secondFactorNeeded((await staffMember(suite.db, viewer(learner.id, signedIn?.id ?? "")))!)).toBe("confirm");
    const confirmedAt = new Date("2026-11-27T08:00:00Z");
    await confirmSecondFactor(suite.db, signedIn?.id ?? "", confirmedAt);
    const confirmed = (await staffMember(suite.db, viewer(learner.id, signedIn?.id ?? "")))!;
    expect(secondFactorNeeded(confirmed, new Date("2026-11-27T19:59:00Z"))).toBeNull();
    expect(secondFactorNeeded(confirmed, new Date("2026-11-27T20:01:00Z"))).toBe("confirm");

    // Revoked: from the next request on, the back office does not exist for them.
    await revokeRole(suite.db, operator, learner.email, "support");
    expect(await staffMember(suite.db, viewer(learner.id, signedIn?.id ?? ""))).toBeNull();
  });
});

/** `npm run staff -- …` as an operator types it, on its own data folder. */
const staffCommand = (dataDir: string, ...args: string[]): Promise<Ran> => runNode(["scripts/staff.ts", ...args], { cwd: projectRoot, env: childEnv({ DATA_DIR: dataDir }) });

describe("what support sees of customers", () => {
  it("reads order numbers as receipts print them or shortened, and nothing else", () => {
    expect(["ACD-000042", "acd-42", "ACD42", "#42", " 42 "].map(orderNumberIn)).toEqual([42, 42, 42, 42, 42]);
    expect(["", "ACD-", "0", "-3", "4.2", "ACD-00x1", "99999999999999999999", "a@b.in"].map(orderNumberIn)).toEqual([null, null, null, null, null, null, null, null]);
  });
});

describe.each(databaseKinds)("customers on $name", ({ open }) => {
  const suite = identitySuite(open, () => catalog);
  const day = 86_400_000;

  async function placeOrder(userId: string, status: "paid" | "created", key: string) {
    const [order] = await suite.db
      .insert(orders)
      .values({ userId, title: "React Fundamentals", courseId: "react-fundamentals", currency: "INR", amount: 99_900, taxableAmount: 84_661, taxAmount: 15_239, taxRatePercent: 18, taxMode: "inclusive", status, provider: "sandbox", idempotencyKey: key, paidAt: status === "paid" ? new Date() : null })
      .returning();
    if (!order) throw new Error("no order");
    return order;
  }

  it("finds a person by name, e-mail, order number or website domain, exact matches first, wildcards taken literally", async () => {
    const anjali = await suite.signUp("Anjali Deshpande");
    const namesake = await suite.signUp("Anjali Rao");
    const order = await placeOrder(anjali.id, "paid", "search-1");
    await suite.db.insert(websites).values({ userId: anjali.id, serviceId: "website-hosting", domain: "anjali-shop.example.in", planId: "starter-monthly", billingInterval: "month" });
    const found = async (query: string) => (await searchCustomers(suite.db, query)).map((customer) => [customer.email, customer.through]);

    expect(await found(formatOrderNumber(order.number))).toEqual([[anjali.email, `order ${formatOrderNumber(order.number)}`]]);
    expect(await found(`#${order.number}`)).toContainEqual([anjali.email, `order ${formatOrderNumber(order.number)}`]);
    expect(await found("https://Anjali-Shop.example.in/")).toEqual([[anjali.email, "website anjali-shop.example.in"]]);
    expect(await found(anjali.email.toUpperCase())).toEqual([[anjali.email, null]]);
    expect((await found("anjali")).map(([email]) => email)).toEqual(expect.arrayContaining([anjali.email, namesake.email]));
    expect(await found("Deshpande")).toEqual([[anjali.email, null]]);
    // Words match by their start, in any order; an address by its start.
    expect(await found("desh anj")).toEqual([[anjali.email, null]]);
    expect(await found(anjali.email.slice(0, 12))).toEqual([[anjali.email, null]]);
    expect(await found("shpande")).toEqual([]);
    expect(await found("'anjali':* | 'a':*")).toEqual(expect.arrayContaining([[anjali.email, null]]));
    expect(await found("!(&|)")).toEqual([]);
    expect(await found("%")).toEqual([]);
    expect(await found("_nj")).toEqual([]);
    expect(await found("   ")).toEqual([]);
    expect(await found("ACD-999999999")).toEqual([]);
  });

  it("tells support that an order's buyer deleted their account, instead of that no one matches", async () => {
    const gone = await suite.signUp("Deleted Buyer");
    const order = await placeOrder(gone.id, "paid", "deleted-1");
    const kept = await placeOrder((await suite.signUp("Kept Buyer")).id, "paid", "deleted-2");
    expect(await orderOfDeletedAccount(suite.db, formatOrderNumber(order.number))).toBeNull();
    // Deleting the account keeps the order (tax law) without its link to the person.
    await suite.db.delete(user).where(eq(user.id, gone.id));
    expect(await searchCustomers(suite.db, formatOrderNumber(order.number))).toEqual([]);
    expect(await orderOfDeletedAccount(suite.db, formatOrderNumber(order.number))).toEqual({ id: order.id, number: order.number });
    expect(await orderOfDeletedAccount(suite.db, `#${order.number}`)).toEqual({ id: order.id, number: order.number });
    expect(await orderOfDeletedAccount(suite.db, formatOrderNumber(kept.number))).toBeNull();
    expect(await orderOfDeletedAccount(suite.db, "Deleted Buyer")).toBeNull();
  });

  it("shows a customer's sign-in, orders with their refunds, courses and websites, and nothing of their notes", async () => {
    const buyer = await suite.signUp("Farhan Qureshi");
    const paid = await placeOrder(buyer.id, "paid", "overview-1");
    const waiting = await placeOrder(buyer.id, "created", "overview-2");
    const [payment] = await suite.db.insert(payments).values({ orderId: paid.id, providerPaymentId: `pay_${paid.number}`, amount: paid.amount, currency: "INR", status: "captured", method: "upi" }).returning();
    await suite.db.insert(refunds).values({ orderId: paid.id, paymentId: payment?.id ?? "", userId: buyer.id, amount: paid.amount, taxableAmount: paid.taxableAmount, taxAmount: paid.taxAmount, currency: "INR", status: "pending" });
    await suite.enrol(buyer.id, "react-fundamentals", "revoked");
    await suite.enrol(buyer.id, "node-backend");
    const now = new Date();
    await suite.db.insert(websites).values({ userId: buyer.id, serviceId: "website-hosting", domain: "farhan.example.in", planId: "starter-monthly", billingInterval: "month", startedAt: new Date(now.getTime() - 10 * day), expiresAt: new Date(now.getTime() + 20 * day) });

    await suite.db.insert(certificates).values({ id: `AC-TEST-${paid.number}`, userId: buyer.id, courseId: "node-backend", courseTitle: "Node", learnerName: "Farhan Qureshi", issuedAt: new Date(now.getTime() - day) });
    await suite.db.insert(feedback).values({ userId: buyer.id, courseId: "node-backend", rating: 2, comment: "Hidden for a reason.", hiddenAt: now, hiddenReason: "Abusive language." });
    const overview = await customerOverview(suite.db, buyer.id, now);
    expect(overview).toMatchObject({
      name: "Farhan Qureshi",
      email: buyer.email,
      emailVerified: false,
      roles: [],
      signInMethods: ["credential"],
      enrolments: { active: 1, revoked: 1 },
      websites: [{ domain: "farhan.example.in", state: "active" }],
    });
    expect(overview?.activeSessions).toBeGreaterThanOrEqual(1);
    expect(overview?.orders.map((o) => [o.number, o.status, o.refund])).toEqual([
      [waiting.number, "created", null],
      [paid.number, "paid", { status: "pending" }],
    ]);
    // What support may see, and no more: no notes, no profile fields beyond the name.
    expect(Object.keys(overview ?? {}).toSorted()).toEqual(
      ["activeSessions", "courses", "createdAt", "email", "emailVerified", "enrolments", "id", "name", "orders", "reviews", "roles", "sessions", "signInLockedUntil", "signInMethods", "twoFactorEnabled", "websites"].toSorted(),
    );
    expect(overview?.courses.map((c) => [c.courseId, c.status, c.progressPercent, c.certificate]).toSorted()).toEqual(
      [
        ["node-backend", "active", 0, { id: `AC-TEST-${paid.number}`, issuedAt: new Date(now.getTime() - day), revoked: false }],
        ["react-fundamentals", "revoked", 0, null],
      ].toSorted(),
    );
    expect(overview?.reviews).toEqual([{ id: expect.any(String), courseId: "node-backend", rating: 2, hidden: true }]);
    expect(await customerOverview(suite.db, "no-such-account", now)).toBeNull();
  });

  it("lists orders newest first, narrowed by status, kind, when they were made and their amount, with the buyer and any refund", async () => {
    const buyer = await suite.signUp("Tanvi Joshi");
    const paid = await placeOrder(buyer.id, "paid", "list-1");
    const waiting = await placeOrder(buyer.id, "created", "list-2");
    const [payment] = await suite.db.insert(payments).values({ orderId: paid.id, providerPaymentId: `pay_list_${paid.number}`, amount: paid.amount, currency: "INR", status: "captured", method: "card" }).returning();
    await suite.db.insert(refunds).values({ orderId: paid.id, paymentId: payment?.id ?? "", userId: buyer.id, amount: paid.amount, taxableAmount: paid.taxableAmount, taxAmount: paid.taxAmount, currency: "INR", status: "pending" });
    const mine = { minAmount: 99_900, maxAmount: 99_900, from: new Date(Date.now() - 60_000) };
    const numbers = async (filter: StaffOrderFilter) => (await listStaffOrders(suite.db, { ...mine, ...filter })).orders.filter((o) => o.buyer?.id === buyer.id).map((o) => o.number);

    expect(await numbers({})).toEqual([waiting.number, paid.number]);
    expect(await numbers({ status: "paid" })).toEqual([paid.number]);
    expect(await numbers({ kind: "website" })).toEqual([]);
    expect(await numbers({ minAmount: 99_901 })).toEqual([]);
    expect(await numbers({ to: new Date(Date.now() - 60_000) })).toEqual([]);
    expect(await numbers({ before: waiting.number })).toEqual([paid.number]);
    const [listed] = (await listStaffOrders(suite.db, { ...mine, status: "paid" })).orders.filter((o) => o.id === paid.id);
    expect(listed).toMatchObject({ buyer: { id: buyer.id, name: "Tanvi Joshi", email: buyer.email }, refund: { status: "pending" }, kind: "course" });
  });

  it("lists the outbox by recipient and state without the mails' text, and sends mail waiting out a retry at once, audited", async () => {
    const person = await suite.signUp("Outbox Owner");
    const soon = new Date(Date.now() + 3_600_000);
    const [waiting, , failed] = await suite.db
      .insert(mailOutbox)
      .values([
        { to: person.email, subject: "Waiting out a retry", text: "t", html: "h", attempts: 2, lastError: "421 try later", nextAttemptAt: soon },
        { to: person.email, subject: "Not tried yet", text: "t", html: "h" },
        { to: person.email, subject: "Given up", text: "", html: "", status: "failed", attempts: 8, lastError: "550 no such user" },
      ])
      .returning();
    const mine = await listOutbox(suite.db, { to: person.email.toUpperCase() });
    // Besides their confirmation mail from signing up.
    expect(mine.mails.map((m) => m.subject).filter((subject) => !subject.startsWith("Confirm your")).toSorted()).toEqual(["Given up", "Not tried yet", "Waiting out a retry"]);
    expect(mine.mails).toHaveLength(4);
    // The next page starts after the row it was asked from, even among mails queued in one millisecond.
    const [, second, ...older] = mine.mails;
    expect((await listOutbox(suite.db, { to: person.email, before: { createdAt: second?.createdAt ?? new Date(), id: second?.id ?? "" } })).mails.map((m) => m.id)).toEqual(older.map((m) => m.id));
    expect(mine.mails.every((m) => m.customerId === person.id)).toBe(true);
    expect(Object.keys(mine.mails[0] ?? {})).not.toContain("text");
    expect((await listOutbox(suite.db, { to: person.email, status: "failed" })).mails.map((m) => [m.id, m.lastError])).toEqual([[failed?.id, "550 no such user"]]);

    const support: Actor = { id: null, name: "Ravi Support <ravi@example.com>", roles: ["support"], address: "203.0.113.7" };
    expect(await retryWaitingMail(suite.db, support)).toMatch(/^\d+ mails? goe?s? out again now\.$/);
    const [row] = await suite.db.select().from(mailOutbox).where(eq(mailOutbox.id, waiting?.id ?? ""));
    expect(row?.nextAttemptAt.getTime()).toBeLessThan(soon.getTime());
    expect(await retryWaitingMail(suite.db, support)).toBe("No mail is waiting for a retry.");
    expect((await listAudit(suite.db, { action: "mail.retry" })).entries.map((e) => e.actor)).toEqual([support.name]);
  });

  it("gives a customer a course without payment: a ₹0 order with no provider, the course open, the reason audited, once per form", async () => {
    const shop = startTestPayments(suite.db, catalog, suite.identity).shop;
    const lucky = await suite.signUp("Gift Receiver");
    const support: Actor = { id: null, name: "Ravi Support <ravi@example.com>", roles: ["support"], address: "203.0.113.7" };
    const paidCourse = catalog.courses.find((course) => course.price.amount > 0);
    const grant = { courseId: paidCourse?.id ?? "", reason: "Scholarship for the November batch, approved by the owner.", idempotencyKey: randomBytes(12).toString("hex") };

    await expect(grantCourseToCustomer(shop, support, lucky.id, { ...grant, reason: "free" })).rejects.toThrow("Say why they get the course without paying, in 10 to 500 characters.");
    await expect(grantCourseToCustomer(shop, support, lucky.id, { ...grant, courseId: "no-such-course" })).rejects.toThrow("We could not find that course.");
    const told = await grantCourseToCustomer(shop, support, lucky.id, grant);
    expect(told).toMatch(new RegExp(`^${paidCourse?.title} \\(order ACD-\\d{6}, ₹0, no tax invoice\\) is now in their account\\.$`));
    expect(await grantCourseToCustomer(shop, support, lucky.id, grant)).toBe(told.replace("is now in their account", "was given already"));
    await expect(grantCourseToCustomer(shop, support, lucky.id, { ...grant, idempotencyKey: randomBytes(12).toString("hex") })).rejects.toThrow("They have this course already.");

    const [order, ...others] = await suite.db.select().from(orders).where(eq(orders.userId, lucky.id));
    expect(others).toEqual([]);
    expect(order).toMatchObject({ status: "paid", provider: "free", amount: 0, taxAmount: 0, providerOrderId: null, courseId: paidCourse?.id });
    expect((await customerOverview(suite.db, lucky.id, new Date()))?.enrolments).toEqual({ active: 1, revoked: 0, activeCourseIds: [paidCourse?.id] });
    expect((await listAudit(suite.db, { subjectId: lucky.id, action: "customer.grant-course" })).entries.map((e) => [e.reason, e.after])).toEqual([
      [grant.reason, { courseId: paidCourse?.id, order: order?.id }],
    ]);
    // They are told, once, with the way in and no receipt.
    const mailed = (await suite.db.select({ subject: mailOutbox.subject, text: mailOutbox.text }).from(mailOutbox).where(eq(mailOutbox.to, lucky.email))).filter(
      (mail) => !mail.subject.startsWith("Confirm your e-mail address"),
    );
    expect(mailed.map((mail) => mail.subject)).toEqual([`${paidCourse?.title} is in your account`]);
    expect(mailed[0]?.text).toContain(`http://academy.test/courses/${paidCourse?.id}/MainPage`);
  });

  it("sends a stuck customer a new confirmation or reset link and signs them out everywhere, each in the audit log, within the per-person mail limits", async () => {
    const stuck = await suite.signUp("Lakshmi Menon");
    const support: Actor = { id: null, name: "Ravi Support <ravi@example.com>", roles: ["support"], address: "203.0.113.7" };
    const deps = { db: suite.db, auth: suite.identity.auth };
    const mails = async (subject: string) => (await suite.db.select({ subject: mailOutbox.subject }).from(mailOutbox).where(eq(mailOutbox.to, stuck.email))).filter((m) => m.subject.includes(subject)).length;
    const confirmations = await mails("Confirm");

    expect(await actForCustomer(deps, support, stuck.id, "resend-verification")).toBe(`A new confirmation link is on its way to ${stuck.email}.`);
    expect(await mails("Confirm")).toBe(confirmations + 1);
    expect(await actForCustomer(deps, support, stuck.id, "send-password-reset")).toBe(`A link to choose a new password is on its way to ${stuck.email}. It works for one hour.`);
    expect(await actForCustomer(deps, support, stuck.id, "revoke-sessions")).toBe("Signed out of 1 device or CLI.");
    expect(await suite.db.select().from(session).where(eq(session.userId, stuck.id))).toEqual([]);
    expect(await actForCustomer(deps, support, stuck.id, "revoke-sessions")).toBe("They were not signed in anywhere.");

    const { entries } = await listAudit(suite.db, { subjectId: stuck.id });
    expect(entries.map((e) => [e.action, e.actor, e.before, e.after])).toEqual([
      ["customer.revoke-sessions", support.name, { sessions: 0 }, { sessions: 0 }],
      ["customer.revoke-sessions", support.name, { sessions: 1 }, { sessions: 0 }],
      ["customer.send-password-reset", support.name, null, { email: stuck.email }],
      ["customer.resend-verification", support.name, null, { email: stuck.email }],
    ]);

    // Reset links: three an hour to one person, whoever asks; the fourth is refused and written nowhere.
    await actForCustomer(deps, support, stuck.id, "send-password-reset");
    await actForCustomer(deps, support, stuck.id, "send-password-reset");
    await expect(actForCustomer(deps, support, stuck.id, "send-password-reset")).rejects.toThrow("Several reset links went to them in the last hour.");
    expect((await listAudit(suite.db, { subjectId: stuck.id, action: "customer.send-password-reset" })).entries).toHaveLength(3);

    await suite.db.update(user).set({ emailVerified: true }).where(eq(user.id, stuck.id));
    await expect(actForCustomer(deps, support, stuck.id, "resend-verification")).rejects.toThrow("Their e-mail is verified already: there is nothing to confirm.");
    await expect(actForCustomer(deps, support, "no-such-account", "revoke-sessions")).rejects.toThrow("No customer has this id");
  });

  it("lets a customer locked out by too many sign-ins in again, and signs them out of one device, each in the audit log", async () => {
    const locked = await suite.signUp("Arjun Rao");
    const other = await suite.signUp("Someone Else");
    const support: Actor = { id: null, name: "Ravi Support <ravi@example.com>", roles: ["support"], address: "203.0.113.7" };
    const deps = { db: suite.db, auth: suite.identity.auth };
    /** The status a sign-in is answered with (a refusal by our limits is thrown, not returned). */
    const signIn = (password: string, i: number) =>
      suite.identity.auth.api
        .signInEmail({ body: { email: locked.email, password }, headers: new Headers({ [clientIpHeader]: `10.77.0.${i}` }), asResponse: true })
        .then(
          (response) => response.status,
          (error: { statusCode?: number }) => error.statusCode ?? 500,
        );
    await expect(actForCustomer(deps, support, locked.id, "unlock-sign-in")).rejects.toThrow("Their sign-in is not locked: they may sign in now.");
    for (let i = 0; i < 10; i++) expect(await signIn("not the password", i)).toBe(401);
    const now = new Date();
    const before = await customerOverview(suite.db, locked.id, now);
    expect(before?.signInLockedUntil?.getTime()).toBeGreaterThan(now.getTime());
    expect(await signIn("a good long password", 20)).toBe(429);

    expect(await actForCustomer(deps, support, locked.id, "unlock-sign-in")).toBe("They may sign in again now. If they have forgotten their password, send them a reset link.");
    expect((await customerOverview(suite.db, locked.id, new Date()))?.signInLockedUntil).toBeNull();
    expect(await signIn("a good long password", 21)).toBe(200);

    // Signed in at sign-up and just now: support ends the older one; the other stays, and another person's is out of reach.
    const sessions = (await customerOverview(suite.db, locked.id, new Date()))?.sessions ?? [];
    expect(sessions).toHaveLength(2);
    const [newest, oldest] = sessions.map((row) => row.id);
    const [theirs] = await suite.db.select({ id: session.id }).from(session).where(eq(session.userId, other.id));
    await expect(revokeCustomerSession(suite.db, support, locked.id, theirs?.id ?? "")).rejects.toMatchObject({ status: 404 });
    expect(await revokeCustomerSession(suite.db, support, locked.id, oldest ?? "")).toBe("Signed out of that browser or CLI at its next request.");
    await expect(revokeCustomerSession(suite.db, support, locked.id, oldest ?? "")).rejects.toMatchObject({ status: 404 });
    expect((await customerOverview(suite.db, locked.id, new Date()))?.sessions.map((row) => row.id)).toEqual([newest]);
    expect(await suite.db.select().from(session).where(eq(session.userId, other.id))).toHaveLength(1);
    expect((await listAudit(suite.db, { subjectId: locked.id })).entries.map((e) => e.action)).toEqual(["customer.revoke-session", "customer.unlock-sign-in"]);
  });
});

describe("npm run staff", { timeout: 120_000 }, () => {
  it("says what is wrong in a sentence and changes nothing: no such account, no such role, no such command", async () => {
    const dataDir = await migratedDataDir("academy-staff-");
    expect(await staffCommand(dataDir, "list")).toMatchObject({ code: 0, stdout: "Nobody holds a role yet. Make the first owner with: npm run staff -- grant <email> owner\n" });
    expect(await staffCommand(dataDir, "grant", "owner@example.com", "owner")).toMatchObject({ code: 1, stderr: "No account has the e-mail owner@example.com. The person signs up first; then grant them a role.\n" });
    expect(await staffCommand(dataDir, "grant", "owner@example.com", "boss")).toMatchObject({ code: 1, stderr: 'There is no role called "boss". The roles are owner, support, finance and content.\n' });
    const typo = await staffCommand(dataDir, "grnat", "owner@example.com", "owner");
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/^"grnat owner@example.com owner" is not a staff command\.\n\nUsage: npm run staff -- grant <email> <role>/);
    expect((await staffCommand(dataDir, "list")).stdout).toContain("Nobody holds a role yet.");
  });
});
