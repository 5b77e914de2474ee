import { Marked, Renderer, type RendererObject } from "marked";
import { bundledLanguages, bundledLanguagesInfo, createHighlighter, createJavaScriptRegexEngine } from "shiki";
import { escapeHtml } from "../escape-html.ts";

export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/<[^>]+>/g, "")
    .replace(/&[a-z]+;/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

const namedEscapes: Record<string, string> = { lt: "<", gt: ">", quot: '"', amp: "&" };

/** The text of inline HTML as a reader sees it: tags dropped, and the escapes marked writes (and numeric references) turned back into characters. */
function plainText(html: string): string {
  return html.replace(/<[^>]+>/g, "").replace(/&(?:(lt|gt|quot|amp)|#(\d{1,7})|#x([\da-f]{1,6}));/gi, (entity, name?: string, decimal?: string, hex?: string) => {
    if (name) return namedEscapes[name.toLowerCase()] ?? entity;
    const code = decimal ? Number(decimal) : Number.parseInt(hex ?? "", 16);
    return code <= 0x10ffff ? String.fromCodePoint(code) : entity;
  });
}

const links: RendererObject = {
  link({ href, title, tokens }) {
    const text = this.parser.parseInline(tokens);
    const external = /^https?:\/\//.test(href);
    const titleAttr = title ? ` title="${title}"` : "";
    const rel = external ? ' rel="noopener noreferrer" target="_blank"' : "";
    return `<a href="${href}"${titleAttr}${rel}>${text}</a>`;
  },
};

function markdownWithIds(idPrefix: string): Marked {
  const marked = new Marked({ gfm: true, async: false });
  marked.use({
    renderer: {
      ...links,
      heading({ tokens, depth }) {
        const html = this.parser.parseInline(tokens);
        return `<h${depth} id="${idPrefix}${slugify(html)}">${html}</h${depth}>\n`;
      },
    },
  });
  return marked;
}

const marked = markdownWithIds("");

/**
 * Renders trusted repository Markdown (content/) to HTML once, at start-up. Pieces shown several
 * to a page (portfolio projects, team bios) pass their own id as `idPrefix`, so their headings'
 * ids stay unique on the page ("shop-rebuild-the-challenge", not six "the-challenge").
 */
export function renderMarkdown(source: string, options: { idPrefix?: string } = {}): string {
  return (options.idPrefix ? markdownWithIds(`${options.idPrefix}-`) : marked).parse(source) as string;
}

/** GitHub's alert syntax in a blockquote: `> [!NOTE]`, `> [!TIP]`, `> [!WARNING]`. */
const callouts = { NOTE: "Note", TIP: "Tip", IMPORTANT: "Important", WARNING: "Warning", CAUTION: "Caution" } as const;
const calloutStart = /^<p>\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]\s*/;

export interface RenderedLesson {
  html: string;
  /** The lesson's sections, for an "On this page" list. */
  headings: { id: string; text: string; depth: number }[];
}

export type LessonRenderer = (source: string) => RenderedLesson;

