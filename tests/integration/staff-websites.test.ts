// The back office's websites (issue 27): support finds a website by state and expiry, changes its
// domain, extends it without payment, suspends and resumes it (its owner is mailed why) and cancels
// it; each change is an audit entry in its own transaction, and a refused one changes nothing.
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { staffReasonLength } from "../../common/staff.ts";
import type { WebsiteState } from "../../common/website-states.ts";
import { loadCatalog, type Catalog } from "../../server/catalog/index.ts";
import { auditLog, mailOutbox, orders, websitePeriods, websites } from "../../server/db/schema.ts";
import { cancelWebsiteForOwner, changeWebsiteDomain, extendWebsite, listAudit, listStaffWebsites, setWebsiteSuspended, staffWebsite, staffWebsitePageSize, type Actor } from "../../server/staff/index.ts";
import { formatDay } from "../../common/format.ts";
import { Conflict } from "../../server/errors.ts";
import { keepWebsite, websiteInState, websiteState } from "../../server/websites/index.ts";
import { contentDir, databaseKinds, identitySuite, startTestPayments } from "./helpers.ts";

let catalog: Catalog;
beforeAll(async () => {
  catalog = await loadCatalog(contentDir);
});

const day = 86_400_000;
const support: Actor = { id: null, name: "Ravi Support <ravi@example.com>", roles: ["support"], address: "203.0.113.7" };
const states: WebsiteState[] = ["pending", "active", "expiring", "expired", "suspended", "cancelled"];

