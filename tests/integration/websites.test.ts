import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { loadCatalog, type Catalog } from "../../server/catalog/index.ts";
import { createHostingOrder, listOrdersWithEligibility, orderPagePath, requestRefund } from "../../server/commerce/index.ts";
import { cleanUp } from "../../server/jobs/clean-up.ts";
import { mailOutbox, orders, refunds, user, websitePeriods, websiteReminders, websites } from "../../server/db/schema.ts";
import { Conflict, NotFound, ValidationError } from "../../server/errors.ts";
import type { Payments } from "../../server/payments/index.ts";
import type { SandboxGateway } from "../../server/payments/sandbox.ts";
import { addInterval, addPaidPeriod, cancelWebsite, keepWebsite, pendingWebsiteLimit, queueDueReminders, startWebsite, websiteState } from "../../server/websites/index.ts";
import { unpaidWebsiteDays } from "../../common/website-states.ts";
import { formatDay, formatOrderNumber } from "../../common/format.ts";
import { contentDir, databaseKinds, deliverTestWebhooks, identitySuite, payInTestSandbox, startTestPayments } from "./helpers.ts";

let catalog: Catalog;
beforeAll(async () => {
  catalog = await loadCatalog(contentDir);
});

const at = (iso: string) => new Date(iso);
const key = () => randomBytes(12).toString("hex");
const shift = (from: Date, days: number) => new Date(from.getTime() + days * 86_400_000);
/** The moment, from now, when a website started now has been unpaid for unpaidWebsiteDays, give or take `extra` ms. */
const weekOn = (extra: number) => new Date(Date.now() + unpaidWebsiteDays * 86_400_000 + extra);

