import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { loadCatalog, type Catalog } from "../../server/catalog/index.ts";
import { orders, websitePeriods, websites } from "../../server/db/schema.ts";
import { addPaidPeriod } from "../../server/websites/index.ts";
import { contentDir, databaseKinds, identitySuite } from "./helpers.ts";

let catalog: Catalog;
beforeAll(async () => {
  catalog = await loadCatalog(contentDir);
});

const at = (iso: string) => new Date(iso);

describe.each(databaseKinds)("hosted websites on $name", ({ open }) => {
  const suite = identitySuite(open, () => catalog);
  const db = () => suite.db;

  async function pendingWebsite(userId: string, domain = `site-${randomBytes(4).toString("hex")}.example.in`) {
    const [site] = await db().insert(websites).values({ userId, serviceId: "website-hosting", domain, planId: "starter-monthly" }).returning();
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
        idempotencyKey: randomBytes(12).toString("hex"),
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
    const results = await Promise.all(Array.from({ length: 20 }, () => pay(order, "year", now)));
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    expect(await pay(order, "year", at("2026-03-02T00:00:00Z"))).toBeNull();
    expect(await db().select().from(websitePeriods).where(eq(websitePeriods.websiteId, site.id))).toHaveLength(1);
    const [stored] = await db().select().from(websites).where(eq(websites.id, site.id));
    expect(stored?.expiresAt).toEqual(at("2027-03-01T00:00:00Z"));
  });

  it("holds one live website per domain, while pending and cancelled ones do not block it", async () => {
    const [a, b] = [await suite.signUp(), await suite.signUp()];
    const domain = `shared-${randomBytes(4).toString("hex")}.example.in`;
    const first = await pendingWebsite(a.id, domain);
    const second = await pendingWebsite(b.id, domain);
    await pay(await hostingOrder(a.id, first.id, "starter-monthly"), "month", at("2026-04-01T00:00:00Z"));
    await expect(pay(await hostingOrder(b.id, second.id, "starter-monthly"), "month", at("2026-04-02T00:00:00Z"))).rejects.toThrow();
    await db().update(websites).set({ cancelledAt: at("2026-04-03T00:00:00Z") }).where(eq(websites.id, first.id));
    expect(await pay(await hostingOrder(b.id, second.id, "starter-monthly"), "month", at("2026-04-04T00:00:00Z"))).not.toBeNull();
  });
});
