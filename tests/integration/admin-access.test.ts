// The back office's authorization matrix (issue 27): every /admin page and action, asked for by a
// visitor, a learner, each role and an owner, answers exactly as the rules in common/staff.ts say.
// For anyone without a role it does not exist (the site's 404, word for word); a staff member
// without the role gets 403; one whose session has not confirmed the second factor is sent to do so.
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { staffRoles, type StaffRole } from "../../common/staff.ts";
import { clientIpHeader } from "../../server/auth/index.ts";
import { feedback, orders, user, websites } from "../../server/db/schema.ts";
import { confirmSecondFactor, grantRole, listAudit } from "../../server/staff/index.ts";
import { databaseKinds, startTestApp, type TestApp } from "./helpers.ts";

const origin = "http://academy.test";
type Who = "visitor" | "learner" | StaffRole | "owner, unconfirmed";

/** A new "give a course" form each time, as each page load makes one. */
const grantForm = () => ({ intent: "grant-course", courseId: "react-fundamentals", reason: "Matrix: a scholarship approved by the owner.", idempotencyKey: randomBytes(12).toString("hex") });

const title = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];

const everyone: Who[] = ["visitor", "learner", "owner", "support", "finance", "content", "owner, unconfirmed"];
const staffOnly = (allowed: Who[]): Record<Who, number> =>
  Object.fromEntries(everyone.map((who) => [who, who === "visitor" || who === "learner" ? 404 : who === "owner, unconfirmed" ? 302 : allowed.includes(who) ? 200 : 403])) as Record<Who, number>;

/** Every page of the back office and who may open it. */
const pages: { path: string; allowed: Record<Who, number> }[] = [
  { path: "/admin", allowed: staffOnly(["owner", "support", "finance", "content"]) },
  { path: "/admin/customers", allowed: staffOnly(["owner", "support"]) },
  { path: "/admin/customers?q=matrix", allowed: staffOnly(["owner", "support"]) },
  { path: "/admin/customers/{learner}", allowed: staffOnly(["owner", "support"]) },
  { path: "/admin/orders", allowed: staffOnly(["owner", "support", "finance"]) },
  { path: "/admin/orders?status=paid&kind=course&from=2026-01-01&to=2026-12-31&min=1&max=99999", allowed: staffOnly(["owner", "support", "finance"]) },
  { path: "/admin/orders/{order}", allowed: staffOnly(["owner", "support", "finance"]) },
  { path: "/admin/websites", allowed: staffOnly(["owner", "support", "finance"]) },
  { path: "/admin/websites?state=active&domain=matrix", allowed: staffOnly(["owner", "support", "finance"]) },
  { path: "/admin/websites/{website}", allowed: staffOnly(["owner", "support", "finance"]) },
  { path: "/admin/courses", allowed: staffOnly(["owner", "content"]) },
  { path: "/admin/courses/react-fundamentals", allowed: staffOnly(["owner", "content"]) },
  { path: "/admin/reviews", allowed: staffOnly(["owner", "support", "content"]) },
  { path: "/admin/reviews?state=hidden&rating=1", allowed: staffOnly(["owner", "support", "content"]) },
  { path: "/admin/mail", allowed: staffOnly(["owner", "support"]) },
  { path: "/admin/mail?status=failed&to=someone%40example.com", allowed: staffOnly(["owner", "support"]) },
  { path: "/admin/coupons", allowed: staffOnly(["owner", "finance"]) },
  { path: "/admin/reports", allowed: staffOnly(["owner", "finance"]) },
  { path: "/admin/reports/gst-register.csv?month=2026-10", allowed: staffOnly(["owner", "finance"]) },
  { path: "/admin/reports/payments.csv?month=2026-10", allowed: staffOnly(["owner", "finance"]) },
  { path: "/admin/staff", allowed: staffOnly(["owner"]) },
  { path: "/admin/audit", allowed: staffOnly(["owner"]) },
  { path: "/admin/audit?action=staff.grant", allowed: staffOnly(["owner"]) },
];

