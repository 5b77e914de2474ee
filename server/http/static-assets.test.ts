import { describe, expect, it } from "vitest";
import { inlinedAt, inlineStylesheet, type StaticFile } from "./static-assets.ts";

const css = "body{margin:0}.card{padding:1rem}";
const file = (type: string, body: string): StaticFile => ({ type, body: Buffer.from(body), encoded: {}, immutable: true, etag: '"x"' });
const assets = new Map([
  ["/assets/app.css", file("text/css; charset=utf-8", css)],
  ["/assets/app.js", file("text/javascript; charset=utf-8", "export {}")],
]);

describe("inlineStylesheet", () => {
  it("gives a built stylesheet's text, made once for every page", () => {
    const sheet = inlineStylesheet(assets, "/assets/app.css");
    expect(sheet?.text).toBe(css);
    expect(inlineStylesheet(assets, "/assets/app.css")).toBe(sheet);
  });

  it("gives nothing for a file that is not a stylesheet or not built", () => {
    expect(inlineStylesheet(assets, "/assets/app.js")).toBeUndefined();
    expect(inlineStylesheet(assets, "/assets/gone.css")).toBeUndefined();
  });
});

describe("inlinedAt", () => {
  const sheet = inlineStylesheet(assets, "/assets/app.css");
  if (!sheet) throw new Error("no stylesheet");
  const at = (html: string) => inlinedAt(Buffer.from(html), sheet);

  it("finds the stylesheet as the text of the document's first <style> element", () => {
    const head = '<!DOCTYPE html><html><head><meta charset="utf-8"/><style nonce="n0nce">';
    expect(at(`${head}${css}</style></head><body></body></html>`)).toBe(head.length);
  });

  it("does not find it in a document that links it, changed it or styles something else first", () => {
    expect(at('<html><head><link rel="stylesheet" href="/assets/app.css"/></head><body></body></html>')).toBe(-1);
    expect(at(`<html><head><style>${css.replace("0", "1")}</style></head></html>`)).toBe(-1);
    expect(at(`<html><head><style>.x{}</style><style>${css}</style></head></html>`)).toBe(-1);
    expect(at(`<html><head><style>${css.slice(0, 10)}`)).toBe(-1);
  });
});
