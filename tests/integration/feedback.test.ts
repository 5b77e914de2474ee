import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { enrolments, feedback, users } from "../../server/db/schema.ts";
import {
  courseRating,
  deleteReview,
  listReviews,
  reviewerName,
  reviewerStanding,
  saveReview,
  topReviews,
} from "../../server/feedback/index.ts";
import { courseStats } from "../../server/catalog/discovery.ts";
import { listAudit, listStaffReviews, moderateReview, type Actor } from "../../server/staff/index.ts";
import { databaseKinds, identitySuite, testCatalog, testCourse } from "./helpers.ts";

const catalog = testCatalog([testCourse("demo", "Course demo", []), testCourse("other", "Course other", []), testCourse("quiet", "Course quiet", [])]);

const good = "A clear, practical course: I built a working site by the end of the second week.";

describe.each(databaseKinds)("course feedback on $name", ({ open }) => {
  const suite = identitySuite(open, catalog);

  async function learner(name: string, enrolled: Record<string, "active" | "revoked"> = {}): Promise<string> {
    const { id } = await suite.signUp(name);
    for (const [courseId, status] of Object.entries(enrolled)) await suite.enrol(id, courseId, status);
    return id;
  }

  const save = (userId: string, courseId: string, rating: unknown, comment: unknown) =>
    saveReview(suite.db, catalog, userId, courseId, { rating, comment });
  const rowsOf = (courseId: string) => suite.db.select().from(feedback).where(eq(feedback.courseId, courseId));
  const page = (courseId: string, options: { rating?: number; page?: number; perPage?: number } = {}) =>
    listReviews(suite.db, suite.identity.cipher, { courseId, ...options });

  it("lets only learners with an active enrolment write, on the server", async () => {
    const stranger = await learner("Sam Stranger");
    const refunded = await learner("Rita Refunded", { demo: "revoked" });
    const elsewhere = await learner("Omar Other", { other: "active" });
    for (const userId of [stranger, refunded, elsewhere]) {
      await expect(save(userId, "demo", 5, good)).rejects.toMatchObject({ name: "Forbidden", status: 403 });
    }
    await expect(save(stranger, "demo", 0, "")).rejects.toMatchObject({ name: "Forbidden" });
    await expect(save(stranger, "no-such-course", 5, good)).rejects.toMatchObject({ status: 404 });
    expect(await rowsOf("demo")).toEqual([]);

    const enrolled = await learner("Esha Enrolled", { demo: "active" });
    expect(await save(enrolled, "demo", 4, good)).toBe("created");
    expect(await rowsOf("demo")).toHaveLength(1);
    await suite.db.delete(feedback).where(eq(feedback.courseId, "demo"));
  });

  it("keeps one review per learner and course: a second submit updates it, a resubmit changes nothing", async () => {
    const userId = await learner("Lata Sharma", { demo: "active", other: "active" });
    expect(await save(userId, "demo", "3", `  ${good}  `)).toBe("created");
    expect(await save(userId, "demo", "5", "Better on a second look.\nThe projects are the best part.")).toBe("updated");
    const [row] = await rowsOf("demo");
    expect(await save(userId, "demo", 5, "Better on a second look.\nThe projects are the best part.")).toBe("unchanged");
    const rows = await rowsOf("demo");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ userId, rating: 5, comment: "Better on a second look.\nThe projects are the best part." });
    expect(rows[0]?.updatedAt).toEqual(row?.updatedAt);
    expect(await save(userId, "other", 2, good)).toBe("created");
    expect(await reviewerStanding(suite.db, userId, "demo")).toMatchObject({ enrolment: "active", review: { rating: 5 } });
    await suite.db.delete(feedback).where(eq(feedback.userId, userId));
  });

  it("refuses bad ratings and comments with specific messages and writes nothing", async () => {
    const userId = await learner("Vik Validator", { demo: "active" });
    await save(userId, "demo", 4, good);
    const before = await rowsOf("demo");
    const cases: [unknown, unknown, RegExp][] = [
      [0, good, /whole number of stars from 1 to 5/],
      [6, good, /whole number of stars from 1 to 5/],
      ["3.5", good, /whole number of stars from 1 to 5/],
      ["", good, /whole number of stars from 1 to 5/],
      [5, "   \n  ", /cannot be empty/],
      [5, undefined, /cannot be empty/],
      [5, "x".repeat(2001), /2,000 characters or fewer; it has 2,001/],
      [5, "ok", /a review needs at least 3 words/],
      [5, "Very good", /a review needs at least 3 words/],
      [5, "!!! ??? ... good", /a review needs at least 3 words/],
    ];
    for (const [rating, comment, message] of cases) {
      await expect(save(userId, "demo", rating, comment)).rejects.toMatchObject({ name: "ValidationError", status: 400, message: expect.stringMatching(message) });
    }
    expect(await rowsOf("demo")).toEqual(before);
    await expect(save(userId, "demo", "9", "")).rejects.toMatchObject({
      errors: { rating: "Choose a rating: a whole number of stars from 1 to 5.", comment: "Write a few words about the course: the comment cannot be empty." },
    });
    expect(await save(userId, "demo", "2", `${"word ".repeat(399)}words  `)).toBe("updated");
    expect((await rowsOf("demo"))[0]?.comment).toHaveLength(2000);
    await suite.db.delete(feedback).where(eq(feedback.userId, userId));
  });

  it("sums up a course: count, one-decimal average and a per-star histogram; deleting takes a review out", async () => {
    expect(await courseRating(suite.db, "quiet")).toEqual({
      count: 0,
      average: 0,
      histogram: [5, 4, 3, 2, 1].map((stars) => ({ stars, count: 0 })),
    });
    const ratings = [5, 5, 4, 2];
    const ids = [];
    for (const rating of ratings) {
      const userId = await learner(`Learner ${rating}`, { demo: "active" });
      await save(userId, "demo", rating, good);
      ids.push(userId);
    }
    expect(await courseRating(suite.db, "demo")).toEqual({
      count: 4,
      average: 4,
      histogram: [
        { stars: 5, count: 2 },
        { stars: 4, count: 1 },
        { stars: 3, count: 0 },
        { stars: 2, count: 1 },
        { stars: 1, count: 0 },
      ],
    });
    expect(await deleteReview(suite.db, ids[3] as string, "demo")).toBe(true);
    expect(await deleteReview(suite.db, ids[3] as string, "demo")).toBe(false);
    const after = await courseRating(suite.db, "demo");
    expect(after).toMatchObject({ count: 3, average: 4.7 });
    expect(after.histogram.find((h) => h.stars === 2)?.count).toBe(0);
    await suite.db.delete(feedback).where(eq(feedback.courseId, "demo"));
  });

  it("lists reviews newest first, ten to a page, filtered by stars, with each reviewer's short name", async () => {
    const start = Date.parse("2026-01-01T00:00:00Z");
    for (let i = 0; i < 23; i++) {
      const userId = await learner(i === 0 ? "Priya   van der Berg" : `Reviewer ${String(i).padStart(2, "0")}`, { demo: "active" });
      await save(userId, "demo", (i % 5) + 1, `Review number ${i}`);
      await suite.db
        .update(feedback)
        .set({ createdAt: new Date(start + i * 60_000), updatedAt: new Date(start + i * 60_000) })
        .where(eq(feedback.userId, userId));
    }
    const first = await page("demo");
    expect(first.map((r) => r.comment)).toEqual(Array.from({ length: 10 }, (_, k) => `Review number ${22 - k}`));
    expect(first[0]).toMatchObject({ reviewer: "Reviewer 2.", rating: 3, verified: true, edited: false });
    expect((await page("demo", { page: 2 })).map((r) => r.comment)[0]).toBe("Review number 12");
    const last = await page("demo", { page: 3 });
    expect(last.map((r) => r.comment)).toEqual(["Review number 2", "Review number 1", "Review number 0"]);
    expect(last[2]?.reviewer).toBe("Priya B.");
    expect(await page("demo", { page: 4 })).toEqual([]);

    const fives = await page("demo", { rating: 5 });
    expect(fives.map((r) => r.comment)).toEqual(["Review number 19", "Review number 14", "Review number 9", "Review number 4"]);
    expect(fives.every((r) => r.rating === 5)).toBe(true);
    expect(await page("demo", { rating: 5, page: 2 })).toEqual([]);
    await suite.db.delete(feedback).where(eq(feedback.courseId, "demo"));
  });

  it("names reviewers from their encrypted user document, falling back to the account name", async () => {
    const userId = await learner("Kiran Rao", { demo: "active" });
    await save(userId, "demo", 5, good);
    const [stored] = await suite.db.select({ name: users.name }).from(users).where(eq(users.uid, userId));
    expect(stored?.name).toMatch(/^v1:/);
    expect((await page("demo"))[0]?.reviewer).toBe("Kiran R.");
    await suite.db.update(users).set({ name: "" }).where(eq(users.uid, userId));
    expect((await page("demo"))[0]?.reviewer).toBe("Kiran R.");
    expect(reviewerName("  ")).toBe("Academy learner");
    expect(reviewerName("Madhu")).toBe("Madhu");
    expect(reviewerName("anil kumar")).toBe("anil K.");
    await suite.db.delete(feedback).where(eq(feedback.courseId, "demo"));
  });

  it("shows the verified-learner badge only while the reviewer's enrolment is active", async () => {
    const userId = await learner("Neha Verma", { demo: "active" });
    await save(userId, "demo", 4, good);
    expect((await page("demo"))[0]?.verified).toBe(true);
    await suite.db.update(enrolments).set({ status: "revoked" }).where(and(eq(enrolments.userId, userId), eq(enrolments.courseId, "demo")));
    expect((await page("demo"))[0]?.verified).toBe(false);
    expect(await reviewerStanding(suite.db, userId, "demo")).toMatchObject({ enrolment: "revoked", review: { rating: 4 } });
    await expect(save(userId, "demo", 5, good)).rejects.toMatchObject({ status: 403 });
    expect((await rowsOf("demo"))[0]?.rating).toBe(4);
    await suite.db.update(enrolments).set({ status: "active" }).where(eq(enrolments.userId, userId));
    expect((await page("demo"))[0]?.verified).toBe(true);
    await suite.db.delete(feedback).where(eq(feedback.courseId, "demo"));
  });

  it("never lets one learner's edit or delete touch another learner's review", async () => {
    const a = await learner("Asha A", { demo: "active" });
    const b = await learner("Bala B", { demo: "active" });
    await save(a, "demo", 5, "Asha's own words about the course, kept exactly as written.");
    const [original] = await rowsOf("demo");
    expect(await deleteReview(suite.db, b, "demo")).toBe(false);
    expect(await save(b, "demo", 1, "Bala's review, which must land on Bala's row only.")).toBe("created");
    expect(await save(b, "demo", 2, "Bala changes his mind.")).toBe("updated");
    expect(await deleteReview(suite.db, b, "demo")).toBe(true);
    const rows = await rowsOf("demo");
    expect(rows).toEqual([original]);
    expect(await courseRating(suite.db, "demo")).toMatchObject({ count: 1, average: 5 });
    await suite.db.delete(feedback).where(eq(feedback.courseId, "demo"));
  });

  it("features the best substantial reviews of listed courses: most stars, then newest", async () => {
    expect(await topReviews(suite.db, suite.identity.cipher, catalog)).toEqual([]);
    const reviewer = async (courseId: string, rating: number, comment: string, minutesAgo: number) => {
      const userId = await learner(`Top ${rating}`, { [courseId]: "active" });
      await save(userId, courseId, rating, comment);
      await suite.db
        .update(feedback)
        .set({ createdAt: sql`now() - make_interval(mins => ${minutesAgo})` })
        .where(eq(feedback.userId, userId));
    };
    await reviewer("demo", 5, `Older five: ${good}`, 30);
    await reviewer("other", 5, `Newer five: ${good}`, 10);
    await reviewer("demo", 5, "Great, loved it!", 1);
    await reviewer("other", 4, `A four: ${good}`, 2);
    await reviewer("demo", 3, `A three: ${good}`, 1);
    const top = await topReviews(suite.db, suite.identity.cipher, catalog);
    expect(top.map((r) => [r.courseId, r.comment.split(":")[0]])).toEqual([
      ["other", "Newer five"],
      ["demo", "Older five"],
      ["other", "A four"],
    ]);
    const onlyQuiet = { courses: catalog.courses.filter((c) => c.id === "quiet") };
    expect(await topReviews(suite.db, suite.identity.cipher, onlyQuiet)).toEqual([]);
  });
  it("hides a review from the page, the rating and the catalogue for staff, tells its author why, shows it again, and answers it in public, each audited once", async () => {
    const author = await learner("Vikram Abusive", { quiet: "active" });
    const other = await learner("Nisha Kind", { quiet: "active" });
    await save(author, "quiet", 1, "This is a rude and abusive comment that names the instructor in vile terms.");
    await save(other, "quiet", 5, good);
    const [row] = await suite.db.select().from(feedback).where(and(eq(feedback.userId, author), eq(feedback.courseId, "quiet")));
    const id = row?.id ?? "";
    const support: Actor = { id: null, name: "Ravi Support <ravi@example.com>", roles: ["support"], address: "203.0.113.7" };
    const reason = "Abusive language about a person; see our review guidelines.";

    await expect(moderateReview(suite.db, support, id, { action: "hide", reason: "rude" })).rejects.toThrow("The reason, which its author reads, must be 10 to 500 characters long.");
    expect(await moderateReview(suite.db, support, id, { action: "hide", reason })).toBe("Hidden. It leaves the course's page and rating within a minute, and its author sees why.");
    expect(await moderateReview(suite.db, support, id, { action: "hide", reason })).toBe("This review is hidden already.");
    expect((await page("quiet")).map((r) => r.rating)).toEqual([5]);
    expect(await courseRating(suite.db, "quiet")).toMatchObject({ count: 1, average: 5 });
    expect((await courseStats(suite.db)).get("quiet")).toMatchObject({ reviewCount: 1, rating: 5 });
    expect((await topReviews(suite.db, suite.identity.cipher, catalog, 10)).map((r) => r.comment)).not.toContain(row?.comment);
    expect((await reviewerStanding(suite.db, author, "quiet")).review).toMatchObject({ rating: 1, hidden: { reason, at: expect.any(String) } });
    // Editing it does not bring it back.
    await save(author, "quiet", 2, "Edited, but still hidden until the team decides otherwise.");
    expect((await page("quiet")).map((r) => r.rating)).toEqual([5]);
    expect((await listStaffReviews(suite.db, { state: "hidden", courseId: "quiet" })).reviews.map((r) => [r.author.id, r.hidden?.reason])).toEqual([[author, reason]]);

    expect(await moderateReview(suite.db, support, id, { action: "restore", reason: "The author apologised and edited it." })).toBe("Shown again on the course's page, within a minute.");
    expect((await page("quiet")).map((r) => r.rating).toSorted()).toEqual([2, 5]);
    expect((await reviewerStanding(suite.db, author, "quiet")).review?.hidden).toBeNull();

    expect(await moderateReview(suite.db, support, id, { action: "reply", text: "  Thank you for editing it; we have passed your points to the instructor.  " })).toBe(
      "Replied. The reply shows under the review on the course's page.",
    );
    expect((await page("quiet")).find((r) => r.rating === 2)?.reply).toEqual({ text: "Thank you for editing it; we have passed your points to the instructor.", at: expect.any(String) });
    expect(await moderateReview(suite.db, support, id, { action: "reply", text: "" })).toBe("The reply is removed.");
    expect((await page("quiet")).find((r) => r.rating === 2)?.reply).toBeNull();
    await expect(moderateReview(suite.db, support, "00000000-0000-4000-8000-000000000000", { action: "reply", text: "Hello" })).rejects.toThrow("No review has this id");

    const { entries } = await listAudit(suite.db, { subjectId: id });
    expect(entries.map((e) => [e.action, e.reason])).toEqual([
      ["review.reply", null],
      ["review.reply", null],
      ["review.restore", "The author apologised and edited it."],
      ["review.hide", reason],
    ]);
  });
});
