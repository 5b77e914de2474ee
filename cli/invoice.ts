import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { answer, apiClient, CliError } from "./client.ts";

/** The browsers that can print a page to PDF without a window, by the names they install under. */
const browsers = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "microsoft-edge"];

function findBrowser(): string | null {
  if (process.env.CHROME_PATH && existsSync(process.env.CHROME_PATH)) return process.env.CHROME_PATH;
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    for (const name of browsers) {
      const candidate = path.join(dir, name);
      if (existsSync(candidate)) return candidate;
    }
  }
  return null;
}

/** The tax invoice of a paid order as one self-contained HTML file, as the server renders it. */
export async function invoiceHtml(server: string, orderId: string): Promise<string> {
  // Served with the pages, not under /api/v1: the document gives the path its own server, the site.
  return answer(apiClient(server).GET("/invoices/{orderId}", { baseUrl: server, params: { path: { orderId } }, headers: { accept: "text/html" }, parseAs: "text" }));
}

/** Prints the invoice to a PDF file with a local Chromium or Chrome (set CHROME_PATH to choose one). */
export async function invoicePdf(html: string, output: string): Promise<void> {
  const browser = findBrowser();
  if (!browser) throw new CliError("--pdf needs Chromium or Google Chrome on this machine (or CHROME_PATH). Use --html instead and print it to PDF from your browser.");
  const dir = await mkdtemp(path.join(tmpdir(), "academy-invoice-"));
  try {
    const page = path.join(dir, "invoice.html");
    await writeFile(page, html);
    const flags = ["--headless", "--disable-gpu", "--no-pdf-header-footer", `--print-to-pdf=${path.resolve(output)}`];
    // Chromium refuses to run as root with its sandbox.
    if (process.getuid?.() === 0) flags.push("--no-sandbox");
    const run = spawnSync(browser, [...flags, pathToFileURL(page).href], { stdio: "ignore", timeout: 60_000 });
    if (run.status !== 0 || !existsSync(output)) throw new CliError(`${path.basename(browser)} could not print the invoice. Use --html and print it from your browser instead.`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