/** The fence languages a set of Markdown sources use, so the highlighter loads only those. */
export function fenceLanguages(sources: string[]): Set<string> {
  const found = new Set<string>();
  for (const source of sources) for (const match of source.matchAll(/^ {0,3}(?:```|~~~)[ \t]*([\w+#-]+)/gm)) found.add((match[1] as string).toLowerCase());
  return found;
}

/**
 * GitHub's current palettes: every token colour reaches 4.5:1 on its block's background (the older
 * "github-dark" drew comments at 3.05:1, "github-light" variables at 3.49:1); tests/integration/code-colours.test.ts checks each lesson.
 */
const codeThemes = { light: "github-light-default", dark: "github-dark-default" } as const;

/** A fence language as people call it: "JavaScript" for js, "Shell" for bash, "Text" for none. */
function languageName(language: string): string {
  if (language === "text") return "Text";
  return bundledLanguagesInfo.find((info) => info.id === language || info.aliases?.includes(language))?.name ?? language;
}

/** Thrown for a fence language the highlighter does not know; the loader names the file. */
export class UnknownLanguage extends Error {}

/**
 * Lesson Markdown: code highlighted at render time for light and dark themes (no highlighter in the
 * browser), headings with anchors, GitHub-style callouts and lazy images.
 */
export async function createLessonRenderer(languages: Iterable<string>): Promise<LessonRenderer> {
  const wanted = [...languages].filter((l) => l !== "text" && l !== "plain" && l !== "txt");
  const unknown = wanted.find((l) => !(l in bundledLanguages));
  if (unknown) throw new UnknownLanguage(unknown);
  const highlighter = await createHighlighter({
    themes: [codeThemes.light, codeThemes.dark],
    langs: wanted as (keyof typeof bundledLanguages)[],
    engine: createJavaScriptRegexEngine(),
  });

  return (source) => {
    const headings: RenderedLesson["headings"] = [];
    const used = new Map<string, number>();
    const lesson = new Marked({ gfm: true, async: false });
    lesson.use({
      renderer: {
        ...links,
        heading({ tokens, depth }) {
          const html = this.parser.parseInline(tokens);
          const base = slugify(html) || "section";
          const count = used.get(base) ?? 0;
          used.set(base, count + 1);
          const id = count === 0 ? base : `${base}-${count + 1}`;
          headings.push({ id, text: plainText(html), depth });
          // Out of the Tab order: the lesson's "On this page" list links its sections, and a keyboard
          // reading a lesson should reach its end without a stop at every heading.
          return `<h${depth} id="${id}">${html} <a class="heading-anchor" href="#${id}" tabindex="-1" aria-label="Link to this section">#</a></h${depth}>\n`;
        },
        code({ text, lang }) {
          const requested = (lang ?? "").trim().split(/\s+/)[0]?.toLowerCase() || "text";
          const language = wanted.includes(requested) ? requested : "text";
          // Long lines wrap (app.css) rather than scroll, so a code block needs no Tab stop of its own.
          const highlighted = highlighter.codeToHtml(text, { lang: language, themes: codeThemes, tabindex: false });
          // A bar over the code names its language and, once the player's scripts run, holds its Copy button (app/components/code-copy-buttons.tsx).
          return `<div class="code-block"><div class="code-bar">${escapeHtml(languageName(language))}</div>${highlighted}</div>\n`;
        },
        table(token) {
          // A table wider than a phone scrolls in its own box, not the page (app/components/scrollable-tables.tsx lets the keyboard scroll it).
          return `<div class="table-scroll">${Renderer.prototype.table.call(this, token)}</div>\n`;
        },
        blockquote({ tokens }) {
          const inner = this.parser.parse(tokens);
          const match = calloutStart.exec(inner);
          if (!match) return `<blockquote>\n${inner}</blockquote>\n`;
          const kind = match[1] as keyof typeof callouts;
          const rest = inner.replace(calloutStart, "<p>").replace(/^<p>\s*<\/p>\n?/, "");
          return `<aside class="callout callout-${kind.toLowerCase()}" role="note" aria-label="${callouts[kind]}"><p class="callout-title">${callouts[kind]}</p>\n${rest}</aside>\n`;
        },
        image({ href, title, text }) {
          const titleAttr = title ? ` title="${escapeHtml(title)}"` : "";
          return `<img src="${href}" alt="${escapeHtml(text)}"${titleAttr} loading="lazy" decoding="async">`;
        },
      },
    });
    return { html: lesson.parse(source) as string, headings };
  };
}

/** A privacy-enhanced embed address for a YouTube or Vimeo link, or null for anything else. */
export function videoEmbedUrl(url: string): string | null {
  const parsed = new URL(url);
  const host = parsed.hostname.replace(/^www\./, "");
  const youtube =
    host === "youtu.be" ? parsed.pathname.slice(1) : host === "youtube.com" || host === "m.youtube.com" ? parsed.searchParams.get("v") : null;
  if (youtube && /^[\w-]{6,20}$/.test(youtube)) return `https://www.youtube-nocookie.com/embed/${youtube}`;
  const vimeo = host === "vimeo.com" ? /^\/(\d+)$/.exec(parsed.pathname)?.[1] : null;
  if (vimeo) return `https://player.vimeo.com/video/${vimeo}?dnt=1`;
  return null;
}
