// How much HTML each page sends before compression, against issue 30's budget (60 KB a document,
// lessons with long text excepted: a lesson's own text, its #lesson-body, is not counted), and how
// much of it is the inlined stylesheet (a first visit's) and the loader data React Router embeds for hydration. Signed-in pages as the learner's browser
// asks for them (holding the stylesheet); public ones as a first visit (stylesheet inlined).
import { send, type Buyer } from "./buyers.ts";

export interface DocumentSize {
  path: string;
  signedIn: boolean;
  htmlBytes: number;
  stylesheetBytes: number;
  loaderDataBytes: number;
  /** A lesson's own text (its #lesson-body element), which the budget excepts; 0 elsewhere. */
  lessonTextBytes: number;
  /** Within 60 KB, not counting a first visit's inlined stylesheet nor a lesson's text. */
  withinBudget: boolean;
}

const publicPaths = ["/", "/courses", "/course/webdevfrontendcourse", "/team", "/services", "/help", "/help/account-and-security"];
const signedInPaths = ["/account", "/account/courses", "/notes", "/courses/webdevfrontendcourse/MainPage", "/courses/webdevfrontendcourse/submodule/1-2", "/course/webdevfrontendcourse"];
export const documentBudgetBytes = 60 * 1024;

const bytesOf = (parts: string[]) => parts.reduce((sum, part) => sum + Buffer.byteLength(part), 0);

/** The bytes of the element with `id` in `html`, its tags included, found by counting its kind of tag in and out; 0 when there is none. */
export function elementBytes(html: string, id: string): number {
  const open = new RegExp(`<([a-z][a-z0-9]*)[^>]*\\sid="${id}"[^>]*>`).exec(html);
  if (!open) return 0;
  const tag = open[1] ?? "";
  const tags = new RegExp(`<${tag}[\\s>]|</${tag}>`, "g");
  tags.lastIndex = open.index + open[0].length;
  let depth = 1;
  for (let found = tags.exec(html); found; found = tags.exec(html)) {
    depth += found[0].startsWith("</") ? -1 : 1;
    if (depth === 0) return Buffer.byteLength(html.slice(open.index, found.index + found[0].length));
  }
  return 0;
}

export async function documentSizes(url: string, learner: Buyer): Promise<DocumentSize[]> {
  const pages = [...publicPaths.map((path) => ({ path, signedIn: false })), ...signedInPaths.map((path) => ({ path, signedIn: true }))];
  const sizes: DocumentSize[] = [];
  for (const page of pages) {
    const response = await send(`${url}${page.path}`, page.signedIn ? learner : {});
    if (response.status !== 200) throw new Error(`${page.path} answered ${response.status}`);
    const html = await response.text();
    const stylesheetBytes = bytesOf([...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1] ?? ""));
    const loaderDataBytes = bytesOf([...html.matchAll(/<script[^>]*>(window\.__reactRouterContext\.streamController\.enqueue[\s\S]*?)<\/script>/g)].map((m) => m[1] ?? ""));
    const htmlBytes = Buffer.byteLength(html);
    const lessonTextBytes = elementBytes(html, "lesson-body");
    sizes.push({ path: page.path, signedIn: page.signedIn, htmlBytes, stylesheetBytes, loaderDataBytes, lessonTextBytes, withinBudget: htmlBytes - stylesheetBytes - lessonTextBytes <= documentBudgetBytes });
  }
  return sizes;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function printDocumentSizes(sizes: DocumentSize[]): void {
  console.log(`\nHTML a document sends before compression (budget ${kb(documentBudgetBytes)} without a first visit's inlined stylesheet, nor a lesson's own text)`);
  for (const s of sizes) {
    const lessonText = s.lessonTextBytes > 0 ? ` · lesson text ${kb(s.lessonTextBytes)} excepted` : "";
    const counted = s.htmlBytes - s.stylesheetBytes - s.lessonTextBytes;
    console.log(
      `  ${`${s.path}${s.signedIn ? " (signed in)" : ""}`.padEnd(58)} ${kb(s.htmlBytes).padStart(9)} · stylesheet ${kb(s.stylesheetBytes).padStart(8)} · loader data ${kb(s.loaderDataBytes).padStart(8)}${lessonText} · counted ${kb(counted)}: ${s.withinBudget ? "within budget" : "OVER budget"}`,
    );
  }
}
