import fontkit from "@pdf-lib/fontkit";
import { PDFDocument, PDFName, PDFString, rgb, setCharacterSpacing, type PDFFont, type PDFPage, type RGB } from "pdf-lib";
import { formatDay } from "../../common/format.ts";
import type { CertificateFace } from "../../common/view-types.ts";
import { fonts, missing, unprintableCharacters, type FontName } from "./certificate-fonts.ts";

/**
 * The certificate as a PDF file, drawn on the server from the same face as its page: A4 landscape,
 * the page's double frame, headings, name, course, instructor, date, ID and verification address.
 * Text is set in DejaVu (shipped by the dejavu-fonts-ttf package and embedded, subset), which covers
 * Latin, Greek, Cyrillic and more; a name in a script it lacks is refused rather than drawn as boxes.
 */

export type CertificatePdf = { ok: true; bytes: Uint8Array<ArrayBuffer>; fileName: string } | { ok: false; unprintable: string[] };

/** A file name a person recognises in their downloads: the course and the certificate ID, in plain ASCII. */
export function certificateFileName(face: Pick<CertificateFace, "id" | "courseTitle">): string {
  const course = face.courseTitle
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
  return `certificate-${course ? `${course}-` : ""}${face.id}.pdf`;
}

const hex = (value: string): RGB => rgb(Number.parseInt(value.slice(1, 3), 16) / 255, Number.parseInt(value.slice(3, 5), 16) / 255, Number.parseInt(value.slice(5, 7), 16) / 255);
// The page's print colours (app/app.css): brand 300, 400, 700 and 800, slate 700 and 950.
const colour = { frame: hex("#6793fa"), innerFrame: hex("#95b6fe"), link: hex("#1a40b6"), issuer: hex("#15338a"), muted: hex("#334155"), strong: hex("#020617"), rule: hex("#94a3b8") };

interface Text {
  font: PDFFont;
  size: number;
  color: RGB;
  /** Extra space between letters, in points, for the spaced capitals of labels. */
  spacing?: number;
}

const widthOf = (text: string, style: Text) => style.font.widthOfTextAtSize(text, style.size) + (style.spacing ?? 0) * Math.max(0, [...text].length - 1);

function draw(page: PDFPage, text: string, x: number, y: number, style: Text): void {
  if (style.spacing) page.pushOperators(setCharacterSpacing(style.spacing));
  page.drawText(text, { x, y, size: style.size, font: style.font, color: style.color });
  if (style.spacing) page.pushOperators(setCharacterSpacing(0));
}

function centred(page: PDFPage, text: string, y: number, style: Text): void {
  draw(page, text, (page.getWidth() - widthOf(text, style)) / 2, y, style);
}

