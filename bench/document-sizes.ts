// How much HTML each page sends before compression, against issue 30's budget (60 KB a document,
// lessons with long text excepted), and how much of it is the inlined stylesheet (a first visit's)
// and the loader data React Router embeds for hydration. Signed-in pages as the learner's browser
// asks for them (holding the stylesheet); public ones as a first visit (stylesheet inlined).
import { send, type Buyer } from "./buyers.ts";

export interface DocumentSize {
  path: string;
  signedIn: boolean;
  htmlBytes: number;
  stylesheetBytes: number;
  loaderDataBytes: number;
  /** Within 60 KB, not counting a first visit's inlined stylesheet. */
  withinBudget: boolean;
}

const publicPaths = ["/", "/courses", "/course/webdevfrontendcourse", "/team", "/services", "/help"];
const signedInPaths = ["/account", "/account/courses", "/notes", "/courses/webdevfrontendcourse/MainPage", "/courses/webdevfrontendcourse/submodule/1-2", "/course/webdevfrontendcourse"];
export const documentBudgetBytes = 60 * 1024;

const bytesOf = (parts: string[]) => parts.reduce((sum, part) => sum + Buffer.byteLength(part), 0);

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
    sizes.push({ path: page.path, signedIn: page.signedIn, htmlBytes, stylesheetBytes, loaderDataBytes, withinBudget: htmlBytes - stylesheetBytes <= documentBudgetBytes });
  }
  return sizes;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function printDocumentSizes(sizes: DocumentSize[]): void {
  console.log(`\nHTML a document sends before compression (budget ${kb(documentBudgetBytes)} without a first visit's inlined stylesheet; lessons with long text excepted)`);
  for (const s of sizes) {
    console.log(
      `  ${`${s.path}${s.signedIn ? " (signed in)" : ""}`.padEnd(58)} ${kb(s.htmlBytes).padStart(9)} · stylesheet ${kb(s.stylesheetBytes).padStart(8)} · loader data ${kb(s.loaderDataBytes).padStart(8)} · ${s.withinBudget ? "within budget" : "OVER budget"}`,
    );
  }
}