describe.each(databaseKinds)("the back office's authorization matrix on $name", ({ open }) => {
  let t: TestApp;
  const cookies = new Map<Who, string>();
  const emails = new Map<Who, string>();
  /** The learner's account id: the customer page the matrix opens. */
  let learnerId = "";
  /** The learner's order, never paid: the order page the matrix opens. */
  let orderId = "";
  /** The learner's review, which the matrix tries to hide. */
  let reviewId = "";
  /** The learner's website, paid for, which the matrix tries to suspend. */
  let websiteId = "";

  async function account(who: Who, roles: StaffRole[], confirmed: boolean): Promise<void> {
    const email = `matrix-${who.replace(/\W+/g, "-")}-${randomBytes(3).toString("hex")}@example.com`;
    const response = await t.identity.auth.api.signUpEmail({ body: { name: `Matrix ${who}`, email, password: "a good long password" }, asResponse: true });
    const { token } = (await response.clone().json()) as { token: string };
    cookies.set(who, response.headers.getSetCookie().map((c) => c.split(";")[0]).join("; "));
    emails.set(who, email);
    const db = t.database.db;
    await db.update(user).set({ emailVerified: true, twoFactorEnabled: roles.length > 0 }).where(eq(user.email, email));
    for (const role of roles) await grantRole(db, { id: null, name: "test", roles: [], address: null }, email, role);
    if (confirmed) {
      const session = await db.query.session.findFirst({ where: (s, { eq: is }) => is(s.token, token) });
      await confirmSecondFactor(db, session?.id ?? "");
    }
  }

  beforeAll(async () => {
    t = await startTestApp({ database: open });
    cookies.set("visitor", "");
    await account("learner", [], false);
    const [learner] = await t.database.db.select({ id: user.id }).from(user).where(eq(user.email, emails.get("learner") as string));
    learnerId = learner?.id ?? "";
    const [order] = await t.database.db
      .insert(orders)
      .values({ userId: learnerId, title: "React Fundamentals", courseId: "react-fundamentals", currency: "INR", amount: 699_900, taxableAmount: 593_136, taxAmount: 106_764, taxRatePercent: 18, taxMode: "inclusive", provider: "sandbox", providerOrderId: `order_matrix${randomBytes(4).toString("hex")}`, idempotencyKey: "matrix-order" })
      .returning();
    orderId = order?.id ?? "";
    const [review] = await t.database.db.insert(feedback).values({ userId: learnerId, courseId: "react-fundamentals", rating: 1, comment: "A review the matrix tries to hide." }).returning();
    reviewId = review?.id ?? "";
    const day = 86_400_000;
    const [site] = await t.database.db
      .insert(websites)
      .values({ userId: learnerId, serviceId: "website-hosting", domain: `matrix-${randomBytes(3).toString("hex")}.example.in`, planId: "starter-monthly", billingInterval: "month", startedAt: new Date(Date.now() - day), expiresAt: new Date(Date.now() + 29 * day) })
      .returning();
    websiteId = site?.id ?? "";
    for (const role of staffRoles) await account(role, [role], true);
    await account("owner, unconfirmed", ["owner"], false);
  }, 120_000);
  afterAll(() => t.close());

  async function request(who: Who, path: string, form?: Record<string, string>): Promise<Response> {
    const headers: Record<string, string> = { cookie: cookies.get(who) ?? "", accept: "text/html", origin };
    if (form) headers["content-type"] = "application/x-www-form-urlencoded";
    // As from a browser at 10.9.0.7: the HTTP layer takes the client's address from the connection.
    return t.app.fetch(new Request(`${origin}${path}`, { method: form ? "POST" : "GET", headers, body: form ? new URLSearchParams(form) : undefined, redirect: "manual" }), {
      incoming: { socket: { remoteAddress: "10.9.0.7" } },
    });
  }

  /** A request as a script sends it: no cookie, no Accept header. */
  const plain = (path: string) => t.app.fetch(new Request(`${origin}${path}`), { incoming: { socket: { remoteAddress: "10.9.0.9" } } });

  it.each(pages)("$path answers each person as the roles say", async ({ path, allowed }) => {
    const answers: Record<string, number> = {};
    for (const who of everyone) answers[who] = (await request(who, path.replace("{learner}", learnerId).replace("{order}", orderId).replace("{website}", websiteId))).status;
    expect(answers).toEqual(allowed);
  });

  it("shows takings on the dashboard to finance and owners only; every role sees the rest", async () => {
    for (const who of ["owner", "support", "finance", "content"] as const) {
      const html = await (await request(who, "/admin")).text();
      expect(html.includes("Takings today"), who).toBe(who === "owner" || who === "finance");
      expect(html.includes("Net takings"), who).toBe(who === "owner" || who === "finance");
      expect(html, who).toContain("Sign-ups, 7 days");
    }
  });

  it("is the site's own 404 page for anyone without a role, giving nothing of the back office away", async () => {
    const unknown = await (await request("learner", "/no-such-page-anywhere")).text();
    for (const path of ["/admin", "/admin/customers", "/admin/customers/anyone", "/admin/orders", "/admin/orders/anything", "/admin/websites", "/admin/websites/anything", "/admin/courses", "/admin/courses/anything", "/admin/reviews", "/admin/mail", "/admin/coupons", "/admin/reports", "/admin/reports/gst-register.csv", "/admin/staff", "/admin/audit", "/admin/two-factor", "/admin/two-factor/set-up", "/admin/anything"]) {
      for (const who of ["visitor", "learner"] as const) {
        const response = await request(who, path);
        expect(response.status, `${who} ${path}`).toBe(404);
        const html = await response.text();
        expect(html, `${who} ${path}`).not.toMatch(/Back office|two-factor|admin/i);
        expect(html, `${who} ${path}`).toContain("We couldn&#x27;t find that page");
        expect(title(html), `${who} ${path}`).toBe(title(unknown));
      }
    }
  });

  it("answers a script without a role at /admin as at an unknown address: the same status, type and page, its data requests too", async () => {
    for (const [hidden, unknown] of [
      ["/admin/staff", "/no-such-page-anywhere"],
      ["/admin/staff.data", "/no-such-page-anywhere.data"],
    ] as const) {
      const [a, b] = await Promise.all([plain(hidden), plain(unknown)]);
      expect([a.status, a.headers.get("content-type")], hidden).toEqual([b.status, b.headers.get("content-type")]);
      const text = await a.text();
      expect(text, hidden).not.toMatch(/admin|Back office/i);
      expect(text.length, hidden).toBeGreaterThan(0);
    }
  });

  it("sends a staff member whose session has not confirmed the second factor to confirm it, and back", async () => {
    const response = await request("owner, unconfirmed", "/admin/audit?action=staff.grant");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/admin/two-factor?redirectTo=%2Fadmin%2Faudit%3Faction%3Dstaff.grant");
    expect((await request("owner, unconfirmed", "/admin/two-factor")).status).toBe(200);
  });

  it("lets support and owners help a customer, and a refused attempt writes nothing", async () => {
    const path = `/admin/customers/${learnerId}`;
    const nowhere = (await request("learner", "/no-such-page-anywhere", { intent: "send-password-reset" })).status;
    const answers: Record<string, number> = {};
    for (const who of everyone) answers[who] = (await request(who, path, { intent: "send-password-reset" })).status;
    expect(answers).toEqual({ ...staffOnly(["owner", "support"]), visitor: nowhere, learner: nowhere });
    const entries = (await listAudit(t.database.db, { subjectId: learnerId, action: "customer.send-password-reset" })).entries;
    expect(entries.map((e) => e.actorRoles)).toEqual([["support"], ["owner"]]);
  });

  it("lets support, finance and owners ask the provider about an order, and a refused attempt writes nothing", async () => {
    const path = `/admin/orders/${orderId}`;
    const nowhere = (await request("learner", "/no-such-page-anywhere", { intent: "check-provider" })).status;
    const answers: Record<string, number> = {};
    for (const who of everyone) answers[who] = (await request(who, path, { intent: "check-provider" })).status;
    expect(answers).toEqual({ ...staffOnly(["owner", "support", "finance"]), visitor: nowhere, learner: nowhere });
    const entries = (await listAudit(t.database.db, { subjectId: orderId, action: "order.check-provider" })).entries;
    expect(entries.map((e) => e.actorRoles)).toEqual([["finance"], ["support"], ["owner"]]);
  });

  it("lets only finance and owners refund outside the policy, and a refused attempt writes nothing", async () => {
    const path = `/admin/orders/${orderId}`;
    const form = { intent: "refund", reason: "Matrix: goodwill refund agreed on the phone." };
    const nowhere = (await request("learner", "/no-such-page-anywhere", form)).status;
    const answers: Record<string, number> = {};
    for (const who of everyone) answers[who] = (await request(who, path, form)).status;
    // The order was never paid: those allowed are told so (400), the rest refused before it is looked at.
    expect(answers).toEqual({ ...staffOnly(["owner", "finance"]), owner: 400, finance: 400, visitor: nowhere, learner: nowhere });
    expect((await listAudit(t.database.db, { subjectId: orderId, action: "order.refund" })).entries).toEqual([]);
  });

  it("answers a search for the order of a deleted account with what happened to it, and a link to the order for those who may open it", async () => {
    const db = t.database.db;
    const [gone] = await db.insert(user).values({ id: `gone-${randomBytes(4).toString("hex")}`, name: "Gone Buyer", email: `gone-${randomBytes(3).toString("hex")}@example.com`, emailVerified: true }).returning();
    const [order] = await db
      .insert(orders)
      .values({ userId: gone?.id ?? "", title: "React Fundamentals", courseId: "react-fundamentals", currency: "INR", amount: 699_900, taxableAmount: 593_136, taxAmount: 106_764, taxRatePercent: 18, taxMode: "inclusive", status: "paid", provider: "sandbox", idempotencyKey: "matrix-deleted", paidAt: new Date() })
      .returning();
    await db.delete(user).where(eq(user.id, gone?.id ?? ""));
    const number = `ACD-${String(order?.number).padStart(6, "0")}`;
    // React marks where one text node ends and the next begins with an empty comment.
    const page = (await (await request("support", `/admin/customers?q=${number}`)).text()).replaceAll("<!-- -->", "");
    expect(page).toContain(`Order ${number} was placed from an account that has since been deleted`);
    expect(page).toContain(`href="/admin/orders/${order?.id}"`);
  });

  it("reads a partial refund's amount in rupees, and says in words when it is not one", async () => {
    const path = `/admin/orders/${orderId}`;
    const reason = "Matrix: part of the price back as goodwill.";
    const notRupees = await request("finance", path, { intent: "refund", reason, amount: "two thousand" });
    expect(notRupees.status).toBe(400);
    expect(await notRupees.text()).toContain("Type the amount in rupees, such as 2000 or 1499.50.");
    // Read as ₹2,000.50, then refused by the domain: this order was never paid.
    const unpaid = await request("finance", path, { intent: "refund", reason, amount: "₹2,000.50" });
    expect(unpaid.status).toBe(400);
    expect(await unpaid.text()).toContain("Only a paid order can be refunded.");
    expect((await listAudit(t.database.db, { subjectId: orderId, action: "order.refund" })).entries).toEqual([]);
  });

  it("lets support, content and owners hide a review, once, and a refused attempt writes nothing", async () => {
    const form = { intent: "hide", reviewId, reason: "Matrix: abusive language about a person." };
    const nowhere = (await request("learner", "/no-such-page-anywhere", form)).status;
    const answers: Record<string, number> = {};
    for (const who of everyone) answers[who] = (await request(who, "/admin/reviews", form)).status;
    expect(answers).toEqual({ ...staffOnly(["owner", "support", "content"]), visitor: nowhere, learner: nowhere });
    // The first allowed hid it; the others were told it is hidden already.
    expect((await listAudit(t.database.db, { subjectId: reviewId })).entries.map((e) => [e.action, e.actorRoles])).toEqual([["review.hide", ["owner"]]]);
  });

  it("lets support and owners suspend a website, once, and a refused attempt writes nothing", async () => {
    const form = { intent: "suspend", reason: "Matrix: phishing pages reported by a bank." };
    const nowhere = (await request("learner", "/no-such-page-anywhere", form)).status;
    const answers: Record<string, number> = {};
    for (const who of everyone) answers[who] = (await request(who, `/admin/websites/${websiteId}`, form)).status;
    // The owner suspended it; support, allowed too, is told it is suspended already; finance may look but not change.
    expect(answers).toEqual({ ...staffOnly(["owner", "support"]), support: 409, visitor: nowhere, learner: nowhere });
    expect((await listAudit(t.database.db, { subjectId: websiteId })).entries.map((e) => [e.action, e.actorRoles])).toEqual([["website.suspend", ["owner"]]]);
  });

  it("lets content and owners take a course off sale, once, and a refused attempt writes nothing", async () => {
    const path = "/admin/courses/react-fundamentals";
    const form = { intent: "unpublish", reason: "Matrix: the course is being rewritten." };
    const nowhere = (await request("learner", "/no-such-page-anywhere", form)).status;
    const answers: Record<string, number> = {};
    for (const who of everyone) answers[who] = (await request(who, path, form)).status;
    // The owner took it off sale; content, allowed too, is told it is off sale already.
    expect(answers).toEqual({ ...staffOnly(["owner", "content"]), visitor: nowhere, learner: nowhere });
    expect((await listAudit(t.database.db, { subjectId: "react-fundamentals" })).entries.map((e) => [e.action, e.actorRoles])).toEqual([["course.unpublish", ["owner"]]]);
    expect((await request("content", path, { intent: "publish", reason: "Matrix: the rewrite is out." })).status).toBe(200);
  });

  it("lets finance and owners make a coupon, once, and a refused attempt writes nothing", async () => {
    const form = { intent: "create", code: "MATRIX-10", kind: "percent", appliesTo: "both", value: "10", perPersonLimit: "1" };
    const nowhere = (await request("learner", "/no-such-page-anywhere", form)).status;
    const answers: Record<string, number> = {};
    for (const who of everyone) answers[who] = (await request(who, "/admin/coupons", form)).status;
    // The owner made it; finance, allowed too, is told the code is taken.
    expect(answers).toEqual({ ...staffOnly(["owner", "finance"]), finance: 409, visitor: nowhere, learner: nowhere });
    expect((await listAudit(t.database.db, { action: "coupon.create" })).entries.map((e) => e.actorRoles)).toEqual([["owner"]]);
  });

  it("lets support and owners send waiting mail now, and a refused attempt writes nothing", async () => {
    const nowhere = (await request("learner", "/no-such-page-anywhere", { intent: "retry" })).status;
    const answers: Record<string, number> = {};
    for (const who of everyone) answers[who] = (await request(who, "/admin/mail", { intent: "retry" })).status;
    expect(answers).toEqual({ ...staffOnly(["owner", "support"]), visitor: nowhere, learner: nowhere });
  });

  it("lets support and owners give a course without payment, and a refused attempt writes nothing", async () => {
    const path = `/admin/customers/${learnerId}`;
    const nowhere = (await request("learner", "/no-such-page-anywhere", grantForm())).status;
    const answers: Record<string, number> = {};
    for (const who of everyone) answers[who] = (await request(who, path, grantForm())).status;
    // The owner gave it; support, allowed too, is told the learner has it already.
    expect(answers).toEqual({ ...staffOnly(["owner", "support"]), support: 409, visitor: nowhere, learner: nowhere });
    expect((await listAudit(t.database.db, { subjectId: learnerId, action: "customer.grant-course" })).entries.map((e) => e.actorRoles)).toEqual([["owner"]]);
  });

  it("lets only owners grant or take away roles, and a refused attempt changes nothing and writes nothing", async () => {
    const before = (await listAudit(t.database.db)).entries.length;
    const target = emails.get("learner") as string;
    // Without a role, a form sent there is answered as one sent to an address that does not exist.
    const nowhere = (await request("learner", "/no-such-page-anywhere", { intent: "grant" })).status;
    for (const who of everyone.filter((w) => w !== "owner")) {
      const response = await request(who, "/admin/staff", { intent: "grant", email: target, role: "owner" });
      expect(response.status, who).toBe(who === "visitor" || who === "learner" ? nowhere : who === "owner, unconfirmed" ? 302 : 403);
    }
    expect((await listAudit(t.database.db)).entries.length).toBe(before);
    expect((await request("learner", "/admin")).status).toBe(404);

    const granted = await request("owner", "/admin/staff", { intent: "grant", email: target, role: "content" });
    expect(granted.status).toBe(200);
    const [entry] = (await listAudit(t.database.db)).entries;
    expect(entry).toMatchObject({ action: "staff.grant", actorRoles: ["owner"], address: "10.9.0.7", after: { roles: ["content"] } });
    expect(entry?.actor).toBe(`Matrix owner <${emails.get("owner")}>`);
  });

  it("will not turn off or replace a staff member's authenticator from a session, password or not", async () => {
    for (const endpoint of ["/api/auth/two-factor/disable", "/api/auth/two-factor/enable"]) {
      const response = await t.app.fetch(
        new Request(`${origin}${endpoint}`, {
          method: "POST",
          headers: { cookie: cookies.get("owner") ?? "", "content-type": "application/json", origin, [clientIpHeader]: "10.9.0.8" },
          body: JSON.stringify({ password: "a good long password" }),
        }),
      );
      expect(response.status, endpoint).toBe(403);
      expect(((await response.json()) as { code: string }).code).toBe("STAFF_TWO_FACTOR_LOCKED");
    }
    const [owner] = await t.database.db.select({ on: user.twoFactorEnabled }).from(user).where(eq(user.email, emails.get("owner") as string));
    expect(owner?.on).toBe(true);
  });
});
