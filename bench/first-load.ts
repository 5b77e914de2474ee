import { gzipSync } from "node:zlib";
import { chromium } from "@playwright/test";
import { chromiumFlags, chromiumPath } from "./server.ts";

export interface FirstLoad {
  encoding: string;
  htmlBytes: number;
  jsBytes: number;
  /** Script bytes other than React, React DOM and React Router (vite.config.ts puts those in framework-*.js). */
  appJsBytes: number;
  jsFiles: number;
  inlineCssBytes: number;
  cssRequests: number;
}

/** Bytes transferred for the first load of `url`, with the browser offering only `encoding`. */
export async function measureFirstLoad(url: string, encoding: "gzip" | "br"): Promise<FirstLoad> {
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
  const context = await browser.newContext({ extraHTTPHeaders: { "Accept-Encoding": encoding } });
  const page = await context.newPage();
  const sizes: { type: string; bytes: number; framework: boolean }[] = [];
  page.on("requestfinished", async (request) => {
    const { responseBodySize } = await request.sizes();
    sizes.push({ type: request.resourceType(), bytes: responseBodySize, framework: /\/assets\/framework-[\w-]+\.js$/.test(request.url()) });
  });
  await page.goto(url, { waitUntil: "networkidle" });
  const css = await page.evaluate(() => [...document.querySelectorAll("style")].map((s) => s.textContent ?? "").join(""));
  await browser.close();
  const sum = (type: string) => sizes.filter((s) => s.type === type).reduce((total, s) => total + s.bytes, 0);
  return {
    encoding,
    htmlBytes: sum("document"),
    jsBytes: sum("script"),
    appJsBytes: sizes.filter((s) => s.type === "script" && !s.framework).reduce((total, s) => total + s.bytes, 0),
    jsFiles: sizes.filter((s) => s.type === "script").length,
    inlineCssBytes: encoding === "gzip" ? gzipSync(css, { level: 9 }).length : Buffer.byteLength(css),
    cssRequests: sizes.filter((s) => s.type === "stylesheet").length,
  };
}
