import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import type { z } from "zod";
import { splitFrontMatter } from "./front-matter.ts";
import { createLessonRenderer, fenceLanguages, renderMarkdown, slugify, UnknownLanguage, videoEmbedUrl, type RenderedLesson } from "./markdown.ts";
import { checkSvg } from "./svg.ts";
import type { CourseModule, Picture } from "../../common/view-types.ts";
import {
  courseFrontMatter,
  helpFrontMatter,
  lessonFileName,
  lessonFrontMatter,
  policyFrontMatter,
  portfolioFrontMatter,
  serviceFrontMatter,
  siteSchema,
  teamFrontMatter,
  type Site,
} from "./schema.ts";

export type { Money, Site } from "./schema.ts";
export type { CourseModule, Lesson, Picture } from "../../common/view-types.ts";
export { courseOffSale, coursesOnSale, courseWithdrawal, setCourseOnSale, sharedCoursesOnSale, type OnSale } from "./publication.ts";
export {
  courseSorts,
  courseStats,
  learnerCount,
  noStats,
  parseCourseQuery,
  searchCourses,
  sharedCourseStats,
  sharedLearnerCount,
  type CourseQuery,
  type CourseSort,
  type CourseStats,
} from "./discovery.ts";

export const contentImagePath = "/media/";

export type Course = Omit<z.infer<typeof courseFrontMatter>, "modules" | "durationHours" | "cover"> & {
  id: string;
  cover: Picture;
  descriptionHtml: string;
  modules: CourseModule[];
  lessonCount: number;
  /** The sum of the lessons' minutes. */
  totalMinutes: number;
  /** totalMinutes in hours, to one decimal, for sentences like "about 7.7 hours of learning". */
  durationHours: number;
  /** Lessons with a video; the rest are written lessons. */
  videoLessonCount: number;
};
export type Service = z.infer<typeof serviceFrontMatter> & { id: string; descriptionHtml: string };
export type TeamMember = Omit<z.infer<typeof teamFrontMatter>, "portrait"> & { id: string; bioHtml: string; portrait: Picture };
export type Project = Omit<z.infer<typeof portfolioFrontMatter>, "image"> & { id: string; bodyHtml: string; image: Picture };
export type Policy = z.infer<typeof policyFrontMatter> & { slug: PolicySlug; html: string };
export interface HelpQuestion {
  id: string;
  question: string;
  answerHtml: string;
}
export type HelpSection = z.infer<typeof helpFrontMatter> & { id: string; questions: HelpQuestion[] };

export const policySlugs = ["privacy", "terms", "shipping", "cancellation-refund", "cookies"] as const;
export type PolicySlug = (typeof policySlugs)[number];

export interface Catalog {
  site: Site;
  courses: Course[];
  /**
   * A lesson's body, rendered on first use and kept. Kept apart from the course so pages never ship
   * lesson text by accident.
   */
  lessonBody(courseId: string, lessonId: string): RenderedLesson | undefined;
  /**
   * Renders every lesson not rendered yet; how many it rendered. Seconds of work (highlighting,
   * each language's grammar compiled on first use), which the server does before it listens so that
   * no learner waits for a lesson's first render (up to 340 ms), and tests and tools never do.
   */
  prepareLessons(): number;
  services: Service[];
  team: TeamMember[];
  portfolio: Project[];
  policies: Record<PolicySlug, Policy>;
  help: HelpSection[];
  /** The drawings' bytes by their Picture.src. */
  images: Map<string, Buffer<ArrayBuffer>>;
}

/** A content file that cannot be used; the message names the file and the field at fault. */
export class ContentError extends Error {
  override name = "ContentError";
}

function validate<T>(schema: z.ZodType<T>, data: unknown, file: string): T {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const field = issue.path.length > 0 ? issue.path.join(".") : "(front-matter)";
    return `${file}: ${field}: ${issue.message}`;
  });
  throw new ContentError(`Invalid content:\n  ${problems.join("\n  ")}`);
}

interface SourceFile {
  id: string;
  file: string;
  body: string;
  data: unknown;
}