/** Words in lines no wider than `width`; a word wider than a line is broken where it must be. */
function wrap(text: string, style: Text, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const tried = line ? `${line} ${word}` : word;
    if (widthOf(tried, style) <= width) {
      line = tried;
      continue;
    }
    if (line) lines.push(line);
    line = "";
    for (const ch of word) {
      if (line && widthOf(line + ch, style) > width) {
        lines.push(line);
        line = "";
      }
      line += ch;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** The largest size from `style.size` down to `smallest` at which the text fits one line, else two, else as many as it needs at the smallest. */
function fitted(text: string, style: Text, smallest: number, width: number): { style: Text; lines: string[] } {
  for (const most of [1, 2]) {
    for (let size = style.size; size >= smallest; size -= 1) {
      const lines = wrap(text, { ...style, size }, width);
      if (lines.length <= most) return { style: { ...style, size }, lines };
    }
  }
  return { style: { ...style, size: smallest }, lines: wrap(text, { ...style, size: smallest }, width) };
}

/** A link over a rectangle of the page, to `url`. */
function link(doc: PDFDocument, page: PDFPage, url: string, box: { x: number; y: number; width: number; height: number }): void {
  const annotation = doc.context.register(
    doc.context.obj({
      Type: "Annot",
      Subtype: "Link",
      Rect: [box.x, box.y, box.x + box.width, box.y + box.height],
      Border: [0, 0, 0],
      A: { Type: "Action", S: "URI", URI: PDFString.of(url) },
    }),
  );
  page.node.set(PDFName.of("Annots"), doc.context.obj([annotation]));
}

/** The certificate as a PDF, or the characters that keep it from being one. */
export async function certificatePdf(face: CertificateFace): Promise<CertificatePdf> {
  const unprintable = await unprintableCharacters(face);
  if (unprintable.length > 0) return { ok: false, unprintable };
  const { bytes, covers } = await fonts();
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const embedded = new Map<FontName, PDFFont>();
  const font = async (name: FontName) => {
    const known = embedded.get(name);
    if (known) return known;
    const made = await doc.embedFont(bytes[name], { subset: true });
    embedded.set(name, made);
    return made;
  };
  // The serif faces lack some scripts the sans has (Arabic aside, Armenian, Georgian…): those names are set in the sans.
  const either = (text: string, preferred: FontName, fallback: FontName) => font(missing(text, covers[preferred]).length === 0 ? preferred : fallback);

  doc.setTitle(`Certificate of completion: ${face.learnerName}, ${face.courseTitle}`);
  doc.setAuthor(face.issuer.legalName);
  doc.setSubject(`Certificate ${face.id}. Verify it at ${face.verifyUrl}`);
  doc.setCreator(face.issuer.name);
  doc.setLanguage("en");

  // A4 landscape, in points.
  const page = doc.addPage([841.89, 595.28]);
  const { width, height } = page.getSize();
  page.drawRectangle({ x: 20, y: 20, width: width - 40, height: height - 40, borderColor: colour.frame, borderWidth: 2 });
  page.drawRectangle({ x: 28, y: 28, width: width - 56, height: height - 56, borderColor: colour.innerFrame, borderWidth: 0.75 });

  const sans = await font("sans");
  const sansBold = await font("sansBold");
  const label: Text = { font: sansBold, size: 7.5, color: colour.muted, spacing: 1.5 };

  centred(page, face.issuer.name.toUpperCase(), height - 78, { font: sansBold, size: 11, color: colour.issuer, spacing: 3.3 });
  centred(page, "Certificate of completion", height - 122, { font: await font("serif"), size: 36, color: colour.strong });
  centred(page, "THIS CERTIFIES THAT", height - 178, { font: sans, size: 10, color: colour.muted, spacing: 2 });

  const name = fitted(face.learnerName, { font: await either(face.learnerName, "serifBoldItalic", "sansBold"), size: 38, color: colour.strong }, 18, 640);
  let y = height - 178 - 16;
  for (const line of name.lines) {
    y -= name.style.size * 1.15;
    centred(page, line, y, name.style);
  }
  y -= 18;
  page.drawLine({ start: { x: width / 2 - 180, y }, end: { x: width / 2 + 180, y }, thickness: 0.75, color: colour.frame });
  y -= 26;
  centred(page, "has successfully completed the course", y, { font: sans, size: 12, color: colour.muted });
  const course = fitted(face.courseTitle, { font: sansBold, size: 21, color: colour.strong }, 13, 640);
  y -= 8;
  for (const line of course.lines) {
    y -= course.style.size * 1.3;
    centred(page, line, y, course.style);
  }

  // The foot: instructor and date on the left, the seal in the middle, the ID on the right.
  const left = 72;
  const right = width - 72;
  if (face.instructor) {
    const instructorName = fitted(face.instructor.name, { font: await either(face.instructor.name, "serifItalic", "sans"), size: 14, color: colour.strong }, 9, 220);
    draw(page, instructorName.lines[0] ?? "", left, 176, instructorName.style);
    page.drawLine({ start: { x: left, y: 170 }, end: { x: left + 220, y: 170 }, thickness: 0.5, color: colour.rule });
    draw(page, `${face.instructor.role}, instructor`, left, 157, { font: sans, size: 8.5, color: colour.muted });
  }
  draw(page, "ISSUED ON", left, 132, label);
  draw(page, formatDay(face.issuedAt), left, 117, { font: sansBold, size: 11, color: colour.strong });

  const id = { font: await font("mono"), size: 11, color: colour.strong };
  draw(page, "CERTIFICATE ID", right - widthOf("CERTIFICATE ID", label), 132, label);
  draw(page, face.id, right - widthOf(face.id, id), 117, id);

  page.drawCircle({ x: width / 2, y: 150, size: 40, borderColor: colour.frame, borderWidth: 1.25 });
  page.drawCircle({ x: width / 2, y: 150, size: 35, borderColor: colour.frame, borderWidth: 1.25 });
  // The page's award icon (24 units, drawn at twice that), centred on the seal.
  const icon = { x: width / 2 - 24, y: 150 + 24, scale: 2, borderColor: colour.link, borderWidth: 0.8 };
  page.drawSvgPath("M18 9a6 6 0 1 1-12 0a6 6 0 1 1 12 0z", icon);
  page.drawSvgPath("m8.5 13.9-1.5 8.1 5-3 5 3-1.5-8.1", icon);
  page.drawSvgPath("m9.5 9 1.7 1.7 3.3-3.4", icon);

  const foot: Text = { font: sans, size: 8.5, color: colour.muted };
  centred(page, `This certificate was issued by ${face.issuer.legalName} (${face.issuer.name}). Anyone can verify it at`, 66, foot);
  const address: Text = { ...foot, font: sansBold, color: colour.link };
  centred(page, face.verifyUrl, 53, address);
  const addressWidth = widthOf(face.verifyUrl, address);
  link(doc, page, face.verifyUrl, { x: (width - addressWidth) / 2, y: 50, width: addressWidth, height: 12 });

  return { ok: true, bytes: new Uint8Array(await doc.save()), fileName: certificateFileName(face) };
}