describe.each(databaseKinds)("hosted websites on $name", ({ open }) => {
  const suite = identitySuite(open, () => catalog);
  const db = () => suite.db;
  const siteNow = async (id: string) => (await db().select().from(websites).where(eq(websites.id, id)))[0];
  const refundsOf = (orderId: string) => db().select().from(refunds).where(eq(refunds.orderId, orderId));
  const subjectsTo = async (email: string) => (await db().select().from(mailOutbox).where(eq(mailOutbox.to, email))).map((m) => m.subject);

  async function pendingWebsite(userId: string, domain = `site-${randomBytes(4).toString("hex")}.example.in`) {
    const [site] = await db().insert(websites).values({ userId, serviceId: "website-hosting", domain, planId: "starter-monthly", billingInterval: "month" }).returning();
    return site as typeof websites.$inferSelect;
  }

  async function hostingOrder(userId: string, websiteId: string, planId: string) {
    const [order] = await db()
      .insert(orders)
      .values({
        userId,
        kind: "website",
        websiteId,
        planId,
        title: `Website hosting, ${planId}`,
        currency: "INR",
        amount: 149_900,
        taxableAmount: 127_034,
        taxAmount: 22_866,
        taxRatePercent: 18,
        taxMode: "inclusive",
        provider: "sandbox",
        idempotencyKey: key(),
      })
      .returning();
    return order as typeof orders.$inferSelect & { websiteId: string; planId: string };
  }

  const pay = (order: { id: string; websiteId: string; planId: string }, interval: "month" | "year", now: Date) =>
    db().transaction((tx) => addPaidPeriod(tx, order, interval, now));

  it("starts a site on its first payment and extends a renewal from the current expiry", async () => {
    const { id: userId } = await suite.signUp();
    const site = await pendingWebsite(userId);
    const first = await hostingOrder(userId, site.id, "starter-monthly");
    expect(await pay(first, "month", at("2026-01-31T10:00:00Z"))).toEqual({ websiteId: site.id, startsAt: at("2026-01-31T10:00:00Z"), endsAt: at("2026-02-28T10:00:00Z") });

    const early = await hostingOrder(userId, site.id, "business-yearly");
    expect(await pay(early, "year", at("2026-02-10T00:00:00Z"))).toMatchObject({ startsAt: at("2026-02-28T10:00:00Z"), endsAt: at("2027-02-28T10:00:00Z") });
    const [stored] = await db().select().from(websites).where(eq(websites.id, site.id));
    expect(stored).toMatchObject({ planId: "business-yearly", startedAt: at("2026-01-31T10:00:00Z"), expiresAt: at("2027-02-28T10:00:00Z") });
  });

  it("extends once however often the same payment is applied, even all at once", async () => {
    const { id: userId } = await suite.signUp();
    const site = await pendingWebsite(userId);
    const order = await hostingOrder(userId, site.id, "starter-yearly");
    const now = at("2026-03-01T00:00:00Z");
    const results = await Promise.all(Array.from({ length: 100 }, () => pay(order, "year", now)));
    const once = { websiteId: site.id, startsAt: now, endsAt: at("2027-03-01T00:00:00Z") };
    expect(results).toEqual(Array.from({ length: 100 }, () => once));
    expect(await pay(order, "year", at("2026-03-02T00:00:00Z"))).toEqual(once);
    expect(await db().select().from(websitePeriods).where(eq(websitePeriods.websiteId, site.id))).toHaveLength(1);
    const [stored] = await db().select().from(websites).where(eq(websites.id, site.id));
    expect(stored?.expiresAt).toEqual(at("2027-03-01T00:00:00Z"));
  });

  it("starts no second live website on a domain, while pending and cancelled ones do not block it", async () => {
    const [a, b] = [await suite.signUp(), await suite.signUp()];
    const domain = `shared-${randomBytes(4).toString("hex")}.example.in`;
    const first = await pendingWebsite(a.id, domain);
    const second = await pendingWebsite(b.id, domain);
    await pay(await hostingOrder(a.id, first.id, "starter-monthly"), "month", at("2026-04-01T00:00:00Z"));
    expect(await pay(await hostingOrder(b.id, second.id, "starter-monthly"), "month", at("2026-04-02T00:00:00Z"))).toEqual({ notStarted: "domain-taken" });
    expect((await db().select().from(websites).where(eq(websites.id, second.id)))[0]?.startedAt).toBeNull();
    await db().update(websites).set({ cancelledAt: at("2026-04-03T00:00:00Z"), cancelledBy: "owner" }).where(eq(websites.id, first.id));
    expect(await pay(await hostingOrder(b.id, second.id, "starter-monthly"), "month", at("2026-04-04T00:00:00Z"))).toMatchObject({ websiteId: second.id });
  });

  describe("buying and renewing through the sandbox", () => {
    let payments$: Payments;
    let clock = at("2026-05-10T09:00:00Z");
    beforeAll(() => {
      payments$ = startTestPayments(suite.db, catalog, suite.identity, { now: () => clock });
    });
    const shop = () => payments$.shop;
    const starter = { serviceId: "website-hosting", planId: "starter-monthly" };

    it("buys a plan for a typed domain at the content's price, once, whether the callback or the webhook comes first", async () => {
      const buyer = await suite.signUp();
      const site = await startWebsite(db(), catalog, { userId: buyer.id, ...starter, domain: " Shop.Example.IN " });
      expect(site).toMatchObject({ domain: "shop.example.in", startedAt: null, expiresAt: null });
      expect(websiteState(site, clock)).toBe("pending");
      const idempotencyKey = key();
      const order = await createHostingOrder(shop(), { userId: buyer.id, websiteId: site.id, planId: "starter-monthly", idempotencyKey });
      expect(order).toMatchObject({ kind: "website", websiteId: site.id, planId: "starter-monthly", amount: 149_900, title: "Starter (Monthly) hosting for shop.example.in" });
      expect((await createHostingOrder(shop(), { userId: buyer.id, websiteId: site.id, planId: "starter-monthly", idempotencyKey })).id).toBe(order.id);
      // The provider keeps an order's notes after the customer deletes their account: they name the website by id, not by domain.
      expect((await (payments$.sandbox as SandboxGateway).findOrder(order.providerOrderId ?? ""))?.notes).toEqual({ order_id: order.id, website_id: site.id, plan_id: "starter-monthly" });

      expect((await payInTestSandbox(payments$, order)).outcome).toBe("fulfilled");
      await deliverTestWebhooks(db(), payments$);
      const [paid] = await db().select().from(websites).where(eq(websites.id, site.id));
      expect(paid).toMatchObject({ startedAt: clock, expiresAt: at("2026-06-10T09:00:00Z") });
      expect(websiteState(paid as typeof websites.$inferSelect, clock)).toBe("active");
      const mails = await db().select().from(mailOutbox).where(eq(mailOutbox.to, buyer.email));
      expect(mails.filter((m) => m.subject.startsWith("Your receipt for Starter (Monthly) hosting for shop.example.in"))).toHaveLength(1);
      expect(mails.find((m) => m.subject.startsWith("Your receipt"))?.text).toContain("shop.example.in is now hosted until 10 June 2026");
    });

    it("renews early from the expiry on any plan of the service, and extends once for a replayed payment", async () => {
      const buyer = await suite.signUp();
      const site = await startWebsite(db(), catalog, { userId: buyer.id, ...starter, domain: `renew-${key()}.example.in` });
      await payInTestSandbox(payments$, await createHostingOrder(shop(), { userId: buyer.id, websiteId: site.id, planId: "starter-monthly", idempotencyKey: key() }));
      clock = at("2026-06-01T00:00:00Z");
      const renewal = await createHostingOrder(shop(), { userId: buyer.id, websiteId: site.id, planId: "business-yearly", idempotencyKey: key() });
      expect(renewal.amount).toBe(3_999_000);
      await payInTestSandbox(payments$, renewal);
      await payInTestSandbox(payments$, renewal).catch(() => null);
      await deliverTestWebhooks(db(), payments$);
      const [renewed] = await db().select().from(websites).where(eq(websites.id, site.id));
      expect(renewed).toMatchObject({ planId: "business-yearly", expiresAt: at("2027-06-10T09:00:00Z") });
      expect(await db().select().from(websitePeriods).where(eq(websitePeriods.websiteId, site.id))).toHaveLength(2);
      clock = at("2026-05-10T09:00:00Z");
    });

    it("refuses, with a specific message and no change, another customer's site, an unknown plan, a bad or taken domain and a cancelled site", async () => {
      const [owner, other] = [await suite.signUp(), await suite.signUp()];
      const domain = `taken-${key()}.example.in`;
      const site = await startWebsite(db(), catalog, { userId: owner.id, ...starter, domain });
      await payInTestSandbox(payments$, await createHostingOrder(shop(), { userId: owner.id, websiteId: site.id, planId: "starter-monthly", idempotencyKey: key() }));
      const before = (await db().select().from(orders)).length;

      await expect(createHostingOrder(shop(), { userId: other.id, websiteId: site.id, planId: "starter-monthly", idempotencyKey: key() })).rejects.toThrow(new NotFound("We could not find that website."));
      await expect(createHostingOrder(shop(), { userId: owner.id, websiteId: site.id, planId: "platinum-monthly", idempotencyKey: key() })).rejects.toThrow("We could not find that plan.");
      await expect(createHostingOrder(shop(), { userId: owner.id, websiteId: "not-a-website", planId: "starter-monthly", idempotencyKey: key() })).rejects.toThrow(NotFound);
      await expect(startWebsite(db(), catalog, { userId: other.id, ...starter, domain })).rejects.toThrow(new Conflict(`${domain} is already hosted with us. If it is yours, write to us from the address on that account and we will sort it out.`));
      await expect(startWebsite(db(), catalog, { userId: owner.id, ...starter, domain })).rejects.toThrow("You already host");
      await expect(startWebsite(db(), catalog, { userId: other.id, ...starter, domain: "https://x.example.in/" })).rejects.toThrow(ValidationError);
      await expect(startWebsite(db(), catalog, { userId: other.id, serviceId: "website-hosting", planId: "starter-once", domain: "x.example.in" })).rejects.toThrow("We could not find that plan.");

      await db().update(websites).set({ cancelledAt: at("2026-05-11T00:00:00Z"), cancelledBy: "owner" }).where(eq(websites.id, site.id));
      await expect(createHostingOrder(shop(), { userId: owner.id, websiteId: site.id, planId: "starter-monthly", idempotencyKey: key() })).rejects.toThrow(
        `You cancelled ${domain} on 11 May 2026. To renew it, choose Keep my website on its page first.`,
      );
      expect((await db().select().from(orders)).length).toBe(before);
    });

    it("lets the owner keep a website they cancelled while its period runs: once, only theirs, and not once its first period is being refunded", async () => {
      const [owner, other] = [await suite.signUp(), await suite.signUp()];
      const site = await startWebsite(db(), catalog, { userId: owner.id, ...starter, domain: `keep-${key()}.example.in` });
      const first = await createHostingOrder(shop(), { userId: owner.id, websiteId: site.id, planId: "starter-monthly", idempotencyKey: key() });
      await payInTestSandbox(payments$, first);
      const cancelled = await cancelWebsite(db(), owner.id, site.id, clock);
      expect(cancelled).toMatchObject({ cancelledAt: clock, cancelledBy: "owner" });

      await expect(keepWebsite(db(), other.id, site.id, clock)).rejects.toThrow(new NotFound("We could not find that website."));
      expect((await siteNow(site.id))?.cancelledAt).toEqual(clock);
      const [a, b] = await Promise.all([keepWebsite(db(), owner.id, site.id, clock), keepWebsite(db(), owner.id, site.id, clock)]);
      expect([a.cancelledAt, b.cancelledAt]).toEqual([null, null]);
      const kept = await siteNow(site.id);
      expect(kept).toMatchObject({ cancelledAt: null, cancelledBy: null, expiresAt: at("2026-06-10T09:00:00Z") });
      expect(websiteState(kept as typeof websites.$inferSelect, clock)).toBe("active");
      // Sent again, it changes nothing.
      expect((await keepWebsite(db(), owner.id, site.id, at("2026-05-12T00:00:00Z"))).updatedAt).toEqual(kept?.updatedAt);
      // Kept, it renews as before.
      expect((await createHostingOrder(shop(), { userId: owner.id, websiteId: site.id, planId: "starter-yearly", idempotencyKey: key() })).websiteId).toBe(site.id);

      // Cancelled again, then its first period refunded: that ends it, and keeping it is refused.
      await cancelWebsite(db(), owner.id, site.id, clock);
      await requestRefund(shop(), owner.id, first.id);
      const refusal = `You asked for a refund of ${site.domain}'s first period, which ends its hosting, so it cannot be kept. To host it again, choose a plan on the website hosting page.`;
      await expect(keepWebsite(db(), owner.id, site.id, clock)).rejects.toThrow(new Conflict(refusal));
      await deliverTestWebhooks(db(), payments$);
      expect(await siteNow(site.id)).toMatchObject({ cancelledBy: "refund", expiresAt: clock });
      await expect(keepWebsite(db(), owner.id, site.id, clock)).rejects.toThrow(new Conflict(refusal));
    });

    it("refuses to keep a cancelled website after its period ends, or once its domain went live on another website", async () => {
      const [owner, rival] = [await suite.signUp(), await suite.signUp()];
      const domain = `gone-${key()}.example.in`;
      const site = await startWebsite(db(), catalog, { userId: owner.id, ...starter, domain });
      await payInTestSandbox(payments$, await createHostingOrder(shop(), { userId: owner.id, websiteId: site.id, planId: "starter-monthly", idempotencyKey: key() }));
      await cancelWebsite(db(), owner.id, site.id, clock);
      await expect(keepWebsite(db(), owner.id, site.id, at("2026-06-10T09:00:00Z"))).rejects.toThrow(
        new Conflict(`${domain}'s paid period ended on 10 June 2026, so there is nothing left to keep. To host it again, choose a plan on the website hosting page.`),
      );

      // Someone else starts hosting the domain while it is cancelled: the unique live domain is theirs now.
      const theirs = await startWebsite(db(), catalog, { userId: rival.id, ...starter, domain });
      await payInTestSandbox(payments$, await createHostingOrder(shop(), { userId: rival.id, websiteId: theirs.id, planId: "starter-monthly", idempotencyKey: key() }));
      await expect(keepWebsite(db(), owner.id, site.id, clock)).rejects.toThrow(
        new Conflict(`${domain} is already hosted with us. If it is yours, write to us from the address on that account and we will sort it out.`),
      );
      expect((await siteNow(site.id))?.cancelledBy).toBe("owner");
    });

    it("refunds a website's first period inside the policy's window, which cancels the site", async () => {
      const buyer = await suite.signUp();
      const site = await startWebsite(db(), catalog, { userId: buyer.id, ...starter, domain: `refund-${key()}.example.in` });
      const first = await createHostingOrder(shop(), { userId: buyer.id, websiteId: site.id, planId: "starter-monthly", idempotencyKey: key() });
      await payInTestSandbox(payments$, first);
      const refund = await requestRefund(shop(), buyer.id, first.id);
      await deliverTestWebhooks(db(), payments$);
      const [settled] = await db().select().from(refunds).where(eq(refunds.id, refund.id));
      expect(settled?.status).toBe("processed");
      const [ended] = await db().select().from(websites).where(eq(websites.id, site.id));
      expect(ended).toMatchObject({ cancelledAt: clock, expiresAt: clock });
      expect(websiteState(ended as typeof websites.$inferSelect, clock)).toBe("cancelled");
      await expect(createHostingOrder(shop(), { userId: buyer.id, websiteId: site.id, planId: "starter-monthly", idempotencyKey: key() })).rejects.toThrow("so it cannot be renewed");

      const late = await startWebsite(db(), catalog, { userId: buyer.id, ...starter, domain: `late-${key()}.example.in` });
      const lateOrder = await createHostingOrder(shop(), { userId: buyer.id, websiteId: late.id, planId: "starter-monthly", idempotencyKey: key() });
      await payInTestSandbox(payments$, lateOrder);
      clock = shift(clock, catalog.site.refund.windowDays + 1);
      await expect(requestRefund(shop(), buyer.id, lateOrder.id)).rejects.toThrow(`Refunds are available for ${catalog.site.refund.windowDays} days after purchase`);
      clock = at("2026-05-10T09:00:00Z");
    });

    /** A site of the buyer's with its first month paid, and a checkout for a year's renewal opened but not paid. */
    async function paidWithRenewalOpen(name: string) {
      const buyer = await suite.signUp();
      const domain = `${name}-${key()}.example.in`;
      const site = await startWebsite(db(), catalog, { userId: buyer.id, ...starter, domain });
      const first = await createHostingOrder(shop(), { userId: buyer.id, websiteId: site.id, planId: "starter-monthly", idempotencyKey: key() });
      expect((await payInTestSandbox(payments$, first)).outcome).toBe("fulfilled");
      await deliverTestWebhooks(db(), payments$);
      const renewal = await createHostingOrder(shop(), { userId: buyer.id, websiteId: site.id, planId: "starter-yearly", idempotencyKey: key() });
      const [stored] = await db().select().from(websites).where(eq(websites.id, site.id));
      return { buyer, domain, site: stored as typeof websites.$inferSelect & { expiresAt: Date }, first, renewal };
    }

    it("refuses the first period's refund once a renewal is paid, saying why and what to do, and changes nothing", async () => {
      const { buyer, domain, site, first, renewal } = await paidWithRenewalOpen("renewed");
      expect((await payInTestSandbox(payments$, renewal)).outcome).toBe("fulfilled");
      const renewedUntil = (await siteNow(site.id))?.expiresAt as Date;
      expect(renewedUntil).toEqual(addInterval(site.expiresAt, "year"));

      const [paidRenewal] = await db().select().from(orders).where(eq(orders.id, renewal.id));
      const refusal = `You have already paid to renew ${domain} (order ${formatOrderNumber(paidRenewal?.number ?? 0)}), so its first period can no longer be refunded on its own: refunding it would end the hosting you renewed.`;
      await expect(requestRefund(shop(), buyer.id, first.id)).rejects.toThrow(new ValidationError(`${refusal} If you no longer want the website, cancel it on its page and it stays online until ${formatDay(renewedUntil)}; if you renewed by mistake, write to us and we will sort it out.`));
      await expect(requestRefund(shop(), buyer.id, renewal.id)).rejects.toThrow("Only a website's first period can be refunded");
      const listed = await listOrdersWithEligibility(db(), catalog, buyer.id, clock);
      expect(listed.find((o) => o.id === first.id)?.refundEligibility).toMatchObject({ eligible: false, reason: expect.stringContaining(refusal) });

      await deliverTestWebhooks(db(), payments$);
      expect(await refundsOf(first.id)).toEqual([]);
      expect(await siteNow(site.id)).toMatchObject({ cancelledAt: null, expiresAt: renewedUntil });
    });

    it("refunds automatically a renewal paid while the first period's refund is under way, which ends the site, and allows no new renewal meanwhile", async () => {
      const { buyer, domain, site, first, renewal } = await paidWithRenewalOpen("refunding");
      const asked = await requestRefund(shop(), buyer.id, first.id);
      expect(asked.status).toBe("pending");
      await expect(createHostingOrder(shop(), { userId: buyer.id, websiteId: site.id, planId: "starter-yearly", idempotencyKey: key() })).rejects.toThrow(
        `You asked for a refund of ${domain}'s first period, which ends its hosting, so it cannot be renewed.`,
      );

      // The checkout opened before the refund was asked for is paid now, from another tab.
      expect((await payInTestSandbox(payments$, renewal)).outcome).toBe("not-provided");
      await deliverTestWebhooks(db(), payments$);
      await payInTestSandbox(payments$, renewal).catch(() => null);
      await deliverTestWebhooks(db(), payments$);

      for (const order of [first, renewal]) {
        const [refund, ...more] = await refundsOf(order.id);
        expect(more).toEqual([]);
        expect(refund).toMatchObject({ status: "processed", creditNoteNumber: expect.any(Number) });
        expect((await db().select().from(orders).where(eq(orders.id, order.id)))[0]?.status).toBe("refunded");
      }
      expect(await db().select().from(websitePeriods).where(eq(websitePeriods.orderId, renewal.id))).toEqual([]);
      expect(await siteNow(site.id)).toMatchObject({ cancelledAt: clock, expiresAt: clock });
      const subjects = await subjectsTo(buyer.email);
      expect(subjects.filter((s) => s === `We could not apply your payment for ${domain}: it is being refunded`)).toHaveLength(1);
      const notice = (await db().select().from(mailOutbox).where(eq(mailOutbox.to, buyer.email))).find((m) => m.subject.startsWith("We could not apply"));
      expect(notice?.text).toContain(`you asked for a refund of ${domain}'s first period, which ends its hosting, so there was nothing left to renew`);
    });

    it("never leaves a paid renewal on a site whose first period is refunded, when the refund and the renewal's payment race", async () => {
      for (let round = 0; round < 3; round++) {
        const { buyer, site, first, renewal } = await paidWithRenewalOpen(`race${round}`);
        const [refund, paid] = await Promise.allSettled([requestRefund(shop(), buyer.id, first.id), payInTestSandbox(payments$, renewal)]);
        expect(paid.status).toBe("fulfilled");
        await deliverTestWebhooks(db(), payments$);
        const [firstRow] = await db().select().from(orders).where(eq(orders.id, first.id));
        const [renewalRow] = await db().select().from(orders).where(eq(orders.id, renewal.id));
        const stored = await siteNow(site.id);
        if (refund.status === "fulfilled") {
          expect([firstRow?.status, renewalRow?.status]).toEqual(["refunded", "refunded"]);
          expect(stored?.cancelledAt).not.toBeNull();
        } else {
          expect(String(refund.reason)).toContain("You have already paid to renew");
          expect([firstRow?.status, renewalRow?.status]).toEqual(["paid", "paid"]);
          expect(stored).toMatchObject({ cancelledAt: null, expiresAt: addInterval(site.expiresAt, "year") });
        }
      }
    });

    it("refunds automatically, by callback or webhook alone, a renewal paid after the site was cancelled, and extends nothing", async () => {
      for (const path of ["callback", "webhook"] as const) {
        const { buyer, domain, site, renewal } = await paidWithRenewalOpen(`cancelled-${path}`);
        await cancelWebsite(db(), buyer.id, site.id, clock);
        const sandbox = payments$.sandbox as SandboxGateway;
        if (path === "callback") expect((await payInTestSandbox(payments$, renewal)).outcome).toBe("not-provided");
        else await sandbox.pay(renewal.providerOrderId ?? "", { outcome: "pay", method: "upi" });
        await deliverTestWebhooks(db(), payments$);
        // Replays of both the callback and the webhooks change nothing more.
        await payInTestSandbox(payments$, renewal).catch(() => null);
        await deliverTestWebhooks(db(), payments$);

        const [refund, ...more] = await refundsOf(renewal.id);
        expect(more, path).toEqual([]);
        expect(refund, path).toMatchObject({ status: "processed", amount: 1_499_000, creditNoteNumber: expect.any(Number) });
        expect(await siteNow(site.id), path).toMatchObject({ cancelledAt: clock, expiresAt: site.expiresAt });
        expect(await db().select().from(websitePeriods).where(eq(websitePeriods.orderId, renewal.id))).toEqual([]);
        const mails = (await db().select().from(mailOutbox).where(eq(mailOutbox.to, buyer.email))).filter((m) => m.subject.startsWith("We could not apply"));
        expect(mails, path).toHaveLength(1);
        expect(mails[0]?.text).toContain(`you cancelled ${domain} before this payment arrived, so there was nothing to renew`);
        expect((await subjectsTo(buyer.email)).filter((s) => s.startsWith("Your refund of ₹14,990 has been processed"))).toHaveLength(1);
        const [listed] = (await listOrdersWithEligibility(db(), catalog, buyer.id, clock)).filter((o) => o.id === renewal.id);
        expect(listed).toMatchObject({ status: "refunded", hostingPeriod: "none" });
      }
    });

    it("refunds in full, at once, a first payment for a domain another customer's site went live on while it was being paid", async () => {
      const [first, second] = [await suite.signUp(), await suite.signUp()];
      const domain = `race-${key()}.example.in`;
      const winner = await startWebsite(db(), catalog, { userId: first.id, ...starter, domain });
      const loser = await startWebsite(db(), catalog, { userId: second.id, ...starter, domain });
      const winning = await createHostingOrder(shop(), { userId: first.id, websiteId: winner.id, planId: "starter-monthly", idempotencyKey: key() });
      const losing = await createHostingOrder(shop(), { userId: second.id, websiteId: loser.id, planId: "starter-monthly", idempotencyKey: key() });
      expect((await payInTestSandbox(payments$, winning)).outcome).toBe("fulfilled");
      expect((await payInTestSandbox(payments$, losing)).outcome).toBe("not-provided");
      // The provider's webhooks for both payments and the refund, replayed: nothing more happens.
      await deliverTestWebhooks(db(), payments$);
      await payInTestSandbox(payments$, losing).catch(() => null);

      const [refund, ...more] = await db().select().from(refunds).where(eq(refunds.orderId, losing.id));
      expect(more).toEqual([]);
      expect(refund).toMatchObject({ status: "processed", amount: 149_900, userId: second.id });
      expect((await db().select().from(orders).where(eq(orders.id, losing.id)))[0]?.status).toBe("refunded");
      expect((await db().select().from(websites).where(eq(websites.id, loser.id)))[0]).toMatchObject({ startedAt: null, expiresAt: null });
      expect((await db().select().from(websites).where(eq(websites.id, winner.id)))[0]?.startedAt).not.toBeNull();
      const subjects = (await db().select().from(mailOutbox).where(eq(mailOutbox.to, second.email))).map((m) => m.subject);
      expect(subjects).toContain(`We could not apply your payment for ${domain}: it is being refunded`);
      expect(subjects.filter((s) => s.startsWith("Your refund of ₹1,499 has been processed"))).toHaveLength(1);
      expect(subjects.some((s) => s.startsWith("Your receipt for"))).toBe(false);
    });

    it("lets the buyer ask again, at any time, for the refund of a payment that bought nothing when the provider could not be reached", async () => {
      const [first, second] = [await suite.signUp(), await suite.signUp()];
      const domain = `retry-${key()}.example.in`;
      const winner = await startWebsite(db(), catalog, { userId: first.id, ...starter, domain });
      const loser = await startWebsite(db(), catalog, { userId: second.id, ...starter, domain });
      const winning = await createHostingOrder(shop(), { userId: first.id, websiteId: winner.id, planId: "starter-monthly", idempotencyKey: key() });
      const losing = await createHostingOrder(shop(), { userId: second.id, websiteId: loser.id, planId: "starter-monthly", idempotencyKey: key() });
      await payInTestSandbox(payments$, winning);
      const unreachable = { ...payments$, shop: { ...shop(), provider: { ...shop().provider, refund: () => Promise.reject(new Error("provider unreachable")) } } };
      expect((await payInTestSandbox(unreachable, losing)).outcome).toBe("not-provided");
      expect((await db().select().from(refunds).where(eq(refunds.orderId, losing.id)))[0]?.status).toBe("failed");

      clock = shift(clock, catalog.site.refund.windowDays + 30);
      const [listed] = (await listOrdersWithEligibility(db(), catalog, second.id, clock)).filter((o) => o.id === losing.id);
      expect(listed).toMatchObject({ status: "paid", hostingPeriod: "none", refund: { status: "failed" } });
      const retried = await requestRefund(shop(), second.id, losing.id);
      await deliverTestWebhooks(db(), payments$);
      expect((await db().select().from(refunds).where(eq(refunds.id, retried.id)))[0]?.status).toBe("processed");
      clock = at("2026-05-10T09:00:00Z");
    });

    it("reuses the customer's pending website for the same domain instead of making another", async () => {
      const buyer = await suite.signUp();
      const domain = `again-${key()}.example.in`;
      const first = await startWebsite(db(), catalog, { userId: buyer.id, ...starter, domain });
      const second = await startWebsite(db(), catalog, { userId: buyer.id, serviceId: "website-hosting", planId: "business-monthly", domain });
      expect(second).toMatchObject({ id: first.id, planId: "business-monthly" });
    });

    const limitMessage = `You already have ${pendingWebsiteLimit} websites waiting for their first payment. Finish paying for one of them, or cancel one you no longer need on its page, before adding another.`;

    it("bounds the websites waiting for a first payment per person, even when they are started all at once", async () => {
      const buyer = await suite.signUp();
      const started = await Promise.allSettled(Array.from({ length: 40 }, (_, i) => startWebsite(db(), catalog, { userId: buyer.id, ...starter, domain: `burst${i}-${key()}.example.in` })));
      const made = started.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
      expect(made).toHaveLength(pendingWebsiteLimit);
      for (const refused of started.filter((r) => r.status === "rejected")) expect(refused.reason).toEqual(new Conflict(limitMessage));
      expect(await db().select().from(websites).where(eq(websites.userId, buyer.id))).toHaveLength(pendingWebsiteLimit);

      // At the bound, the same domain is still found again, and cancelling one makes room for another.
      expect((await startWebsite(db(), catalog, { userId: buyer.id, ...starter, domain: made[0]?.domain ?? "" })).id).toBe(made[0]?.id);
      await cancelWebsite(db(), buyer.id, made[0]?.id ?? "", clock);
      expect(await startWebsite(db(), catalog, { userId: buyer.id, ...starter, domain: `after-${key()}.example.in` })).toMatchObject({ startedAt: null });
      await expect(startWebsite(db(), catalog, { userId: buyer.id, ...starter, domain: `over-${key()}.example.in` })).rejects.toThrow(limitMessage);
    });

    it("removes a website cancelled before its first payment, with its unpaid orders, and refunds a payment that arrives for it afterwards", async () => {
      const buyer = await suite.signUp();
      const domain = `gone-${key()}.example.in`;
      const site = await startWebsite(db(), catalog, { userId: buyer.id, ...starter, domain });
      const order = await createHostingOrder(shop(), { userId: buyer.id, websiteId: site.id, planId: "starter-monthly", idempotencyKey: key() });
      await cancelWebsite(db(), buyer.id, site.id, clock);
      expect(await siteNow(site.id)).toBeUndefined();
      expect((await db().select().from(orders).where(eq(orders.id, order.id)))[0]).toMatchObject({ status: "cancelled", websiteId: null, failureReason: expect.stringContaining("Nothing was charged") });
      await expect(cancelWebsite(db(), buyer.id, site.id, clock)).rejects.toThrow(NotFound);

      // The checkout was still open in another tab.
      const paid = await payInTestSandbox(payments$, order);
      expect(paid.outcome).toBe("not-provided");
      expect(orderPagePath(paid.order)).toBe(`/account/orders#order-${order.id}`);
      await deliverTestWebhooks(db(), payments$);
      expect((await refundsOf(order.id))[0]).toMatchObject({ status: "processed", amount: 149_900 });
    });

    it("expires, in the hourly clean-up, a website left unpaid for a week, and lets a refund of a payment it could not take be asked for again", async () => {
      const buyer = await suite.signUp();
      const kept = await startWebsite(db(), catalog, { userId: buyer.id, ...starter, domain: `kept-${key()}.example.in` });
      const stale = await startWebsite(db(), catalog, { userId: buyer.id, ...starter, domain: `stale-${key()}.example.in` });
      const order = await createHostingOrder(shop(), { userId: buyer.id, websiteId: stale.id, planId: "starter-monthly", idempotencyKey: key() });
      await db().update(websites).set({ updatedAt: new Date(Date.now() - 60_000) }).where(eq(websites.id, kept.id));

      expect((await cleanUp(db(), weekOn(-3_600_000))).unpaidWebsites).toBe(0);
      await db().update(websites).set({ updatedAt: new Date(Date.now() + 3_600_000) }).where(eq(websites.id, kept.id));
      // Other tests' websites may expire too: what counts is that this one goes, the fresh one stays, and a run after that finds nothing.
      await Promise.all([cleanUp(db(), weekOn(60_000)), cleanUp(db(), weekOn(60_000))]);
      expect((await cleanUp(db(), weekOn(60_000))).unpaidWebsites).toBe(0);
      expect(await siteNow(stale.id)).toBeUndefined();
      expect(await siteNow(kept.id)).toBeDefined();
      expect((await db().select().from(orders).where(eq(orders.id, order.id)))[0]).toMatchObject({ status: "cancelled", failureReason: expect.stringContaining("not paid for") });

      // A payment that still arrives is refunded; when the provider cannot be reached, the buyer can ask again.
      const unreachable = { ...payments$, shop: { ...shop(), provider: { ...shop().provider, refund: () => Promise.reject(new Error("provider unreachable")) } } };
      expect((await payInTestSandbox(unreachable, order)).outcome).toBe("not-provided");
      expect((await refundsOf(order.id))[0]?.status).toBe("failed");
      await requestRefund(shop(), buyer.id, order.id);
      await deliverTestWebhooks(db(), payments$);
      expect((await refundsOf(order.id))[0]?.status).toBe("processed");
    });
  });

  const remind = (now: Date) => queueDueReminders(db(), { site: catalog.site, publicUrl: "http://academy.test", now });

  /** A site of its own owner, paid on `paidAt` for a year (or a month). */
  async function paidSite(paidAt: Date, userId?: string, interval: "month" | "year" = "year") {
    const owner = userId ?? (await suite.signUp()).id;
    const created = await pendingWebsite(owner);
    await pay(await hostingOrder(owner, created.id, interval === "year" ? "starter-yearly" : "starter-monthly"), interval, paidAt);
    const [stored] = await db().select().from(websites).where(eq(websites.id, created.id));
    return stored as typeof websites.$inferSelect & { expiresAt: Date };
  }
  const sentFor = async (websiteId: string) =>
    (await db().select().from(websiteReminders).where(eq(websiteReminders.websiteId, websiteId))).map((r) => r.kind).toSorted();
  const mailsTo = async (userId: string) => {
    const [owner] = await db().select().from(user).where(eq(user.id, userId));
    return db().select().from(mailOutbox).where(eq(mailOutbox.to, owner?.email ?? ""));
  };

  describe("renewal reminders", () => {
    it("sends each reminder once, at 30, 7 and 1 days before, on the expiry day and at suspension, each with the renew link", async () => {
      const paid = await paidSite(at("2025-06-01T00:00:00Z"));
      const expiry = paid.expiresAt;
      const steps: [number, string[]][] = [
        [-31, []],
        [-30, ["30-days"]],
        [-29, ["30-days"]],
        [-7, ["30-days", "7-days"]],
        [-1, ["1-day", "30-days", "7-days"]],
        [0, ["1-day", "30-days", "7-days", "expiry-day"]],
        [14, ["1-day", "30-days", "7-days", "expiry-day"]],
        [15, ["1-day", "30-days", "7-days", "expiry-day", "suspended"]],
        [40, ["1-day", "30-days", "7-days", "expiry-day", "suspended"]],
      ];
      for (const [days, expected] of steps) {
        await remind(shift(expiry, days));
        await remind(shift(expiry, days));
        expect(await sentFor(paid.id), `${days} days from expiry`).toEqual(expected);
      }
      const mails = (await mailsTo(paid.userId)).filter((m) => m.subject.startsWith(paid.domain));
      // Nothing renews by itself: each says when it expires (or did), in sentences that start as sentences do.
      const on = formatDay(paid.expiresAt);
      expect(mails.map((m) => m.subject.slice(paid.domain.length + 2)).toSorted()).toEqual([
        `expires in 7 days, on ${on}`,
        `expires on ${on} — renew to keep it online`,
        `expires tomorrow, on ${on}`,
        "hosting has expired",
        "website suspended",
      ]);
      const opening = (subject: string) => mails.find((m) => m.subject.slice(paid.domain.length + 2).startsWith(subject))?.text ?? "";
      expect(opening("expires on")).toContain(`The hosting of ${paid.domain} expires on ${on}. Nothing renews by itself: renew it to keep the website online.`);
      expect(opening("website suspended")).toContain(`${paid.domain} is offline: its hosting was not renewed after it expired on ${on}. Renew it to bring it back.`);
      for (const mail of mails) expect(mail.text).not.toMatch(/renews in|hosting (renews|ends|has expired) for/);
      for (const mail of mails) expect(mail.links).toContain(`http://academy.test/account/services/websites/${paid.id}/renew`);
    });

    it("sends a site paid by the month no 30-day reminder, and the 7-day one when it starts expiring", async () => {
      // 31 January + 1 month: a 28-day period; 1 March + 1 month: a 31-day one.
      for (const paidAt of [at("2025-01-31T00:00:00Z"), at("2025-03-01T00:00:00Z")]) {
        const monthly = await paidSite(paidAt, undefined, "month");
        expect(monthly.billingInterval).toBe("month");
        expect(websiteState(monthly, shift(paidAt, 1))).toBe("active");
        await remind(shift(paidAt, 1));
        await remind(shift(monthly.expiresAt, -8));
        expect(await sentFor(monthly.id)).toEqual([]);
        await remind(shift(monthly.expiresAt, -7));
        expect(websiteState(monthly, shift(monthly.expiresAt, -7))).toBe("expiring");
        expect(await sentFor(monthly.id)).toEqual(["7-days"]);
        await remind(shift(monthly.expiresAt, 0));
        expect(await sentFor(monthly.id)).toEqual(["7-days", "expiry-day"]);
      }
    });

    it("sends nothing for a site renewed in the meantime or cancelled, and only the latest reminder after a pause", async () => {
      const renewed = await paidSite(at("2025-06-01T00:00:00Z"));
      await remind(shift(renewed.expiresAt, -7));
      await pay(await hostingOrder(renewed.userId, renewed.id, "starter-yearly"), "year", shift(renewed.expiresAt, -6));
      await remind(shift(renewed.expiresAt, -1));
      await remind(shift(renewed.expiresAt, 0));
      expect(await sentFor(renewed.id)).toEqual(["7-days"]);

      const cancelled = await paidSite(at("2025-06-01T00:00:00Z"));
      await db().update(websites).set({ cancelledAt: shift(cancelled.expiresAt, -40), cancelledBy: "owner" }).where(eq(websites.id, cancelled.id));
      await remind(shift(cancelled.expiresAt, -1));
      expect(await sentFor(cancelled.id)).toEqual([]);

      const paused = await paidSite(at("2025-06-01T00:00:00Z"));
      await remind(shift(paused.expiresAt, -3));
      expect(await sentFor(paused.id)).toEqual(["7-days"]);
    });

    it("sends each due reminder once when two workers run at the same moment", async () => {
      const owner = (await suite.signUp()).id;
      const paidAt = at("2024-01-10T00:00:00Z");
      const sites = [];
      for (let i = 0; i < 30; i++) sites.push(await paidSite(paidAt, owner));
      const now = shift(sites[0]?.expiresAt ?? paidAt, -7);
      await Promise.all([remind(now), remind(now), remind(now)]);
      for (const site of sites) expect(await sentFor(site.id)).toEqual(["7-days"]);
      expect((await mailsTo(owner)).filter((m) => m.subject.includes(": expires in 7 days, on "))).toHaveLength(30);
    });
  });
});