async function readMarkdownDir(root: string, dir: string): Promise<SourceFile[]> {
  const folder = path.join(root, dir);
  const names = (await readdir(folder)).filter((n) => n.endsWith(".md")).toSorted();
  return Promise.all(names.map((name) => readMarkdown(root, path.join(dir, name), name.slice(0, -3))));
}

async function readMarkdown(root: string, relative: string, id: string): Promise<SourceFile> {
  const source = await readFile(path.join(root, relative), "utf8");
  try {
    return { id, file: relative, ...splitFrontMatter(source) };
  } catch (error) {
    throw new ContentError(`Invalid content:\n  ${relative}: ${(error as Error).message}`);
  }
}

/** A course's lesson files in module, then lesson order; a name that is not "<m>-<l>.md" is an error. */
async function readLessonFiles(root: string, courseId: string): Promise<SourceFile[]> {
  const dir = path.join("courses", courseId, "lessons");
  const names = await readdir(path.join(root, dir)).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new ContentError(`Invalid content:\n  ${dir}: folder is missing`);
    throw error;
  });
  const numbered = names.map((name) => {
    const match = lessonFileName.exec(name);
    if (!match) throw new ContentError(`Invalid content:\n  ${dir}/${name}: lesson files are named <module>-<lesson>.md, like 1-1.md`);
    return { name, module: Number(match[1]), lesson: Number(match[2]) };
  });
  numbered.sort((a, b) => a.module - b.module || a.lesson - b.lesson);
  return Promise.all(numbered.map((n) => readMarkdown(root, path.join(dir, n.name), n.name.slice(0, -3))));
}

/** One highlighter for every lesson, loaded with the languages the lessons use. */
async function lessonRenderer(files: SourceFile[]): Promise<(file: SourceFile) => RenderedLesson> {
  try {
    const render = await createLessonRenderer(fenceLanguages(files.map((f) => f.body)));
    return (file) => render(file.body);
  } catch (error) {
    if (!(error instanceof UnknownLanguage)) throw error;
    const file = files.find((f) => fenceLanguages([f.body]).has(error.message));
    throw new ContentError(`Invalid content:\n  ${file?.file ?? "courses"}: code block language "${error.message}" is not one we can highlight`);
  }
}

/**
 * Reads and checks the drawing a front-matter field names, beside `markdownFile`, and registers it
 * under an address carrying a hash of its bytes, so it can be cached for a year.
 */
async function loadPicture(
  root: string,
  markdownFile: string,
  field: string,
  given: { file: string; alt: string },
  name: string,
  images: Map<string, Buffer<ArrayBuffer>>,
): Promise<Picture> {
  const relative = path.join(path.dirname(markdownFile), given.file);
  const body = await readFile(path.join(root, relative)).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new ContentError(`Invalid content:\n  ${markdownFile}: ${field}.file: no file ${relative}`);
    throw error;
  });
  let size;
  try {
    size = checkSvg(body.toString("utf8"));
  } catch (error) {
    throw new ContentError(`Invalid content:\n  ${relative}: ${(error as Error).message}`);
  }
  const src = `${contentImagePath}${name}.${createHash("sha256").update(body).digest("base64url").slice(0, 12)}.svg`;
  images.set(src, body);
  return { src, alt: given.alt, ...size };
}

function byOrder<T extends { order: number }>(a: T, b: T): number {
  return a.order - b.order;
}

function oneLineAddress(site: Site): string {
  const a = site.address;
  return [a.line1, a.line2, a.city, `${a.state} ${a.postalCode}`, a.country].filter(Boolean).join(", ");
}

const placeholders = (site: Site): Record<string, string> => ({
  name: site.name,
  legalName: site.legalName,
  email: site.email,
  phone: site.phone,
  address: oneLineAddress(site),
  gstin: site.gstin,
  "refund.windowDays": String(site.refund.windowDays),
  "refund.maxProgressPercent": String(site.refund.maxProgressPercent),
});

