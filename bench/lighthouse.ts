import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromiumFlags, chromiumPath, root } from "./server.ts";

export interface LighthouseScores {
  path: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
}

/** Lighthouse's default (mobile, simulated throttling) run of one page, with `headers` (a session cookie) if given; one retry for its occasional trace failures. */
export function lighthouse(url: string, headers?: Record<string, string>, attempt = 1): LighthouseScores {
  const out = path.join(mkdtempSync(path.join(tmpdir(), "academy-lh-")), "report.json");
  const result = spawnSync(
    path.join(root, "node_modules/.bin/lighthouse"),
    [
      url,
      "--quiet",
      "--output=json",
      `--output-path=${out}`,
      "--only-categories=performance,accessibility,best-practices,seo",
      `--chrome-flags=${chromiumFlags.join(" ")}`,
      ...(headers ? [`--extra-headers=${JSON.stringify(headers)}`] : []),
    ],
    { env: { ...process.env, CHROME_PATH: chromiumPath }, stdio: ["ignore", "ignore", "inherit"] },
  );
  if (result.status !== 0) {
    if (attempt < 2) return lighthouse(url, headers, attempt + 1);
    throw new Error(`lighthouse failed for ${url}`);
  }
  const report = JSON.parse(readFileSync(out, "utf8")) as {
    categories: Record<string, { score: number }>;
    audits: Record<string, { numericValue: number }>;
  };
  const score = (id: string) => Math.round((report.categories[id]?.score ?? 0) * 100);
  const metric = (id: string) => Math.round(report.audits[id]?.numericValue ?? Number.NaN);
  return {
    path: new URL(url).pathname,
    performance: score("performance"),
    accessibility: score("accessibility"),
    bestPractices: score("best-practices"),
    seo: score("seo"),
    fcpMs: metric("first-contentful-paint"),
    lcpMs: metric("largest-contentful-paint"),
    tbtMs: metric("total-blocking-time"),
    cls: report.audits["cumulative-layout-shift"]?.numericValue ?? Number.NaN,
  };
}
