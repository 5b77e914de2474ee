// A course taken off sale in the back office (issue 27): it leaves the catalogue, its search, the home
// page, the sitemap, the API's list, recommendations and checkout, while whoever has it keeps its page,
// its reviews and its place in the API; published again, it is back everywhere.
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApiKey } from "../../server/api/keys.ts";
import { courseOffSale } from "../../server/catalog/index.ts";
import { createOrder } from "../../server/commerce/index.ts";
import { enrolments, user } from "../../server/db/schema.ts";
import { recommendedCourses } from "../../server/learning/index.ts";
import { listAudit, setCoursePublished, type Actor } from "../../server/staff/index.ts";
import { databaseKinds, startTestApp, type TestApp } from "./helpers.ts";

const origin = "http://academy.test";
const courseId = "react-fundamentals";
const link = `href="/course/${courseId}"`;
const content: Actor = { id: null, name: "Content editor <content@academy.test>", roles: ["content"], address: "10.9.4.1" };

/** How long a change may take to be announced to the process (a notification on PostgreSQL's listening connection). */
const announced = { timeout: 5_000, interval: 20 };

describe.each(databaseKinds)("a course off sale on $name", ({ open }) => {
  let t: TestApp;
  const people = new Map<"owner" | "stranger", { id: string; cookie: string; key: string }>();

  async function person(who: "owner" | "stranger") {
    const email = `publication-${who}-${randomBytes(3).toString("hex")}@example.com`;
    const response = await t.identity.auth.api.signUpEmail({ body: { name: `Publication ${who}`, email, password: "a good long password" }, asResponse: true });
    const { user: created } = (await response.clone().json()) as { user: { id: string } };
    await t.database.db.update(user).set({ emailVerified: true }).where(eq(user.id, created.id));
    const { secret } = await createApiKey(t.database.db, created.id, { name: "Publication", scopes: ["read"], lifetimeDays: 30 }, new Date());
    people.set(who, { id: created.id, cookie: response.headers.getSetCookie().map((c) => c.split(";")[0]).join("; "), key: secret });
  }
  const who = (name: "owner" | "stranger") => people.get(name) as { id: string; cookie: string; key: string };

  /** A page as a browser asks for it: signed in as `name`, or signed out (which the page cache may answer). */
  const page = (path: string, name?: "owner" | "stranger") =>
    t.app.fetch(new Request(`${origin}${path}`, { headers: { accept: "text/html", cookie: name ? who(name).cookie : "" } }), { incoming: { socket: { remoteAddress: "10.9.4.2" } } });
  const apiCourses = async (name: "owner" | "stranger") => {
    const response = await t.app.fetch(new Request(`${origin}/api/v1/courses`, { headers: { authorization: `Bearer ${who(name).key}` } }));
    return ((await response.json()) as { courses: { id: string }[] }).courses.map((c) => c.id);
  };
  const finished = () => t.catalog.courses.find((c) => c.id !== courseId && c.category === t.catalog.courses.find((k) => k.id === courseId)?.category) ?? t.catalog.courses[0]!;

  beforeAll(async () => {
    t = await startTestApp({ database: open });
    await person("owner");
    await person("stranger");
    await t.database.db.insert(enrolments).values({ userId: who("owner").id, courseId, status: "active" });
  }, 120_000);
  afterAll(() => t.close());

  it("leaves every list and checkout for newcomers, stays whole for those who have it, and comes back when published", async () => {
    const db = t.database.db;
    expect(await (await page("/courses", "stranger")).text()).toContain(link);
    expect(await apiCourses("stranger")).toContain(courseId);

    expect(await setCoursePublished(db, content, t.catalog, courseId, { publish: false, reason: "  Being rewritten for the new React.  " })).toMatch(/^Unpublished\./);
    // The pages keep what every visitor sees until the database announces the change, which on
    // PostgreSQL reaches the process a moment after the commit (decision 031).
    await vi.waitFor(async () => expect(await (await page("/courses", "stranger")).text()).not.toContain(link), announced);

    for (const path of ["/courses", "/courses?q=react", "/"]) expect(await (await page(path, "stranger")).text(), path).not.toContain(link);
    expect(await (await page("/sitemap.xml")).text()).not.toContain(`/course/${courseId}`);
    expect(await apiCourses("stranger")).not.toContain(courseId);
    expect((await recommendedCourses(db, t.catalog, who("stranger").id, finished(), 10)).map((c) => c.id)).not.toContain(courseId);

    for (const path of [`/course/${courseId}`, `/course/${courseId}/feedback`]) {
      for (const name of [undefined, "stranger"] as const) {
        const response = await page(path, name);
        expect(response.status, `${path} as ${name ?? "a visitor"}`).toBe(410);
        expect(await response.text()).toContain(courseOffSale);
      }
    }
    expect((await page(`/courses/${courseId}/confirm`, "stranger")).status).toBe(410);
    await expect(createOrder(t.payments.shop, { userId: who("stranger").id, courseId, idempotencyKey: randomBytes(8).toString("hex") })).rejects.toMatchObject({ status: 410, message: courseOffSale });

    // Whoever has it keeps its page (with the way into it), its reviews and its place in the API.
    const owned = await page(`/course/${courseId}`, "owner");
    expect(owned.status).toBe(200);
    expect(await owned.text()).toContain("Go to course");
    expect((await page(`/course/${courseId}/feedback`, "owner")).status).toBe(200);
    expect(await apiCourses("owner")).toContain(courseId);

    expect(await setCoursePublished(db, content, t.catalog, courseId, { publish: false, reason: "Asked twice by mistake." })).toBe("This course is off sale already.");
    expect(await setCoursePublished(db, content, t.catalog, courseId, { publish: true, reason: "The rewrite is out." })).toMatch(/^Published\./);
    await vi.waitFor(async () => expect(await (await page("/courses", "stranger")).text()).toContain(link), announced);
    expect(await (await page("/sitemap.xml")).text()).toContain(`/course/${courseId}`);
    expect(await apiCourses("stranger")).toContain(courseId);
    expect((await page(`/course/${courseId}`, "stranger")).status).toBe(200);

    expect((await listAudit(db, { subjectId: courseId })).entries.map((e) => [e.action, e.before, e.after, e.reason, e.actor])).toEqual([
      ["course.publish", { onSale: false, reason: "Being rewritten for the new React." }, { onSale: true }, "The rewrite is out.", content.name],
      ["course.unpublish", { onSale: true }, { onSale: false }, "Being rewritten for the new React.", content.name],
    ]);
  });

  it("refuses a missing reason or an unknown course, and changes nothing", async () => {
    const db = t.database.db;
    await expect(setCoursePublished(db, content, t.catalog, courseId, { publish: false, reason: "          " })).rejects.toMatchObject({
      status: 400,
      message: "Say why the course comes off sale, in 10 to 500 characters.",
    });
    await expect(setCoursePublished(db, content, t.catalog, "no-such-course", { publish: false, reason: "A reason long enough." })).rejects.toMatchObject({ status: 404 });
    expect(await (await page("/courses", "stranger")).text()).toContain(link);
    expect((await listAudit(db, { subjectId: "no-such-course" })).entries).toEqual([]);
  });
});
