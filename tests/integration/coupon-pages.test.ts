// The checkout pages' coupon form over HTTP, as a browser without scripts uses it: the code goes in
// the address (?coupon=), the page answers with the discounted price or why the coupon does not
// apply, and the payment form carries the code it applied.
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { user } from "../../server/db/schema.ts";
import { createCoupon, type Actor } from "../../server/staff/index.ts";
import { startWebsite } from "../../server/websites/index.ts";
import { databaseKinds, startTestApp, type TestApp } from "./helpers.ts";

const origin = "http://academy.test";
const finance: Actor = { id: null, name: "Meena Finance <meena@example.com>", roles: ["finance"], address: null };

describe.each(databaseKinds)("the coupon form on the checkout pages on $name", ({ open }) => {
  let t: TestApp;
  let cookie = "";
  let websiteId = "";
  const code = `PAGES-${randomBytes(3).toString("hex").toUpperCase()}`;

  beforeAll(async () => {
    t = await startTestApp({ database: open });
    const email = `coupon-pages-${randomBytes(3).toString("hex")}@example.com`;
    const response = await t.identity.auth.api.signUpEmail({ body: { name: "Coupon Buyer", email, password: "a good long password" }, asResponse: true });
    cookie = response.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const { user: made } = (await response.clone().json()) as { user: { id: string } };
    await t.database.db.update(user).set({ emailVerified: true }).where(eq(user.id, made.id));
    websiteId = (await startWebsite(t.database.db, t.catalog, { userId: made.id, serviceId: "website-hosting", planId: "starter-monthly", domain: `pages-${randomBytes(3).toString("hex")}.example.in` })).id;
    await createCoupon(t.database.db, finance, { code, kind: "amount", value: 20_000, appliesTo: "both", startsAt: null, endsAt: null, maxUses: null, perPersonLimit: 1 });
  }, 120_000);
  afterAll(() => t.close());

  /** A page's HTML, without the empty comments React puts between neighbouring pieces of text. */
  const page = async (path: string) => {
    const response = await t.app.fetch(new Request(`${origin}${path}`, { headers: { accept: "text/html", cookie } }), { incoming: { socket: { remoteAddress: "10.9.5.1" } } });
    expect(response.status, path).toBe(200);
    return (await response.text()).replaceAll("<!-- -->", "");
  };

  it("shows a course's price with the coupon, and the payment form carries it", async () => {
    const html = await page(`/courses/react-fundamentals/confirm?coupon=${code.toLowerCase()}`);
    expect(html).toContain(`Coupon ${code} (₹200 off)`);
    expect(html).toContain(`Coupon ${code} applied: ₹200 off.`);
    expect(html).toContain("Pay ₹6,799");
    expect(html).toMatch(new RegExp(`<input type="hidden" name="coupon" value="${code}"/>`));
  });

  it("shows a website's period with the coupon, keeping the plan chosen", async () => {
    const html = await page(`/account/services/websites/${websiteId}/renew?plan=starter-monthly&coupon=${code}`);
    expect(html).toContain(`Coupon ${code} (₹200 off)`);
    expect(html).toContain("₹1,299");
    expect(html).toMatch(new RegExp(`<input type="hidden" name="coupon" value="${code}"/>`));
  });

  it("says why a code does not apply, and keeps the full price", async () => {
    const html = await page("/courses/react-fundamentals/confirm?coupon=nothing-like-it");
    expect(html).toContain("There is no coupon NOTHING-LIKE-IT. Check the code, or pay the full price.");
    expect(html).toContain("Pay ₹6,999");
    expect(html).not.toContain('name="coupon" value="NOTHING-LIKE-IT"');
  });
});