describe.each(databaseKinds)("websites in the back office on $name", ({ open }) => {
  const suite = identitySuite(open, () => catalog);
  const shop = () => startTestPayments(suite.db, catalog, suite.identity).shop;

  /** A website of a new customer's, started `startedDaysAgo` days ago and paid until `expiresInDays` from now (null: never paid). */
  async function site(options: { expiresInDays: number | null; interval?: "month" | "year"; cancelled?: boolean; suspended?: boolean; domain?: string }) {
    const owner = await suite.signUp("Meera Host");
    const now = Date.now();
    const paid = options.expiresInDays !== null;
    const [made] = await suite.db
      .insert(websites)
      .values({
        userId: owner.id,
        serviceId: "website-hosting",
        domain: options.domain ?? `site-${randomBytes(4).toString("hex")}.example.in`,
        planId: options.interval === "year" ? "starter-yearly" : "starter-monthly",
        billingInterval: options.interval ?? "month",
        startedAt: paid ? new Date(now - 40 * day) : null,
        expiresAt: paid ? new Date(now + (options.expiresInDays as number) * day) : null,
        cancelledAt: options.cancelled ? new Date(now - day) : null,
        cancelledBy: options.cancelled ? "owner" : null,
        suspendedAt: options.suspended ? new Date(now - day) : null,
        suspendedReason: options.suspended ? "Phishing pages reported." : null,
      })
      .returning();
    if (!made) throw new Error("no website");
    return { ...made, owner };
  }

  it("finds each state in SQL exactly as the pages name it, at the edges of each window", async () => {
    const made = await Promise.all([
      site({ expiresInDays: null }),
      site({ expiresInDays: 60, interval: "year" }),
      site({ expiresInDays: 29.9, interval: "year" }),
      site({ expiresInDays: 10 }),
      site({ expiresInDays: 6.9 }),
      site({ expiresInDays: -0.1 }),
      site({ expiresInDays: -14.9 }),
      site({ expiresInDays: -15.1 }),
      site({ expiresInDays: 100, suspended: true }),
      site({ expiresInDays: 100, cancelled: true }),
      site({ expiresInDays: 100, cancelled: true, suspended: true }),
    ]);
    const now = new Date();
    const ids = made.map((m) => m.id);
    for (const state of states) {
      const inSql = await suite.db.select({ id: websites.id }).from(websites).where(websiteInState(state, now));
      const expected = made.filter((m) => websiteState(m, now) === state).map((m) => m.id);
      expect(inSql.map((row) => row.id).filter((id) => ids.includes(id)).toSorted(), state).toEqual(expected.toSorted());
    }
    // Every state has at least one of the websites above.
    expect(new Set(made.map((m) => websiteState(m, now)))).toEqual(new Set(states));
  });

  it("lists the soonest to expire first, never-paid ones last, each on exactly one page, by state and domain", async () => {
    const marker = randomBytes(3).toString("hex");
    const made = await Promise.all(
      Array.from({ length: staffWebsitePageSize + 5 }, (_, i) => site({ expiresInDays: i === 0 ? null : 400 + i, domain: `list-${marker}-${i}.example.in` })),
    );
    const now = new Date();
    const first = await listStaffWebsites(suite.db, { domain: `list-${marker}` }, now);
    expect(first.websites).toHaveLength(staffWebsitePageSize);
    expect(first.next).not.toBeNull();
    const second = await listStaffWebsites(suite.db, { domain: `LIST-${marker}`, after: first.next ?? undefined }, now);
    expect(second.next).toBeNull();
    const seen = [...first.websites, ...second.websites];
    expect(seen.map((s) => s.domain)).toEqual([...made.slice(1), made[0]].map((m) => m?.domain));
    expect(seen.at(-1)).toMatchObject({ state: "pending", expiresAt: null, owner: { name: "Meera Host" } });
    expect((await listStaffWebsites(suite.db, { domain: `list-${marker}`, state: "pending" }, now)).websites.map((s) => s.domain)).toEqual([made[0]?.domain]);
    // A domain typed with wildcards matches only itself.
    expect((await listStaffWebsites(suite.db, { domain: "%" }, now)).websites).toEqual([]);
  });

  it("moves a website to another domain, validated as customers' are, and refuses one live on another website", async () => {
    const moving = await site({ expiresInDays: 100 });
    const other = await site({ expiresInDays: 100 });
    await expect(changeWebsiteDomain(suite.db, support, moving.id, "not a domain")).rejects.toMatchObject({ status: 400 });
    await expect(changeWebsiteDomain(suite.db, support, moving.id, other.domain.toUpperCase())).rejects.toMatchObject({ status: 409, message: `${other.domain} is hosted here already, for another website.` });
    await expect(changeWebsiteDomain(suite.db, support, moving.id, moving.domain)).rejects.toMatchObject({ status: 400, message: `${moving.domain} is its domain already.` });
    expect((await listAudit(suite.db, { subjectId: moving.id })).entries).toEqual([]);

    await expect(changeWebsiteDomain(suite.db, support, moving.id, "https://moved.example.in")).rejects.toMatchObject({
      status: 400,
      message: "Enter the domain alone, without http:// or https://, like shop.example.in.",
    });
    const label = `moved-${randomBytes(3).toString("hex")}`;
    const fresh = ` ${label.toUpperCase()}.Example.IN. `;
    const domain = `${label}.example.in`;
    expect(await changeWebsiteDomain(suite.db, support, moving.id, fresh)).toContain(`The website's domain is now ${domain}.`);
    const [after] = await suite.db.select({ domain: websites.domain }).from(websites).where(eq(websites.id, moving.id));
    expect(after?.domain).toBe(domain);
    const [entry] = (await listAudit(suite.db, { subjectId: moving.id })).entries;
    expect(entry).toMatchObject({ action: "website.change-domain", actorRoles: ["support"], before: { domain: moving.domain }, after: { domain }, address: "203.0.113.7" });
  });

  it("extends a website by a period of its plan without payment, once per form, from where the paid time ends", async () => {
    const extended = await site({ expiresInDays: 10 });
    const key = randomBytes(12).toString("hex");
    await expect(extendWebsite(shop(), support, extended.id, { reason: "short", idempotencyKey: key })).rejects.toMatchObject({
      status: 400,
      message: `Say why this website gets a period without payment, in ${staffReasonLength.min} to ${staffReasonLength.max} characters.`,
    });
    const said = await extendWebsite(shop(), support, extended.id, { reason: "Our outage on 3 November: a month on us.", idempotencyKey: key });
    expect(said).toMatch(/^Added a period to .+ \(order ACD-\d{6}, ₹0, no tax invoice\)\.$/);
    expect(await extendWebsite(shop(), support, extended.id, { reason: "Our outage on 3 November: a month on us.", idempotencyKey: key })).toMatch(/^It has a period to .+ already\.$/);

    const periods = await suite.db.select().from(websitePeriods).where(eq(websitePeriods.websiteId, extended.id));
    expect(periods).toHaveLength(1);
    expect(periods[0]?.startsAt).toEqual(extended.expiresAt);
    const [order] = await suite.db.select().from(orders).where(eq(orders.id, periods[0]?.orderId ?? ""));
    expect(order).toMatchObject({ amount: 0, taxAmount: 0, provider: "free", status: "paid", kind: "website", websiteId: extended.id, userId: extended.owner.id });
    const [site2] = await suite.db.select({ expiresAt: websites.expiresAt }).from(websites).where(eq(websites.id, extended.id));
    expect(site2?.expiresAt).toEqual(periods[0]?.endsAt);
    expect((await listAudit(suite.db, { subjectId: extended.id })).entries.map((e) => [e.action, e.reason])).toEqual([["website.extend", "Our outage on 3 November: a month on us."]]);

    const never = await site({ expiresInDays: null });
    await expect(extendWebsite(shop(), support, never.id, { reason: "A goodwill month for the launch.", idempotencyKey: randomBytes(12).toString("hex") })).rejects.toMatchObject({ status: 400 });
    const gone = await site({ expiresInDays: 10, cancelled: true });
    await expect(extendWebsite(shop(), support, gone.id, { reason: "A goodwill month for the launch.", idempotencyKey: randomBytes(12).toString("hex") })).rejects.toMatchObject({ status: 409 });
    expect(await suite.db.select().from(orders).where(eq(orders.websiteId, gone.id))).toEqual([]);
  });

  it("suspends and resumes a website with a reason its owner is mailed, once each", async () => {
    const held = await site({ expiresInDays: 100 });
    const reason = "Phishing pages reported by a bank on 26 November.";
    expect(await setWebsiteSuspended(shop(), support, held.id, true, reason)).toBe(`${held.domain} is suspended, and its owner is mailed the reason.`);
    expect((await staffWebsite(suite.db, held.id, new Date()))?.state).toBe("suspended");
    await expect(setWebsiteSuspended(shop(), support, held.id, true, reason)).rejects.toMatchObject({ status: 409, message: "It is suspended already." });
    expect(await setWebsiteSuspended(shop(), support, held.id, false, "The pages are gone; the owner changed passwords.")).toBe(`${held.domain} is online again, and its owner is mailed the reason.`);
    expect((await staffWebsite(suite.db, held.id, new Date()))?.state).toBe("active");
    await expect(setWebsiteSuspended(shop(), support, held.id, false, "The pages are gone; the owner changed passwords.")).rejects.toMatchObject({ status: 409, message: "It is not suspended." });

    const mail = await suite.db.select({ subject: mailOutbox.subject, text: mailOutbox.text }).from(mailOutbox).where(eq(mailOutbox.to, held.owner.email));
    expect(mail.map((m) => m.subject)).toEqual(expect.arrayContaining([`${held.domain} is suspended`, `${held.domain} is online again`]));
    expect(mail.find((m) => m.subject.endsWith("suspended"))?.text).toContain(reason);
    expect((await listAudit(suite.db, { subjectId: held.id })).entries.map((e) => [e.action, e.before, e.after])).toEqual([
      ["website.resume", { state: "suspended" }, { state: "active" }],
      ["website.suspend", { state: "active" }, { state: "suspended" }],
    ]);
  });

  it("cancels a website for its owner: it runs to its expiry, and cancelling again changes nothing", async () => {
    const ending = await site({ expiresInDays: 100 });
    await expect(cancelWebsiteForOwner(shop(), support, ending.id, "no")).rejects.toMatchObject({ status: 400 });
    expect(await cancelWebsiteForOwner(shop(), support, ending.id, "The owner asked by phone; identity checked.")).toMatch(
      new RegExp(`^${ending.domain} is cancelled: it runs to .+, with no reminders and no renewals\\. Its owner is mailed\\.$`),
    );
    expect(await cancelWebsiteForOwner(shop(), support, ending.id, "The owner asked by phone; identity checked.")).toBe("It was cancelled already; nothing more was done.");
    const mailed = await suite.db.select({ subject: mailOutbox.subject }).from(mailOutbox).where(eq(mailOutbox.to, ending.owner.email));
    expect(mailed.filter((mail) => mail.subject.includes(ending.domain)).map((mail) => mail.subject)).toEqual([`${ending.domain} is cancelled`]);
    const [after] = await suite.db.select().from(websites).where(eq(websites.id, ending.id));
    expect(after?.expiresAt).toEqual(ending.expiresAt);
    expect(await suite.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.subjectId, ending.id))).toEqual([{ action: "website.cancel" }]);
    // Ours to undo, not the owner's: they are told to write to us, and nothing changes.
    expect(after?.cancelledBy).toBe("staff");
    await expect(keepWebsite(suite.db, ending.owner.id, ending.id, new Date())).rejects.toThrow(new Conflict(`We cancelled ${ending.domain} on ${formatDay(after?.cancelledAt ?? "")}, so it cannot be kept from here. If you want to keep it, write to us.`));
    expect((await suite.db.select().from(websites).where(eq(websites.id, ending.id)))[0]?.cancelledAt).toEqual(after?.cancelledAt);
    await expect(setWebsiteSuspended(shop(), support, ending.id, true, "Phishing pages reported by a bank.")).rejects.toMatchObject({ status: 409 });
  });

  it("shows a website with its owner, periods and orders, and nothing for an id that is not one", async () => {
    const shown = await site({ expiresInDays: 20 });
    await extendWebsite(shop(), support, shown.id, { reason: "A goodwill month for the launch.", idempotencyKey: randomBytes(12).toString("hex") });
    const page = await staffWebsite(suite.db, shown.id, new Date());
    expect(page).toMatchObject({ domain: shown.domain, state: "active", owner: { id: shown.owner.id, email: shown.owner.email }, suspendedReason: null });
    expect(page?.periods).toHaveLength(1);
    expect(page?.orders.map((o) => [o.amount, o.status, o.refund])).toEqual([[0, "paid", null]]);
    expect(await staffWebsite(suite.db, "not-a-uuid", new Date())).toBeNull();
    expect(await staffWebsite(suite.db, "00000000-0000-4000-8000-000000000000", new Date())).toBeNull();
  });
});
