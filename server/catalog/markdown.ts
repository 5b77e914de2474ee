import { Marked } from "marked";

const marked = new Marked({ gfm: true, async: false });

export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/<[^>]+>/g, "")
    .replace(/&[a-z]+;/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

marked.use({
  renderer: {
    heading({ tokens, depth }) {
      const html = this.parser.parseInline(tokens);
      return `<h${depth} id="${slugify(html)}">${html}</h${depth}>\n`;
    },
    link({ href, title, tokens }) {
      const text = this.parser.parseInline(tokens);
      const external = /^https?:\/\//.test(href);
      const titleAttr = title ? ` title="${title}"` : "";
      const rel = external ? ' rel="noopener noreferrer" target="_blank"' : "";
      return `<a href="${href}"${titleAttr}${rel}>${text}</a>`;
    },
  },
});

/** Renders trusted repository Markdown (content/) to HTML once, at start-up. */
export function renderMarkdown(source: string): string {
  return marked.parse(source) as string;
}
