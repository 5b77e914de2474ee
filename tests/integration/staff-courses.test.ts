// The back office's courses (issue 27): each course's learners, completions, refunds and rating,
// and where its learners stop, module by module, counted from the database's own records.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { certificates, feedback, lessonProgress } from "../../server/db/schema.ts";
import { courseFigures, courseReach } from "../../server/staff/index.ts";
import { databaseKinds, identitySuite, testCatalog, testCourse } from "./helpers.ts";

describe.each(databaseKinds)("course figures on $name", ({ open }) => {
  const id = `course-${randomBytes(3).toString("hex")}`;
  const course = testCourse(id, "Layouts in CSS", [["1-1", "1-2"], ["2-1", "2-2"], ["3-1"]]);
  const other = testCourse(`${id}-other`, "Another course", [["a-1"]]);
  const catalog = testCatalog([course, other]);
  const suite = identitySuite(open, catalog);

  it("counts learners, refunds, certificates and shown reviews per course, and where its learners stop", async () => {
    const people = await Promise.all(Array.from({ length: 5 }, (_, i) => suite.signUp(`Learner ${i}`)));
    const [a, b, c, d, refunded] = people.map((p) => p.id) as [string, string, string, string, string];
    for (const learner of [a, b, c, d]) await suite.enrol(learner, id);
    await suite.enrol(refunded, id, "revoked");
    await suite.enrol(a, other.id);
    const done = (userId: string, lessonId: string) => ({ userId, courseId: id, lessonId });
    // a finished; b reached module 2 (twice in it, counted once); c only module 1; d nothing; the refunded one's progress does not count.
    await suite.db
      .insert(lessonProgress)
      .values([done(a, "1-1"), done(a, "2-1"), done(a, "3-1"), done(b, "1-2"), done(b, "2-1"), done(b, "2-2"), done(c, "1-1"), done(refunded, "1-1"), done(refunded, "2-1"), done(a, "no-longer-a-lesson")]);
    await suite.db.insert(certificates).values([
      { id: `AC-${id}-A`, userId: a, courseId: id, courseTitle: course.title, learnerName: "Learner 0" },
      { id: `AC-${id}-R`, userId: refunded, courseId: id, courseTitle: course.title, learnerName: "Learner 4", revokedAt: new Date() },
    ]);
    await suite.db.insert(feedback).values([
      { userId: a, courseId: id, rating: 5, comment: "Clear." },
      { userId: b, courseId: id, rating: 4, comment: "Good." },
      { userId: c, courseId: id, rating: 1, comment: "Hidden for abuse.", hiddenAt: new Date(), hiddenReason: "Abusive language." },
    ]);

    expect(await courseFigures(suite.db, catalog)).toEqual([
      { id, title: "Layouts in CSS", onSale: true, learners: 4, refunded: 1, completions: 1, rating: 4.5, reviewCount: 2 },
      { id: other.id, title: "Another course", onSale: true, learners: 1, refunded: 0, completions: 0, rating: null, reviewCount: 0 },
    ]);
    expect(await courseReach(suite.db, course)).toEqual({
      learners: 4,
      modules: [
        { title: "Module 1", lessons: 2, reached: 3 },
        { title: "Module 2", lessons: 2, reached: 2 },
        { title: "Module 3", lessons: 1, reached: 1 },
      ],
    });
    expect(await courseReach(suite.db, testCourse("nobody-here", "Empty", [["x-1"]]))).toEqual({ learners: 0, modules: [{ title: "Module 1", lessons: 1, reached: 0 }] });
  });
});
