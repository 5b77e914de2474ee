// An error inside an area keeps the area's own navigation: the account's tabs, the player's way back.
import { randomBytes, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientIpHeader } from "../../server/auth/index.ts";
import { user } from "../../server/db/schema.ts";
import { startTestApp, type TestApp } from "./helpers.ts";

let t: TestApp;
let cookie: string;
const origin = "http://academy.test";

beforeAll(async () => {
  t = await startTestApp();
  const email = `areas-${randomBytes(4).toString("hex")}@example.com`;
  const response = await t.identity.auth.api.signUpEmail({ body: { name: "Asha Rao", email, password: "a good long password" }, asResponse: true });
  cookie = response.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  await t.database.db.update(user).set({ emailVerified: true }).where(eq(user.email, email));
});
afterAll(() => t.close());

const page = (path: string) =>
  t.app.fetch(new Request(`${origin}${path}`, { headers: { cookie, accept: "text/html", [clientIpHeader]: "10.9.0.1" }, redirect: "manual" }));

describe("errors inside an area", () => {
  it("an account page that fails keeps the account's heading and tabs", async () => {
    const response = await page(`/account/services/websites/${randomUUID()}`);
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain('aria-label="Your account"');
    expect(html).toContain(">Your account</h1>");
    expect(html).toMatch(/Error (<!-- -->)?404/);
  });

  it("a player page that fails keeps the way back into the course", async () => {
    const course = t.catalog.courses[0];
    const response = await page(`/courses/${course?.id}/submodule/99-99`);
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain('aria-label="Course"');
    expect(html).toContain(`href="/courses/${course?.id}/MainPage"`);
  });
});
