import { readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadCatalog, policySlugs } from "../../server/catalog/index.ts";
import { contentCopy, contentDir } from "./helpers.ts";

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

  it("fills the policies with the company details from site.yaml", async () => {
    const { policies, site } = await loadCatalog(contentDir);
    for (const slug of policySlugs) {
      expect(policies[slug].html).not.toMatch(/\{\{/);
    }
    expect(policies.privacy.html).toContain(site.email);
    expect(policies["cancellation-refund"].html).toContain(`${site.refund.windowDays} days`);
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
