import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../server/catalog/index.ts";
import { contrastRatio, type Rgb } from "../support/contrast.ts";
import { contentDir } from "./helpers.ts";

/** #rgb, #rrggbb or #rrggbbaa, the alpha laid over `under`. */
function rgb(hex: string, under: Rgb = [255, 255, 255]): Rgb {
  const digits = hex.length <= 5 ? hex.slice(1).replace(/./g, "$&$&") : hex.slice(1);
  const [r, g, b] = [0, 2, 4].map((i) => Number.parseInt(digits.slice(i, i + 2), 16)) as Rgb;
  const alpha = digits.length === 8 ? Number.parseInt(digits.slice(6, 8), 16) / 255 : 1;
  return [r, g, b].map((c, i) => c * alpha + under[i]! * (1 - alpha)) as Rgb;
}

/** Each highlighted block of `html` with its backgrounds and the colours of its text, in both themes. */
function codeBlocks(html: string) {
  return [...html.matchAll(/<pre class="shiki[^"]*" style="([^"]*)"[^>]*>([\s\S]*?)<\/pre>/g)].map(([, blockStyle = "", body = ""]) => {
    const styles = [blockStyle, ...[...body.matchAll(/style="([^"]*)"/g)].map((m) => m[1] ?? "")];
    const values = (property: RegExp) => styles.flatMap((style) => [...style.matchAll(property)].map((m) => m[1] as string));
    return {
      light: { background: values(/(?:^|;)background-color:(#[0-9a-f]+)/gi)[0] ?? "", colours: new Set(values(/(?:^|;)color:(#[0-9a-f]+)/gi)) },
      dark: { background: values(/--shiki-dark-bg:(#[0-9a-f]+)/gi)[0] ?? "", colours: new Set(values(/--shiki-dark:(#[0-9a-f]+)/gi)) },
    };
  });
}

describe("code in lessons", () => {
  it("reaches 4.5:1 against its block's background for every token colour, in the light and the dark theme", async () => {
    const catalog = await loadCatalog(contentDir);
    const faint: string[] = [];
    let blocks = 0;
    for (const course of catalog.courses) {
      for (const lesson of course.modules.flatMap((m) => m.lessons)) {
        for (const block of codeBlocks(catalog.lessonBody(course.id, lesson.id)?.html ?? "")) {
          blocks += 1;
          for (const [theme, { background, colours }] of Object.entries(block)) {
            const under = rgb(background);
            for (const colour of colours) {
              const ratio = contrastRatio(rgb(colour, under), under);
              if (ratio < 4.5) faint.push(`${course.id}/${lesson.id} (${theme}): ${colour} on ${background} is ${ratio.toFixed(2)}:1`);
            }
          }
        }
      }
    }
    expect(blocks).toBeGreaterThan(100);
    expect([...new Set(faint)]).toEqual([]);
  });
});
