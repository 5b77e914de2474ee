import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import type { z } from "zod";
import { splitFrontMatter } from "./front-matter.ts";
import { renderMarkdown, slugify } from "./markdown.ts";
import {
  courseFrontMatter,
  helpFrontMatter,
  policyFrontMatter,
  portfolioFrontMatter,
  serviceFrontMatter,
  siteSchema,
  teamFrontMatter,
  type Site,
} from "./schema.ts";

export type { Money, Site } from "./schema.ts";

export type Course = z.infer<typeof courseFrontMatter> & {
  id: string;
  descriptionHtml: string;
  lessonCount: number;
  totalMinutes: number;
};
export type Service = z.infer<typeof serviceFrontMatter> & { id: string; descriptionHtml: string };
export type TeamMember = z.infer<typeof teamFrontMatter> & { id: string; bioHtml: string };
export type Project = z.infer<typeof portfolioFrontMatter> & { id: string; bodyHtml: string };
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
  services: Service[];
  team: TeamMember[];
  portfolio: Project[];
  policies: Record<PolicySlug, Policy>;
  help: HelpSection[];
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
  const courses = await Promise.all(
    courseDirs.map(async (id): Promise<Course> => {
      const src = await readMarkdown(root, path.join("courses", id, "course.md"), id);
      const data = validate(courseFrontMatter, src.data, src.file);
      const lessons = data.modules.flatMap((m) => m.lessons);
      return {
        ...data,
        id,
        descriptionHtml: renderMarkdown(src.body),
        lessonCount: lessons.length,
        totalMinutes: lessons.reduce((sum, l) => sum + l.minutes, 0),
      };
    }),
  );

  const services = (await readMarkdownDir(root, "services")).map(
    (src): Service => ({
      ...validate(serviceFrontMatter, src.data, src.file),
      id: src.id,
      descriptionHtml: renderMarkdown(src.body),
    }),
  );
  const team = (await readMarkdownDir(root, "team")).map(
    (src): TeamMember => ({ ...validate(teamFrontMatter, src.data, src.file), id: src.id, bioHtml: renderMarkdown(src.body) }),
  );
  const portfolio = (await readMarkdownDir(root, "portfolio")).map(
    (src): Project => ({
      ...validate(portfolioFrontMatter, src.data, src.file),
      id: src.id,
      bodyHtml: renderMarkdown(src.body),
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

  return {
    site,
    courses: courses.toSorted(byOrder),
    services: services.toSorted(byOrder),
    team: team.toSorted(byOrder),
    portfolio: portfolio.toSorted(byOrder),
    policies,
    help: help.toSorted(byOrder),
  };
}
