import { describe, expect, it } from "vitest";
import { createLessonRenderer, fenceLanguages, UnknownLanguage, videoEmbedUrl } from "./markdown.ts";

const lesson = `Intro.

## Why it matters

\`\`\`js
const total = [1, 2, 3].reduce((sum, n) => sum + n, 0);
\`\`\`

> [!TIP]
> Use \`const\` by default.

> A plain quotation.

## Why it matters

![A diagram](/images/box-model.svg)
`;

describe("lesson Markdown", () => {
  it("highlights code on the server for both themes, with no highlighter left for the browser and no Tab stop on the block", async () => {
    const render = await createLessonRenderer(fenceLanguages([lesson]));
    const { html } = render(lesson);
    expect(html).toContain('<div class="code-block"><div class="code-bar">JavaScript</div><pre class="shiki shiki-themes github-light-default github-dark-default"');
    expect(html).toMatch(/<pre class="shiki[^"]*" style="[^"]*"><code>/);
    expect(html).toMatch(/style="color:#[0-9A-F]{6};--shiki-dark:#[0-9A-F]{6}"/i);
    expect(html).not.toContain("<script");
  });

  it("gives headings unique ids with anchor links outside the Tab order, and lists them", async () => {
    const render = await createLessonRenderer([]);
    const { html, headings } = render(lesson);
    expect(headings).toEqual([
      { id: "why-it-matters", text: "Why it matters", depth: 2 },
      { id: "why-it-matters-2", text: "Why it matters", depth: 2 },
    ]);
    expect(html).toContain('<h2 id="why-it-matters-2">Why it matters <a class="heading-anchor" href="#why-it-matters-2" tabindex="-1" aria-label="Link to this section">#</a></h2>');
  });

  it("lists a heading's words as they read, code and escapes included, not as HTML", async () => {
    const { html, headings } = (await createLessonRenderer([]))("## Links with the `<a>` element\n\n## Fish & chips, `&amp;` and &#8377;5\n");
    expect(headings.map((h) => h.text)).toEqual(["Links with the <a> element", "Fish & chips, &amp; and ₹5"]);
    expect(html).toContain('<h2 id="links-with-the-a-element">Links with the <code>&lt;a&gt;</code> element');
  });

  it("turns GitHub alert quotes into callouts and leaves other quotes alone", async () => {
    const { html } = (await createLessonRenderer([]))(lesson);
    expect(html).toMatch(/<aside class="callout callout-tip" role="note" aria-label="Tip"><p class="callout-title">Tip<\/p>\n<p>Use <code>const<\/code> by default.<\/p>/);
    expect(html).toContain("<blockquote>\n<p>A plain quotation.</p>\n</blockquote>");
  });

  it("puts a table in a box of its own that scrolls sideways, and the keyboard can scroll", async () => {
    const { html } = (await createLessonRenderer([]))("| a | b |\n|---|---|\n| 1 | 2 |\n");
    expect(html).toMatch(/^<div class="table-scroll"><table>\n<thead>[\s\S]*<\/table>\n<\/div>\n$/);
  });

  it("loads images lazily", async () => {
    const { html } = (await createLessonRenderer([]))(lesson);
    expect(html).toContain('<img src="/images/box-model.svg" alt="A diagram" loading="lazy" decoding="async">');
  });

  it("finds the languages of opening fences only, not words after a closing one", () => {
    expect(fenceLanguages(["```js\nlet a;\n```\nthe end\n~~~ css\np {}\n~~~"])).toEqual(new Set(["js", "css"]));
  });

  it("refuses a code language it cannot highlight", async () => {
    await expect(createLessonRenderer(["klingon-script"])).rejects.toBeInstanceOf(UnknownLanguage);
  });
});

describe("videoEmbedUrl", () => {
  it("uses YouTube's and Vimeo's privacy-enhanced players", () => {
    expect(videoEmbedUrl("https://www.youtube.com/watch?v=dQw4w9WgXcQ")).toBe("https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ");
    expect(videoEmbedUrl("https://youtu.be/dQw4w9WgXcQ")).toBe("https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ");
    expect(videoEmbedUrl("https://vimeo.com/76979871")).toBe("https://player.vimeo.com/video/76979871?dnt=1");
    expect(videoEmbedUrl("https://example.com/video.mp4")).toBeNull();
  });
});