function fillPlaceholders(body: string, values: Record<string, string>, file: string): string {
  return body.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_, key: string) => {
    const value = values[key];
    if (value === undefined) throw new ContentError(`Invalid content:\n  ${file}: unknown placeholder {{${key}}}`);
    return value;
  });
}

/** Splits a help section body into questions: every "## Question" heading starts one. */
function helpQuestions(body: string, file: string): HelpQuestion[] {
  const parts = body.split(/^## +/m).slice(1);
  if (parts.length === 0) throw new ContentError(`Invalid content:\n  ${file}: body: has no "## Question" headings`);
  return parts.map((part) => {
    const newline = part.indexOf("\n");
    const question = (newline === -1 ? part : part.slice(0, newline)).trim();
    const answer = newline === -1 ? "" : part.slice(newline + 1).trim();
    if (!answer) throw new ContentError(`Invalid content:\n  ${file}: "${question}": has no answer`);
    return { id: slugify(question), question, answerHtml: renderMarkdown(answer) };
  });
}

function assertUnique(items: { id: string }[], kind: string): void {
  const seen = new Set<string>();
  for (const item of items) {
    if (seen.has(item.id)) throw new ContentError(`Invalid content:\n  ${kind}: duplicate id "${item.id}"`);
    seen.add(item.id);
  }
}

/** Loads and validates everything in content/; throws ContentError naming the file and field at fault. */
export async function loadCatalog(root: string): Promise<Catalog> {
  const siteFile = "site.yaml";
  const site = validate(siteSchema, parseYaml(await readFile(path.join(root, siteFile), "utf8")), siteFile);
  const values = placeholders(site);

  const courseDirs = (await readdir(path.join(root, "courses"), { withFileTypes: true }))
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .toSorted();
  const sources = await Promise.all(
    courseDirs.map(async (id) => ({
      id,
      course: await readMarkdown(root, path.join("courses", id, "course.md"), id),
      lessons: await readLessonFiles(root, id),
    })),
  );
  // Let go once every lesson is rendered: the highlighter's grammars and themes are some 45 MB of
  // heap that each major garbage collection would otherwise mark for the life of the process.
  let renderLesson: ((file: SourceFile) => RenderedLesson) | undefined = await lessonRenderer(sources.flatMap((s) => s.lessons));
  const lessonFiles = new Map<string, SourceFile>();
  const lessonBodies = new Map<string, RenderedLesson>();
  const images = new Map<string, Buffer<ArrayBuffer>>();
  const courses = await Promise.all(sources.map(async ({ id, course: src, lessons: files }): Promise<Course> => {
    const data = validate(courseFrontMatter, src.data, src.file);
    const modules = data.modules.map((mod): CourseModule => ({ ...mod, lessons: [] }));
    for (const file of files) {
      const meta = validate(lessonFrontMatter, file.data, file.file);
      const [moduleNumber, lessonNumber] = file.id.split("-").map(Number) as [number, number];
      const mod = modules[moduleNumber - 1];
      if (!mod) throw new ContentError(`Invalid content:\n  ${file.file}: the course has no module ${moduleNumber}`);
      if (lessonNumber !== mod.lessons.length + 1) {
        throw new ContentError(`Invalid content:\n  ${file.file}: expected lesson ${moduleNumber}-${mod.lessons.length + 1} before it`);
      }
      const embed = meta.video ? videoEmbedUrl(meta.video) : null;
      if (meta.video && !embed) throw new ContentError(`Invalid content:\n  ${file.file}: video: must be a YouTube or Vimeo address`);
      mod.lessons.push({ id: file.id, title: meta.title, minutes: meta.minutes, preview: meta.preview, videoEmbedUrl: embed });
      lessonFiles.set(`${id}/${file.id}`, file);
    }
    const empty = modules.findIndex((mod) => mod.lessons.length === 0);
    if (empty !== -1) throw new ContentError(`Invalid content:\n  courses/${id}/lessons: module ${empty + 1} has no lessons (add lessons/${empty + 1}-1.md)`);
    const lessons = modules.flatMap((m) => m.lessons);
    const totalMinutes = lessons.reduce((sum, l) => sum + l.minutes, 0);
    return {
      ...data,
      id,
      cover: await loadPicture(root, src.file, "cover", data.cover, `course-${id}`, images),
      modules,
      descriptionHtml: renderMarkdown(src.body),
      lessonCount: lessons.length,
      totalMinutes,
      durationHours: Math.round(totalMinutes / 6) / 10,
      videoLessonCount: lessons.filter((l) => l.videoEmbedUrl !== null).length,
    };
  }));

  const services = (await readMarkdownDir(root, "services")).map(
    (src): Service => ({
      ...validate(serviceFrontMatter, src.data, src.file),
      id: src.id,
      descriptionHtml: renderMarkdown(src.body),
    }),
  );
  const team = await Promise.all(
    (await readMarkdownDir(root, "team")).map(async (src): Promise<TeamMember> => {
      const data = validate(teamFrontMatter, src.data, src.file);
      return {
        ...data,
        id: src.id,
        portrait: await loadPicture(root, src.file, "portrait", data.portrait, `team-${src.id}`, images),
        bioHtml: renderMarkdown(src.body, { idPrefix: src.id }),
      };
    }),
  );
  const portfolio = await Promise.all(
    (await readMarkdownDir(root, "portfolio")).map(async (src): Promise<Project> => {
      const data = validate(portfolioFrontMatter, src.data, src.file);
      return {
        ...data,
        id: src.id,
        image: await loadPicture(root, src.file, "image", data.image, `portfolio-${src.id}`, images),
        bodyHtml: renderMarkdown(src.body, { idPrefix: src.id }),
      };
    }),
  );
  const help = (await readMarkdownDir(root, "help")).map(
    (src): HelpSection => ({
      ...validate(helpFrontMatter, src.data, src.file),
      id: src.id,
      questions: helpQuestions(fillPlaceholders(src.body, values, src.file), src.file),
    }),
  );

  const policies = {} as Record<PolicySlug, Policy>;
  for (const slug of policySlugs) {
    const src = await readMarkdown(root, path.join("policies", `${slug}.md`), slug).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") {
        throw new ContentError(`Invalid content:\n  policies/${slug}.md: file is missing`);
      }
      throw error;
    });
    policies[slug] = {
      ...validate(policyFrontMatter, src.data, src.file),
      slug,
      html: renderMarkdown(fillPlaceholders(src.body, values, src.file)),
    };
  }

  assertUnique(courses, "courses");
  assertUnique(services, "services");
  const teamIds = new Set(team.map((m) => m.id));
  const serviceIds = new Set(services.map((s) => s.id));
  for (const course of courses) {
    if (!teamIds.has(course.instructor)) {
      throw new ContentError(
        `Invalid content:\n  courses/${course.id}/course.md: instructor: no team member "${course.instructor}"`,
      );
    }
  }
  for (const project of portfolio) {
    const unknown = project.services.find((s) => !serviceIds.has(s));
    if (unknown) {
      throw new ContentError(`Invalid content:\n  portfolio/${project.id}.md: services: no service "${unknown}"`);
    }
  }

  const renderOnce = (key: string, file: SourceFile): RenderedLesson => {
    const kept = lessonBodies.get(key);
    if (kept) return kept;
    // Still held: this lesson is one not yet rendered.
    const body = renderLesson!(file);
    lessonBodies.set(key, body);
    if (lessonBodies.size === lessonFiles.size) renderLesson = undefined;
    return body;
  };

  return {
    site,
    courses: courses.toSorted(byOrder),
    lessonBody(courseId, lessonId) {
      const key = `${courseId}/${lessonId}`;
      const file = lessonFiles.get(key);
      return file && renderOnce(key, file);
    },
    prepareLessons() {
      const before = lessonBodies.size;
      for (const [key, file] of lessonFiles) renderOnce(key, file);
      return lessonBodies.size - before;
    },
    services: services.toSorted(byOrder),
    team: team.toSorted(byOrder),
    portfolio: portfolio.toSorted(byOrder),
    policies,
    help: help.toSorted(byOrder),
    images,
  };
}
