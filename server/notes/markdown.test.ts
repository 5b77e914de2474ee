import { describe, expect, it } from "vitest";
import { noteSnippet, renderNoteMarkdown } from "./markdown.ts";

describe("note Markdown", () => {
  it("shows raw HTML as text and never as elements", () => {
    const html = renderNoteMarkdown("<img src=x onerror=alert(1)> and **bold**\n\n<script>alert(1)</script>");
    expect(html).toContain("<strong>bold</strong>");
    expect(html).toContain("&#60;img src=x onerror=alert(1)&#62;");
    expect(html).not.toMatch(/<img|<script/);
  });

  it("keeps http(s) and mailto links only, with their addresses escaped", () => {
    const html = renderNoteMarkdown('[a](javascript:alert(1)) [b](https://x.test/?a=1&b="2") [c](mailto:me@x.test) [d](&#106;avascript:alert(1)) [e](/relative)');
    expect(html).not.toContain("javascript");
    expect(html).toContain('<a href="https://x.test/?a=1&#38;b=&#34;2&#34;" rel="noopener noreferrer nofollow" target="_blank">b</a>');
    expect(html).toContain('<a href="mailto:me@x.test">c</a>');
    expect(html).toContain("a ");
    expect(html).not.toContain('href="/relative"');
  });

  it("turns images into links and starts headings at level 3", () => {
    expect(renderNoteMarkdown("![chart](https://x.test/c.png) ![x](data:image/png;base64,AA)")).toBe(
      '<p><a href="https://x.test/c.png" rel="noopener noreferrer nofollow" target="_blank">chart</a> x</p>\n',
    );
    expect(renderNoteMarkdown("# One\n## Two\n##### Five")).toBe("<h3>One</h3>\n<h4>Two</h4>\n<h6>Five</h6>\n");
    expect(renderNoteMarkdown("- [x] done")).not.toContain("<input");
  });

  it("summarises a note as plain text", () => {
    expect(noteSnippet("## Box model\n\n**Margin** is outside the [border](https://x.test).")).toBe("Box model Margin is outside the border.");
    expect(noteSnippet("> quoted\n> more")).toBe("quoted more");
    expect(noteSnippet("a".repeat(200), 10)).toBe(`${"a".repeat(9)}…`);
  });
});
