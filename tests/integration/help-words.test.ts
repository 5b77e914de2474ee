import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { describe, expect, it } from "vitest";
import routes from "../../app/routes.ts";
import { loadCatalog } from "../../server/catalog/index.ts";
import { contentDir, projectRoot } from "./helpers.ts";

const helpDir = path.join(projectRoot, "content/help");
const policiesDir = path.join(projectRoot, "content/policies");

/**
 * Bold phrases in the help centre that are emphasis or a name of something outside the UI, not
 * a button, link, tab or status. Every other bold phrase must be words the user sees on screen.
 */
const emphasis = new Set([
  // getting-started.md: the two things the company offers, as list headings
  "Online courses",
  "Website services",
  // account-and-security.md: list headings
  "To change it:",
  "If you've forgotten it:",
  "this can't be undone",
  // account-and-security.md: the command-line tool's name, typed in a terminal
  "academy",
  // payments-and-invoices.md
  "includes GST at 18%",
  "before",
  "reversed automatically",
  "We never see or store your full card number, CVV, UPI PIN or banking passwords.",
  // refunds.md: the policy's conditions and timings
  "{{refund.windowDays}} days or less",
  "less than {{refund.maxProgressPercent}}%",
  "original payment method",
  "5–7 business days",
  // website-services.md: list headings and promises
  "Website design and development:",
  "Hosting and maintenance:",
  "Talk to us.",
  "Proposal.",
  "Design and build.",
  "Launch.",
  "15-day grace period",
  "in your name",
]);

/** Where the words a user sees are written: the screens, and the website statuses they show. */
const uiSources = ["app", "common/website-states.ts"];

async function markdownFiles(dir: string): Promise<{ file: string; text: string }[]> {
  const names = (await readdir(dir)).filter((name) => name.endsWith(".md")).toSorted();
  return Promise.all(names.map(async (name) => ({ file: path.relative(projectRoot, path.join(dir, name)), text: await readFile(path.join(dir, name), "utf8") })));
}

async function sourceFiles(relative: string): Promise<string[]> {
  const full = path.join(projectRoot, relative);
  if (relative.endsWith(".ts")) return [full];
  const entries = await readdir(full, { recursive: true });
  return entries.filter((entry) => entry.endsWith(".tsx") && !entry.endsWith(".test.tsx")).map((entry) => path.join(full, entry));
}

/** String literals and JSX text of a source file, comments left out, whitespace collapsed. */
function uiTexts(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|\s)\/\/.*$/gm, "$1");
  const texts: string[] = [];
  for (const match of code.matchAll(/"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\]|\\.)*)`|(?<!=)>([^<>{}=][^<>{}]*)(?=[<{])/g)) {
    const text = match.slice(1).find((group) => group !== undefined) ?? "";
    texts.push(text.replace(/\s+/g, " ").trim());
  }
  return texts;
}

async function allUiTexts(): Promise<string[]> {
  const files = (await Promise.all(uiSources.map(sourceFiles))).flat();
  const sources = await Promise.all(files.map((file) => readFile(file, "utf8")));
  return sources.flatMap(uiTexts);
}

function boldPhrases(markdown: string): string[] {
  return [...markdown.matchAll(/\*\*(.+?)\*\*/g)].map((match) => (match[1] ?? "").replace(/\s+/g, " ").trim());
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The site's own paths, as regular expressions, from the route configuration. */
function routePatterns(entries: RouteConfigEntry[]): RegExp[] {
  return entries.flatMap((entry) => {
    const own =
      entry.path === undefined || entry.path === "*"
        ? []
        : [new RegExp(`^/${entry.path.split("/").map((part) => (part.startsWith(":") ? "[^/]+" : escapeRegExp(part))).join("/")}$`)];
    return [...own, ...routePatterns(entry.children ?? [])];
  });
}

describe("the help centre's words", () => {
  it("names only buttons, links, tabs and statuses that the screens show", async () => {
    const texts = await allUiTexts();
    const missing: string[] = [];
    for (const { file, text } of await markdownFiles(helpDir)) {
      for (const phrase of boldPhrases(text)) {
        if (emphasis.has(phrase)) continue;
        const shown = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(phrase)}(?![\\p{L}\\p{N}])`, "u");
        if (!texts.some((t) => shown.test(t))) missing.push(`${file}: **${phrase}** is not text on any screen`);
      }
    }
    expect(missing, "Use the UI's own words, or add the phrase to the emphasis list if it is not a UI name").toEqual([]);
  });

  it("keeps its list of emphasis to phrases the help still uses", async () => {
    const used = new Set((await markdownFiles(helpDir)).flatMap(({ text }) => boldPhrases(text)));
    expect([...emphasis].filter((phrase) => !used.has(phrase))).toEqual([]);
  });

  it("reads UI text from string literals and JSX text, not from comments", () => {
    expect(uiTexts('const created = { label: "Awaiting payment" }; // was Pending\n<p>Paid</p>')).toEqual(["Awaiting payment", "Paid"]);
  });

  it("speaks of videos only while some lesson has one", async () => {
    const { courses } = await loadCatalog(contentDir);
    const videoLessons = courses.reduce((sum, course) => sum + course.videoLessonCount, 0);
    const speaking = (await markdownFiles(helpDir)).filter(({ text }) => /\bvideos?\b/i.test(text)).map(({ file }) => file);
    expect(videoLessons > 0 ? [] : speaking, "no lesson has a video, so the help must not answer questions about them").toEqual([]);
  });

  it("links only to pages the site has, and to help topics and questions that exist", async () => {
    const patterns = routePatterns(routes);
    const { help } = await loadCatalog(contentDir);
    const questions = new Map(help.map((section) => [section.id, new Set(section.questions.map((q) => q.id))]));
    const broken: string[] = [];
    for (const { file, text } of [...(await markdownFiles(helpDir)), ...(await markdownFiles(policiesDir))]) {
      for (const match of text.matchAll(/\]\((\/[^)#?\s]*)(?:#([^)\s]*))?[^)]*\)/g)) {
        const [, target = "", anchor] = match;
        if (!patterns.some((pattern) => pattern.test(target))) broken.push(`${file}: links to ${target}, which is not a page`);
        if (target === "/help" && anchor !== undefined && !questions.has(anchor)) broken.push(`${file}: links to /help#${anchor}, which is not a help topic`);
        const topic = /^\/help\/([^/]+)$/.exec(target)?.[1];
        if (topic !== undefined && !questions.has(topic)) broken.push(`${file}: links to ${target}, which is not a help topic`);
        if (topic !== undefined && anchor !== undefined && !questions.get(topic)?.has(anchor)) broken.push(`${file}: links to ${target}#${anchor}, which is not a question there`);
      }
    }
    expect(patterns.some((pattern) => pattern.test("/account/orders"))).toBe(true);
    expect(broken).toEqual([]);
  });
});
