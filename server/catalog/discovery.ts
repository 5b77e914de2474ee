import { countDistinct, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { enrolments, feedback } from "../db/schema.ts";
import type { SharedReads } from "../db/shared-reads.ts";
import type { Course, TeamMember } from "./index.ts";
import type { CourseStats } from "../../common/view-types.ts";

export type { CourseStats } from "../../common/view-types.ts";

export const noStats: CourseStats = { learners: 0, reviewCount: 0, rating: null };

/** A learner is someone whose enrolment is active: refunded or revoked ones do not count. */
const activeEnrolment = eq(enrolments.status, "active");

/** How many people have at least one course now: each counted once, however many courses they have. */
export async function learnerCount(db: Db): Promise<number> {
  const [row] = await db.select({ learners: countDistinct(enrolments.userId) }).from(enrolments).where(activeEnrolment);
  return row?.learners ?? 0;
}

/** learnerCount, kept in the process until an enrolment changes (server/db/shared-reads.ts). */
export function sharedLearnerCount(reads: SharedReads, db: Db): Promise<number> {
  return reads.read("learner count", ["enrolments"], () => learnerCount(db));
}

/** courseStats, kept in the process until an enrolment or a review changes (server/db/shared-reads.ts). */
export function sharedCourseStats(reads: SharedReads, db: Db): Promise<Map<string, CourseStats>> {
  return reads.read("course stats", ["enrolments", "feedback"], () => courseStats(db));
}

/** Learner and review counts with the average rating of every course, in two grouped queries. */
export async function courseStats(db: Db): Promise<Map<string, CourseStats>> {
  const [learnerRows, ratingRows] = await Promise.all([
    db
      .select({ courseId: enrolments.courseId, learners: sql<number>`count(*)::int` })
      .from(enrolments)
      .where(activeEnrolment)
      .groupBy(enrolments.courseId),
    db
      .select({ courseId: feedback.courseId, count: sql<number>`count(*)::int`, average: sql<number>`avg(${feedback.rating})::float8` })
      .from(feedback)
      .where(isNull(feedback.hiddenAt))
      .groupBy(feedback.courseId),
  ]);
  const stats = new Map<string, CourseStats>();
  const of = (courseId: string) => stats.get(courseId) ?? { ...noStats };
  for (const row of learnerRows) stats.set(row.courseId, { ...of(row.courseId), learners: row.learners });
  for (const row of ratingRows) {
    stats.set(row.courseId, { ...of(row.courseId), reviewCount: row.count, rating: Math.round(row.average * 10) / 10 });
  }
  return stats;
}

export const courseSorts = ["popular", "rating", "price-low", "price-high", "newest"] as const;
export type CourseSort = (typeof courseSorts)[number];

export interface CourseQuery {
  /** Words that must all appear in the title, summary, instructor's name or topics. */
  q: string;
  sort: CourseSort;
  /** null for every category. */
  category: string | null;
}

/** The catalogue page's query from its URL; anything unknown falls back to the default. */
export function parseCourseQuery(params: URLSearchParams, categories: string[]): CourseQuery {
  const q = (params.get("q") ?? "").trim().slice(0, 100);
  const sort = params.get("sort");
  const category = params.get("category");
  return {
    q,
    sort: courseSorts.includes(sort as CourseSort) ? (sort as CourseSort) : "popular",
    category: category && categories.includes(category) ? category : null,
  };
}

/** Lower case without accents, so "resume" finds "résumé". */
const fold = (text: string) => text.normalize("NFD").replace(/\p{M}/gu, "").toLocaleLowerCase("en-IN");

function searchText(course: Course, instructor: TeamMember | undefined): string {
  return fold(
    [course.title, course.summary, course.category, instructor?.name ?? "", ...course.outcomes, ...course.modules.map((m) => m.title)].join("\n"),
  );
}

type Compare = (a: Course, b: Course) => number;

function comparator(sort: CourseSort, stats: (id: string) => CourseStats): Compare {
  switch (sort) {
    case "popular":
      return (a, b) => stats(b.id).learners - stats(a.id).learners;
    case "rating":
      // A course without reviews sorts after every reviewed one; among equals, more reviews first.
      return (a, b) => (stats(b.id).rating ?? -1) - (stats(a.id).rating ?? -1) || stats(b.id).reviewCount - stats(a.id).reviewCount;
    case "price-low":
      return (a, b) => a.price.amount - b.price.amount;
    case "price-high":
      return (a, b) => b.price.amount - a.price.amount;
    case "newest":
      return (a, b) => b.published.localeCompare(a.published);
  }
}

/** The courses matching the query's words and category, in its order; ties keep the catalogue's order. */
export function searchCourses(courses: Course[], team: TeamMember[], stats: Map<string, CourseStats>, query: CourseQuery): Course[] {
  const words = fold(query.q).split(/\s+/).filter(Boolean);
  const instructors = new Map(team.map((m) => [m.id, m]));
  const statsOf = (id: string) => stats.get(id) ?? noStats;
  const compare = comparator(query.sort, statsOf);
  return courses
    .filter((course) => query.category === null || course.category === query.category)
    .filter((course) => {
      const text = searchText(course, instructors.get(course.instructor));
      return words.every((word) => text.includes(word));
    })
    .toSorted((a, b) => compare(a, b) || a.order - b.order);
}
