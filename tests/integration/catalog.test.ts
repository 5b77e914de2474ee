import { readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { splitFrontMatter } from "../../server/catalog/front-matter.ts";
import { courseStats, learnerCount, loadCatalog, parseCourseQuery, policySlugs, searchCourses, type Course, type CourseStats } from "../../server/catalog/index.ts";
import { feedback } from "../../server/db/schema.ts";
import { contentImages, contentImagesRoute } from "../../server/http/content-images.ts";
import { contentCopy, contentDir, databaseKinds, identitySuite, testCatalog } from "./helpers.ts";

async function corrupt(relative: string, change: (source: string) => string): Promise<string> {
  const dir = await contentCopy();
  const file = path.join(dir, relative);
  await writeFile(file, change(await readFile(file, "utf8")));
  return dir;
}

describe("the demo content", () => {
  it("loads and satisfies the foundation's minimums", async () => {
    const catalog = await loadCatalog(contentDir);
    expect(catalog.courses.length).toBeGreaterThanOrEqual(6);
    expect(catalog.services.length).toBeGreaterThanOrEqual(4);
    expect(catalog.team.length).toBeGreaterThanOrEqual(4);
    expect(catalog.portfolio.length).toBeGreaterThanOrEqual(6);
    expect(catalog.help.flatMap((s) => s.questions).length).toBeGreaterThanOrEqual(10);
    expect(Object.keys(catalog.policies).toSorted()).toEqual([...policySlugs].toSorted());
  });

  it("has the front-end course with six modules starting at lesson 1-1", async () => {
    const { courses } = await loadCatalog(contentDir);
    const course = courses.find((c) => c.id === "webdevfrontendcourse");
    expect(course?.title).toBe("Front-End Web Development");
    expect(course?.modules).toHaveLength(6);
    expect(course?.modules[0]?.lessons[0]?.id).toBe("1-1");
    expect(course?.price.currency).toBe("INR");
  });

  it("offers website hosting with monthly and yearly plans", async () => {
    const { services } = await loadCatalog(contentDir);
    const intervals = new Set(services.flatMap((s) => s.plans.map((p) => p.interval)));
    expect(intervals).toContain("month");
    expect(intervals).toContain("year");
  });

  it("pairs each hosting tier's monthly and yearly plan, and refuses a tier with two plans of one interval", async () => {
    const hosting = (await loadCatalog(contentDir)).services.find((s) => s.id === "website-hosting");
    expect(hosting?.plans.map((p) => `${p.tier}/${p.interval}`)).toEqual(["Starter/month", "Starter/year", "Business/month", "Business/year"]);
    const dir = await corrupt("services/website-hosting.md", (s) => s.replace("tier: Business\n    interval: month", "tier: Starter\n    interval: month"));
    await expect(loadCatalog(dir)).rejects.toThrow(/services\/website-hosting\.md: plans: must not give one tier two plans with the same interval/);
  });

  it("fills the policies with the company details from site.yaml", async () => {
    const { policies, site } = await loadCatalog(contentDir);
    for (const slug of policySlugs) {
      expect(policies[slug].html).not.toMatch(/\{\{/);
    }
    expect(policies.privacy.html).toContain(site.email);
    expect(policies["cancellation-refund"].html).toContain(`${site.refund.windowDays} days`);
  });
});

/** Everything a course page says about a course in its own words, front matter and description. */
function courseClaims(course: Course): string {
  return [course.title, course.summary, course.descriptionHtml, ...course.outcomes, ...course.modules.flatMap((m) => [m.title, m.summary, ...m.objectives])].join("\n");
}

describe("lessons", () => {
  it("are rendered once each, on first use or all together before the server listens", async () => {
    const catalog = await loadCatalog(contentDir);
    const lessons = catalog.courses.flatMap((course) => course.modules.flatMap((m) => m.lessons.map((lesson) => [course.id, lesson.id] as const)));
    const [courseId, lessonId] = lessons[0]!;
    const first = catalog.lessonBody(courseId, lessonId);
    expect(first?.html).toContain("<h2");
    expect(catalog.prepareLessons()).toBe(lessons.length - 1);
    expect(catalog.prepareLessons()).toBe(0);
    expect(catalog.lessonBody(courseId, lessonId)).toBe(first);
    expect(catalog.lessonBody(courseId, "9-9")).toBeUndefined();
  });
});

describe("course facts come from the lessons", () => {
  it("gives every course the duration its lesson files add up to", async () => {
    const { courses } = await loadCatalog(contentDir);
    for (const course of courses) {
      const folder = path.join(contentDir, "courses", course.id, "lessons");
      const files = await readdir(folder);
      const minutes = await Promise.all(
        files.map(async (name) => (splitFrontMatter(await readFile(path.join(folder, name), "utf8")).data as { minutes: number }).minutes),
      );
      expect(course.totalMinutes, course.id).toBe(minutes.reduce((sum, m) => sum + m, 0));
      expect(course.lessonCount, course.id).toBe(files.length);
      expect(course.durationHours, course.id).toBeCloseTo(course.totalMinutes / 60, 1);
    }
    expect(courses.find((c) => c.id === "webdevfrontendcourse")?.totalMinutes).toBe(7 * 60 + 43);
  });

  it("lets no course claim video without a video lesson", async () => {
    const { courses } = await loadCatalog(contentDir);
    for (const course of courses) {
      if (course.videoLessonCount === 0) expect(courseClaims(course), course.id).not.toMatch(/video/i);
    }
  });

  it("counts the lessons that have a video", async () => {
    const dir = await corrupt("courses/react-fundamentals/lessons/1-1.md", (s) =>
      s.replace(/^minutes: /m, "video: https://www.youtube.com/watch?v=dQw4w9WgXcQ\nminutes: "),
    );
    const course = (await loadCatalog(dir)).courses.find((c) => c.id === "react-fundamentals");
    expect(course?.videoLessonCount).toBe(1);
  });

  it("refuses a hand-written duration", async () => {
    const dir = await corrupt("courses/ui-ux-design/course.md", (s) => s.replace(/^level: /m, "durationHours: 24\nlevel: "));
    await expect(loadCatalog(dir)).rejects.toThrow(/courses\/ui-ux-design\/course\.md: durationHours: is computed from the lessons' minutes/);
  });
});

describe("content images", () => {
  it("gives every course a cover, every team member a portrait and every project a picture, sized and described", async () => {
    const catalog = await loadCatalog(contentDir);
    const pictures = [...catalog.courses.map((c) => c.cover), ...catalog.team.map((m) => m.portrait), ...catalog.portfolio.map((p) => p.image)];
    expect(pictures).toHaveLength(catalog.courses.length + catalog.team.length + catalog.portfolio.length);
    expect(new Set(pictures.map((p) => p.src)).size).toBe(pictures.length);
    for (const picture of pictures) {
      expect(picture.src).toMatch(/^\/media\/[a-z0-9-]+\.[\w-]{12}\.svg$/);
      expect(catalog.images.get(picture.src)?.length).toBeGreaterThan(0);
      expect(picture.width).toBeGreaterThan(0);
      expect(picture.height).toBeGreaterThan(0);
      expect(picture.alt.length).toBeGreaterThan(10);
    }
  });

  it("refuses a drawing that could run script or load anything, naming the file", async () => {
    const scripted = await corrupt("team/arjun-iyer.svg", (s) => s.replace("</svg>", '<script>alert(1)</script></svg>'));
    await expect(loadCatalog(scripted)).rejects.toThrow(/team\/arjun-iyer\.svg: contains a <script> element/);
    const handler = await corrupt("courses/node-backend/cover.svg", (s) => s.replace("<rect ", '<rect onclick="steal()" '));
    await expect(loadCatalog(handler)).rejects.toThrow(/courses\/node-backend\/cover\.svg: contains an event handler attribute/);
    const remote = await corrupt("portfolio/rangrez-crafts-store.svg", (s) => s.replace("</svg>", '<use href="https://example.com/x.svg#a"/></svg>'));
    await expect(loadCatalog(remote)).rejects.toThrow(/rangrez-crafts-store\.svg: contains a link to anything outside the drawing/);
    const unsized = await corrupt("courses/node-backend/cover.svg", (s) => s.replace(/ width="\d+" height="\d+"/, ""));
    await expect(loadCatalog(unsized)).rejects.toThrow(/cover\.svg: needs whole-number width/);
  });

  it("reports a picture whose file is missing", async () => {
    const dir = await contentCopy();
    await rm(path.join(dir, "team/neha-kapoor.svg"));
    await expect(loadCatalog(dir)).rejects.toThrow(/team\/neha-kapoor\.md: portrait\.file: no file team\/neha-kapoor\.svg/);
  });

  it("serves a drawing for a year as an SVG that may not run script, and nothing else under /media/", async () => {
    const catalog = await loadCatalog(contentDir);
    const app = new Hono().on(["GET", "HEAD"], contentImagesRoute, contentImages(() => catalog, { "x-content-type-options": "nosniff" }));
    const src = catalog.courses[0]?.cover.src ?? "";
    const response = await app.request(src);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/svg+xml");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("content-security-policy")).toMatch(/default-src 'none'.*sandbox/);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await response.arrayBuffer())).toEqual(catalog.images.get(src));
    const again = await app.request(src, { headers: { "if-none-match": response.headers.get("etag") ?? "" } });
    expect(again.status).toBe(304);
    expect((await app.request(src.replace(/\.[\w-]{12}\.svg$/, ".000000000000.svg"))).status).toBe(404);
    expect((await app.request("/media/../content/site.yaml")).status).toBe(404);
  });
});

describe("bad content stops start-up with the file and field at fault", () => {
  it("reports a front-matter field of the wrong type", async () => {
    const dir = await corrupt("courses/react-fundamentals/course.md", (s) => s.replace(/^level: .*$/m, "level: expert"));
    await expect(loadCatalog(dir)).rejects.toThrow(/courses\/react-fundamentals\/course\.md: level: /);
  });

  it("reports a missing required field", async () => {
    const dir = await corrupt("services/website-hosting.md", (s) => s.replace(/^summary: .*$/m, ""));
    await expect(loadCatalog(dir)).rejects.toThrow(/services\/website-hosting\.md: summary: /);
  });

  it("reports a gap in the lesson files with the file's path", async () => {
    const dir = await contentCopy();
    const lessons = path.join(dir, "courses/webdevfrontendcourse/lessons");
    await rename(path.join(lessons, "1-2.md"), path.join(lessons, "1-7.md"));
    await expect(loadCatalog(dir)).rejects.toThrow(/courses\/webdevfrontendcourse\/lessons\/1-3\.md: expected lesson 1-2 before it/);
  });

  it("reports a lesson file that is badly named or has a bad video address", async () => {
    const named = await contentCopy();
    await writeFile(path.join(named, "courses/webdevfrontendcourse/lessons/intro.md"), "---\ntitle: Intro\nminutes: 5\n---\nHello\n");
    await expect(loadCatalog(named)).rejects.toThrow(/lessons\/intro\.md: lesson files are named <module>-<lesson>\.md/);
    const video = await corrupt("courses/webdevfrontendcourse/lessons/1-1.md", (s) => s.replace(/^minutes: /m, "video: https://example.com/clip.mp4\nminutes: "));
    await expect(loadCatalog(video)).rejects.toThrow(/lessons\/1-1\.md: video: must be a YouTube or Vimeo address/);
  });

  it("keeps lesson bodies out of the course, highlighted and ready to serve", async () => {
    const catalog = await loadCatalog(contentDir);
    const course = catalog.courses.find((c) => c.id === "webdevfrontendcourse");
    expect(JSON.stringify(course)).not.toContain("Try it yourself");
    expect(catalog.lessonBody("webdevfrontendcourse", "1-1")?.html).toContain("Try it yourself");
    expect(course?.modules.every((m) => m.objectives.length > 0)).toBe(true);
    expect(course?.modules[0]?.lessons[0]).toMatchObject({ id: "1-1", preview: true });
  });

  it("reports a file without front-matter", async () => {
    const dir = await corrupt("team/ananya-rao.md", (s) => s.replace(/^---/, "--"));
    await expect(loadCatalog(dir)).rejects.toThrow(/team\/ananya-rao\.md: missing front-matter/);
  });

  it("reports unparseable YAML", async () => {
    const dir = await corrupt("portfolio/rangrez-crafts-store.md", (s) => s.replace(/^title: /m, "title: [unclosed "));
    await expect(loadCatalog(dir)).rejects.toThrow(/portfolio\/rangrez-crafts-store\.md: /);
  });

  it("reports an instructor who is not on the team", async () => {
    const dir = await corrupt("courses/node-backend/course.md", (s) => s.replace(/^instructor: .*$/m, "instructor: nobody"));
    await expect(loadCatalog(dir)).rejects.toThrow(/courses\/node-backend\/course\.md: instructor: no team member "nobody"/);
  });

  it("reports an unknown placeholder in a policy", async () => {
    const dir = await corrupt("policies/terms.md", (s) => `${s}\n\nWrite to {{ceo}}.\n`);
    await expect(loadCatalog(dir)).rejects.toThrow(/policies\/terms\.md: unknown placeholder \{\{ceo\}\}/);
  });

  it("reports a missing policy", async () => {
    const dir = await contentCopy();
    await rm(path.join(dir, "policies/cookies.md"));
    await expect(loadCatalog(dir)).rejects.toThrow(/policies\/cookies\.md: file is missing/);
  });

  it("reports a bad site configuration", async () => {
    const dir = await corrupt("site.yaml", (s) => s.replace(/^email: .*$/m, "email: not-an-address"));
    await expect(loadCatalog(dir)).rejects.toThrow(/site\.yaml: email: /);
  });
});

describe.each(databaseKinds)("catalogue search and sort on $name", ({ open }) => {
  const suite = identitySuite(open, testCatalog([]));
  const catalogP = loadCatalog(contentDir);
  const find = async (params: Record<string, string>, stats?: Map<string, CourseStats>) => {
    const { courses, team } = await catalogP;
    const query = parseCourseQuery(new URLSearchParams(params), [...new Set(courses.map((c) => c.category))]);
    return searchCourses(courses, team, stats ?? (await courseStats(suite.db)), query).map((c) => c.id);
  };

  it("counts active learners and averages reviews per course, from the tables", async () => {
    expect(await learnerCount(suite.db)).toBe(0);
    const people = await Promise.all(["Asha", "Bala", "Chitra", "Dev"].map((name) => suite.signUp(name)));
    const [a, b, c, d] = people.map((p) => p.id) as [string, string, string, string];
    for (const userId of [a, b, c]) await suite.enrol(userId, "node-backend");
    await suite.enrol(d, "node-backend", "revoked");
    await suite.enrol(a, "ui-ux-design");
    const review = (userId: string, courseId: string, rating: number) =>
      suite.db.insert(feedback).values({ userId, courseId, rating, comment: "Clear and practical, with good exercises." });
    await review(a, "node-backend", 5);
    await review(b, "node-backend", 4);
    await review(c, "node-backend", 4);
    await review(a, "ui-ux-design", 5);

    const stats = await courseStats(suite.db);
    expect(stats.get("node-backend")).toEqual({ learners: 3, reviewCount: 3, rating: 4.3 });
    expect(stats.get("ui-ux-design")).toEqual({ learners: 1, reviewCount: 1, rating: 5 });
    expect(stats.get("react-fundamentals")).toBeUndefined();
    // Asha, Bala and Chitra, once each: Asha's second course does not make her two learners, Dev's revoked enrolment is none.
    expect(await learnerCount(suite.db)).toBe(3);
  });

  it("sorts by learners, by rating with unreviewed courses last, by price and by date", async () => {
    expect((await find({})).slice(0, 2)).toEqual(["node-backend", "ui-ux-design"]);
    const byRating = await find({ sort: "rating" });
    expect(byRating.slice(0, 2)).toEqual(["ui-ux-design", "node-backend"]);
    expect(byRating).toHaveLength(6);
    const { courses } = await catalogP;
    const prices = (await find({ sort: "price-low" })).map((id) => courses.find((c) => c.id === id)?.price.amount ?? -1);
    expect(prices).toEqual(prices.toSorted((x, y) => x - y));
    expect((await find({ sort: "price-high" }))[0]).toBe("cloud-devops-essentials");
    expect(await find({ sort: "newest" })).toEqual([
      "ui-ux-design",
      "cloud-devops-essentials",
      "python-data-analysis",
      "node-backend",
      "react-fundamentals",
      "webdevfrontendcourse",
    ]);
  });

  it("finds courses by every word of a title, summary, instructor or topic, in any case", async () => {
    const none = new Map<string, CourseStats>();
    expect(await find({ q: "ANANYA" }, none)).toEqual(["webdevfrontendcourse", "react-fundamentals"]);
    expect(await find({ q: "terraform" }, none)).toEqual(["cloud-devops-essentials"]);
    expect(await find({ q: "react production" }, none)).toEqual(["react-fundamentals"]);
    expect(await find({ q: "react kubernetes" }, none)).toEqual([]);
    expect(await find({ q: "ananya", category: "Design" }, none)).toEqual([]);
    expect(await find({ category: "Design" }, none)).toEqual(["ui-ux-design"]);
  });

  it("falls back to the defaults for an unknown sort or category", async () => {
    const categories = ["Design"];
    expect(parseCourseQuery(new URLSearchParams({ sort: "cheapest", category: "Cooking", q: "  css  " }), categories)).toEqual({
      q: "css",
      sort: "popular",
      category: null,
    });
  });
});
