// What the finish page recommends next: a course the learner was refunded for is theirs no more,
// so it is recommended again; a course they hold is not.
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCatalog, type Catalog } from "../../server/catalog/index.ts";
import { enrolments, user } from "../../server/db/schema.ts";
import { recommendedCourses } from "../../server/learning/index.ts";
import { contentDir, databaseKinds, identitySuite, startTestApp, type TestApp } from "./helpers.ts";

let catalog: Catalog;
beforeAll(async () => {
  catalog = await loadCatalog(contentDir);
});

const finished = "react-fundamentals";

describe.each(databaseKinds)("courses recommended after finishing one, on $name", ({ open }) => {
  const suite = identitySuite(open, () => catalog);

  it("recommends a refunded course again, and never one the learner holds, the same category first", async () => {
    const { id } = await suite.signUp();
    await suite.enrol(id, finished);
    await suite.enrol(id, "node-backend", "revoked");
    await suite.enrol(id, "webdevfrontendcourse");
    const course = catalog.courses.find((c) => c.id === finished)!;
    const ids = (await recommendedCourses(suite.db, catalog, id, course)).map((c) => c.id);
    expect(ids).toHaveLength(3);
    expect(ids[0]).toBe("node-backend");
    expect(ids).not.toContain(finished);
    expect(ids).not.toContain("webdevfrontendcourse");
  });
});

describe("the finish page", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it("recommends the course the learner was refunded for", async () => {
    const send = (path: string, init: RequestInit = {}) => t.app.fetch(new Request(`http://academy.test${path}`, init), { incoming: { socket: { remoteAddress: "10.40.0.1" } } });
    const email = `finish-${randomBytes(4).toString("hex")}@example.com`;
    const signedUp = await send("/api/auth/sign-up/email", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Finley Fernandes", email, password: "a good long password" }),
    });
    expect(signedUp.status).toBe(200);
    const cookie = signedUp.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const { user: created } = (await signedUp.json()) as { user: { id: string } };
    const { db } = t.database;
    await db.update(user).set({ emailVerified: true }).where(eq(user.id, created.id));
    await db.insert(enrolments).values([
      { userId: created.id, courseId: finished },
      { userId: created.id, courseId: "node-backend", status: "revoked" },
    ]);
    const page = await send(`/courses/${finished}/complete`, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(catalog.courses.find((c) => c.id === "node-backend")!.title);
  });
});
