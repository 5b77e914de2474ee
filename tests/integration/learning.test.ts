import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { coursePositions, enrolments } from "../../server/db/schema.ts";
import { courseOutline, courseState, lessonView, recordLessonOpened, setLessonComplete } from "../../server/learning/player.ts";
import { databaseKinds, identitySuite, testCatalog, testCourse } from "./helpers.ts";

const course = testCourse("demo", "Demo course", [[{ id: "1-1", preview: true }, "1-2"], ["2-1"]]);
const catalog = testCatalog([course], { "demo/1-1": "<p>Body of 1-1</p>", "demo/1-2": "<p>Body of 1-2</p>", "demo/2-1": "<p>Body of 2-1</p>" });

describe.each(databaseKinds)("the course player on $name", ({ open }) => {
  const suite = identitySuite(open, catalog);

  async function learner(enrolled: "active" | "revoked" | null): Promise<string> {
    const { id } = await suite.signUp("Lata");
    if (enrolled) await suite.enrol(id, "demo", enrolled);
    return id;
  }

  const state = (userId: string) => courseState(suite.db, course, userId);

  it("shows every lesson to an enrolled learner, previews to anyone signed in, and nothing else", async () => {
    const enrolled = await state(await learner("active"));
    const visitor = await state(await learner(null));
    const refunded = await state(await learner("revoked"));
    expect(lessonView(catalog, enrolled, "1-2")).toMatchObject({ access: "enrolled", body: { html: "<p>Body of 1-2</p>" } });
    expect(lessonView(catalog, visitor, "1-1")).toMatchObject({ access: "preview", body: { html: "<p>Body of 1-1</p>" } });
    expect(lessonView(catalog, visitor, "1-2")).toMatchObject({ access: "locked", body: null });
    expect(lessonView(catalog, refunded, "1-2")).toMatchObject({ access: "locked", body: null });
    expect(() => lessonView(catalog, enrolled, "9-9")).toThrow("We could not find that lesson.");
  });

  it("links each lesson to the one before and after it, across modules", async () => {
    const s = await state(await learner("active"));
    expect(lessonView(catalog, s, "1-2")).toMatchObject({ moduleNumber: 1, previous: { id: "1-1" }, next: { id: "2-1" } });
    expect(lessonView(catalog, s, "1-1").previous).toBeNull();
    expect(lessonView(catalog, s, "2-1").next).toBeNull();
  });

  it("counts progress, names the next lesson and remembers where the learner was", async () => {
    const userId = await learner("active");
    expect(await state(userId)).toMatchObject({ percent: 0, nextLessonId: "1-1", lastLessonId: null });
    await setLessonComplete(suite.db, catalog, userId, "demo", "1-1", true);
    await setLessonComplete(suite.db, catalog, userId, "demo", "1-1", true);
    await recordLessonOpened(suite.db, catalog, userId, "demo", "1-2");
    const after = await state(userId);
    expect(after).toMatchObject({ percent: 33, nextLessonId: "1-2", lastLessonId: "1-2" });
    expect(courseOutline(after).map((m) => m.lessons.map((l) => l.state))).toEqual([["done", "in-progress"], ["todo"]]);
    await setLessonComplete(suite.db, catalog, userId, "demo", "1-2", true);
    const all = await setLessonComplete(suite.db, catalog, userId, "demo", "2-1", true);
    expect(all).toMatchObject({ percent: 100, nextLessonId: null });
    expect((await setLessonComplete(suite.db, catalog, userId, "demo", "2-1", false)).percent).toBe(66);
  });

  it("remembers the lesson opened last, writing nothing when the same one is opened again", async () => {
    const userId = await learner("active");
    const position = async () => (await suite.db.select().from(coursePositions).where(eq(coursePositions.userId, userId)))[0];
    await recordLessonOpened(suite.db, catalog, userId, "demo", "1-2");
    const first = await position();
    await recordLessonOpened(suite.db, catalog, userId, "demo", "1-2");
    expect(await position()).toEqual(first);
    await recordLessonOpened(suite.db, catalog, userId, "demo", "2-1");
    expect((await position())?.lessonId).toBe("2-1");
  });

  it("remembers the furthest progress reached: un-marking lessons lowers progress, never that mark", async () => {
    const userId = await learner("active");
    const furthest = async () =>
      (await suite.db.select({ percent: enrolments.furthestProgressPercent }).from(enrolments).where(eq(enrolments.userId, userId)))[0]?.percent;
    for (const lessonId of ["1-1", "1-2"]) await setLessonComplete(suite.db, catalog, userId, "demo", lessonId, true);
    expect(await furthest()).toBe(66);
    await setLessonComplete(suite.db, catalog, userId, "demo", "1-2", false);
    expect((await setLessonComplete(suite.db, catalog, userId, "demo", "1-1", false)).percent).toBe(0);
    expect(await furthest()).toBe(66);
    await setLessonComplete(suite.db, catalog, userId, "demo", "2-1", true);
    expect(await furthest()).toBe(66);
  });

  it("keeps progress to enrolled learners and to each learner's own record", async () => {
    const visitor = await learner(null);
    await expect(setLessonComplete(suite.db, catalog, visitor, "demo", "1-1", true)).rejects.toMatchObject({ status: 403 });
    await recordLessonOpened(suite.db, catalog, visitor, "demo", "1-1");
    expect(await state(visitor)).toMatchObject({ percent: 0, lastLessonId: null });
    const a = await learner("active");
    const b = await learner("active");
    await setLessonComplete(suite.db, catalog, a, "demo", "1-1", true);
    expect((await state(b)).percent).toBe(0);
    await expect(setLessonComplete(suite.db, catalog, a, "demo", "7-1", true)).rejects.toMatchObject({ status: 404 });
    await expect(setLessonComplete(suite.db, catalog, a, "no-course", "1-1", true)).rejects.toMatchObject({ status: 404 });
  });

  it("locks lessons again after a refund, keeping the record of what was done", async () => {
    const userId = await learner("active");
    await setLessonComplete(suite.db, catalog, userId, "demo", "1-1", true);
    await suite.db.update(enrolments).set({ status: "revoked" }).where(and(eq(enrolments.userId, userId), eq(enrolments.courseId, "demo")));
    const s = await state(userId);
    expect(s.enrolled).toBe(false);
    expect(courseOutline(s)[0]?.lessons.map((l) => l.state)).toEqual(["done", "locked"]);
  });
});
