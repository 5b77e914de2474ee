// What each compression level costs and saves on the pages rendered per request (issue 30: "no
// brotli above the level whose extra CPU buys nothing"): the course page as a first visit gets it
// (its stylesheet inlined), a lesson and /account as a signed-in learner gets them, each compressed
// in this process, CPU milliseconds and bytes, beside what server/http/compression.ts uses. A page
// that carries the stylesheet inlined is also weighed as the server sends it: gzip with the
// stylesheet's deflate made once and spliced in.
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { gzipAround, perRequestBrotliQuality, perRequestGzipLevel } from "../server/http/compression.ts";
import { inlinedAt, inlineStylesheet, loadStaticAssets } from "../server/http/static-assets.ts";
import { send, type Buyer } from "./buyers.ts";
import { perRun } from "./cpu.ts";
import { builtStylesheetHref, root } from "./server.ts";

export interface LevelCost {
  encoding: string;
  level: number;
  cpuMs: number;
  bytes: number;
}

export interface PageCompression {
  path: string;
  htmlBytes: number;
  levels: LevelCost[];
}

/** CPU a compression takes, as the server calls it (in one piece, on the main thread), over a second of repeats. */
async function cost(compress: () => Buffer): Promise<{ cpuMs: number; bytes: number }> {
  const bytes = compress().length;
  return { cpuMs: (await perRun(1, 10, async () => compress())).cpuMs, bytes };
}

export async function compressionBench(url: string, learner: Buyer): Promise<PageCompression[]> {
  const pages = [
    { path: "/course/webdevfrontendcourse", from: {} },
    { path: "/courses/webdevfrontendcourse/submodule/1-2", from: learner },
    { path: "/account", from: learner },
  ];
  const assets = await loadStaticAssets(path.join(root, "build/client"));
  const stylesheet = inlineStylesheet(assets, builtStylesheetHref());
  const results: PageCompression[] = [];
  for (const page of pages) {
    const html = Buffer.from(await (await send(`${url}${page.path}`, page.from)).arrayBuffer());
    const levels: LevelCost[] = [];
    for (const quality of [1, 2, 3, 4, 5]) {
      const params = { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: html.length };
      levels.push({ encoding: "br", level: quality, ...(await cost(() => brotliCompressSync(html, { params }))) });
    }
    for (const level of [1, 3, 6]) levels.push({ encoding: "gzip", level, ...(await cost(() => gzipSync(html, { level }))) });
    const at = stylesheet ? inlinedAt(html, stylesheet) : -1;
    if (stylesheet && at >= 0) {
      levels.push({ encoding: "gzip, stylesheet spliced", level: perRequestGzipLevel, ...(await cost(() => gzipAround(html, at, stylesheet.part))) });
    }
    results.push({ path: page.path, htmlBytes: html.length, levels });
  }
  return results;
}

export function printCompression(pages: PageCompression[]): void {
  console.log(`\nCompression of pages rendered per request, CPU a response (the server uses brotli ${perRequestBrotliQuality}, gzip ${perRequestGzipLevel}, and gzip with the stylesheet spliced in when a page inlines it and the client takes gzip)`);
  for (const page of pages) {
    console.log(`  ${page.path}: ${(page.htmlBytes / 1024).toFixed(1)} KB of HTML`);
    console.log(`    ${page.levels.map((l) => `${l.encoding} ${l.level}: ${l.cpuMs} ms, ${(l.bytes / 1024).toFixed(1)} KB`).join(" · ")}`);
  }
}
