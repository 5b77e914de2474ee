import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { CertificateFace } from "../../common/view-types.ts";

/**
 * The fonts a certificate's PDF is set in (DejaVu, shipped by the dejavu-fonts-ttf package) and
 * what each can draw, which a certificate's page asks before it offers the PDF. Apart from
 * certificate-pdf.ts, which draws the file, so that the PDF library loads with the first one drawn.
 */

const fontFiles = {
  sans: "DejaVuSans.ttf",
  sansBold: "DejaVuSans-Bold.ttf",
  serif: "DejaVuSerif.ttf",
  serifItalic: "DejaVuSerif-Italic.ttf",
  serifBoldItalic: "DejaVuSerif-BoldItalic.ttf",
  mono: "DejaVuSansMono-Bold.ttf",
} as const;
export type FontName = keyof typeof fontFiles;
type FontBytes = Record<FontName, Uint8Array>;

const fontDir = createRequire(import.meta.url).resolve("dejavu-fonts-ttf/ttf/DejaVuSans.ttf").replace(/DejaVuSans\.ttf$/, "");
let loaded: Promise<{ bytes: FontBytes; covers: Record<FontName, (codePoint: number) => boolean> }> | undefined;

/** The font files, read once per process, with what each can draw. */
export function fonts() {
  loaded ??= (async () => {
    const { default: fontkit } = await import("@pdf-lib/fontkit");
    const names = Object.keys(fontFiles) as FontName[];
    const files = await Promise.all(names.map(async (name) => new Uint8Array(await readFile(`${fontDir}${fontFiles[name]}`))));
    const bytes = Object.fromEntries(names.map((name, i) => [name, files[i]])) as FontBytes;
    const covers = Object.fromEntries(
      names.map((name) => {
        const font = fontkit.create(bytes[name] as unknown as Buffer);
        return [name, (codePoint: number) => font.hasGlyphForCodePoint(codePoint)];
      }),
    ) as Record<FontName, (codePoint: number) => boolean>;
    return { bytes, covers };
  })();
  return loaded;
}

// pdf-lib sets text left to right only, so a right-to-left script would come out backwards.
const rightToLeft = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/u;

/** The characters of `text` that `font` cannot draw the right way round. */
export function missing(text: string, covers: (codePoint: number) => boolean): string[] {
  return [...new Set([...text].filter((ch) => !/\s/u.test(ch) && (rightToLeft.test(ch) || !covers(ch.codePointAt(0) ?? 0))))];
}

/** The characters of the certificate's name, course or instructor that no font of the PDF can draw: none means it can be made. */
export async function unprintableCharacters(face: CertificateFace): Promise<string[]> {
  const { covers } = await fonts();
  return [...new Set([face.learnerName, face.courseTitle, face.instructor?.name ?? ""].flatMap((text) => missing(text, covers.sans)))];
}
