import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const scanned = ["app/routes", "app/components"];
/** Utilities that only paint: the dark theme may change these and nothing else (tests/e2e/axe.ts scans it for colour rules only). */
const colourUtility = /^(text|bg|border|divide|ring|outline|accent|from|via|to|placeholder|marker|fill|stroke|decoration|caret|shadow)-/;
const primitives = "app/components/ui/";

/**
 * Looks that belong to one primitive in app/components/ui: written anywhere else, a change of
 * look would have to find every copy. Each pattern matches inside one class string.
 */
const looks = [
  { name: "the primary button (ui/button.tsx)", pattern: /bg-brand-600[^"'`]*hover:bg-brand-700|hover:bg-brand-700[^"'`]*bg-brand-600/ },
  { name: "the secondary button (ui/button.tsx)", pattern: /rounded-full border border-slate-300 [^"'`]*hover:bg-slate-50/ },
  { name: "the danger button (ui/button.tsx)", pattern: /bg-red-700[^"'`]*hover:bg-red-800/ },
  { name: "the text input (ui/field.tsx)", pattern: /focus:ring-brand-500\/30|rounded-lg border border-slate-300 bg-white px-3/ },
  { name: "the card (ui/card.tsx)", pattern: /rounded-2xl border border-slate-200 [^"'`]*dark:border-slate-800/ },
];


async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(path.join(root, dir), { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .filter((file) => !file.startsWith(primitives) && !file.endsWith(".test.ts"));
}

async function copiesIn(file: string): Promise<string[]> {
  const text = await readFile(path.join(root, file), "utf8");
  return looks.filter((look) => look.pattern.test(text)).map((look) => look.name);
}

describe("UI primitives", () => {
  it("keeps each shared look in app/components/ui: no route or component writes its classes again", async () => {
    const files = (await Promise.all(scanned.map(sourceFiles))).flat();
    expect(files.length).toBeGreaterThan(50);
    const copies: Record<string, string[]> = {};
    for (const file of files) {
      const found = await copiesIn(file);
      if (found.length > 0) copies[file] = found;
    }
    expect(copies).toEqual({});
  });

  it("lets the dark theme change colours only, so a page's elements are the same in both themes", async () => {
    const files = [...(await Promise.all(scanned.map(sourceFiles))).flat(), "app/app.css"];
    const layout: string[] = [];
    for (const file of files) {
      const text = await readFile(path.join(root, file), "utf8");
      for (const [variant] of text.matchAll(/dark:[\w:[\]/.-]+/g)) {
        const utility = variant.split(":").at(-1) ?? "";
        if (!colourUtility.test(utility)) layout.push(`${file}: ${variant}`);
      }
    }
    expect(layout).toEqual([]);
  });
});
