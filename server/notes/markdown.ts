import { Marked } from "marked";
import { escapeHtml } from "../escape-html.ts";

const safeHref = /^(https?:|mailto:)/i;

/**
 * Learners' Markdown is untrusted: raw HTML is shown as text, links keep only http(s) and mailto
 * addresses, images become links (no request leaves the page), and headings start at level 3 so
 * they sit under the page's own.
 */
const notes = new Marked({ gfm: true, breaks: true, async: false });
notes.use({
  renderer: {
    html({ text, block }) {
      return block ? `<p>${escapeHtml(text.trim())}</p>\n` : escapeHtml(text);
    },
    // A task list's boxes as text: a disabled checkbox would be a form control with no label.
    checkbox({ checked }) {
      return checked ? "☑ " : "☐ ";
    },
    link({ href, title, tokens }) {
      const text = this.parser.parseInline(tokens);
      if (!safeHref.test(href)) return text;
      const titleAttr = title ? ` title="${escapeHtml(title)}"` : "";
      const external = /^https?:/i.test(href) ? ' rel="noopener noreferrer nofollow" target="_blank"' : "";
      return `<a href="${escapeHtml(href)}"${titleAttr}${external}>${text}</a>`;
    },
    image({ href, text }) {
      const label = escapeHtml(text || "image");
      if (!/^https?:/i.test(href)) return label;
      return `<a href="${escapeHtml(href)}" rel="noopener noreferrer nofollow" target="_blank">${label}</a>`;
    },
    heading({ tokens, depth }) {
      const level = Math.min(depth + 2, 6);
      return `<h${level}>${this.parser.parseInline(tokens)}</h${level}>\n`;
    },
  },
});

/** A note's Markdown body as HTML that is safe to put in the page. */
export function renderNoteMarkdown(source: string): string {
  return notes.parse(source) as string;
}

/**
 * The start of a note as plain text, for lists: Markdown markers dropped, whitespace collapsed. Only
 * the note's start is read: a list of fifty full notes would otherwise scan a megabyte.
 */
export function noteSnippet(source: string, length = 140): string {
  const text = source
    .slice(0, length * 8)
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/^\s*>+/gm, "")
    .replace(/[#*_`~|]+/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return text.length > length ? `${text.slice(0, length - 1).trimEnd()}…` : text;
}
