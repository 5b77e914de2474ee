import { styleText } from "node:util";
import { CliError, exitCodes } from "./client.ts";

/** Colour only on a terminal, and never with NO_COLOR set. */
export function coloured(stream: NodeJS.WriteStream = process.stdout): boolean {
  return stream.isTTY === true && !("NO_COLOR" in process.env && process.env.NO_COLOR !== "");
}

export function paint(format: Parameters<typeof styleText>[0], text: string, stream: NodeJS.WriteStream = process.stdout): string {
  return coloured(stream) ? styleText(format, text, { validateStream: false }) : text;
}

let fields: string[] | null = null;

/** `--json title,progress`: only these fields of each item (or of the one object) are printed. */
export function selectJsonFields(list: string | undefined): void {
  fields = list ? list.split(",").map((f) => f.trim()).filter(Boolean) : null;
}

let jqFilter: string | null = null;

/** `--jq <filter>`: the JSON goes through jq before it is printed (strings raw, as gh's --jq prints them). */
export function selectJqFilter(filter: string | undefined): void {
  jqFilter = filter ?? null;
}

/** Whether JSON was asked for (`--json`, or `--jq`, which implies it), judged from the words alone, for errors that come before (or without) the parse. */
export const jsonRequested = (argv: readonly string[] = process.argv) => argv.some((word) => word === "--json" || word.startsWith("--json=") || word === "--jq" || word.startsWith("--jq="));

/**
 * `value` through jq: the real jq, compiled to WebAssembly (jq-wasm, loaded only when a filter is
 * given), with `-r` so strings come out as text. A filter jq refuses or that fails on this JSON is a
 * usage error, in jq's words.
 */
async function throughJq(value: unknown, filter: string): Promise<string> {
  const jq = await import("jq-wasm");
  try {
    return await jq.raw(JSON.stringify(value), filter, ["-r"]);
  } catch (error) {
    const said = (error as Error).message.replace(/^Failed to execute raw query: /, "").replace(/^jq: error(?: \(at [^)]*\))?: /, "").split("\n")[0];
    throw new CliError(`The --jq filter ${JSON.stringify(filter)} failed: ${said}`, exitCodes.usage);
  }
}

function pick(item: unknown, wanted: string[]): unknown {
  if (typeof item !== "object" || item === null) return item;
  const record = item as Record<string, unknown>;
  const unknown = wanted.find((f) => !(f in record));
  if (unknown) throw new CliError(`There is no JSON field "${unknown}" here. Choose from: ${Object.keys(record).join(", ")}.`, exitCodes.usage);
  return Object.fromEntries(wanted.map((f) => [f, record[f]]));
}

/**
 * The value as JSON on stdout; with fields chosen, each item of a list (`{ notes: [...] }`) or the
 * one object keeps only those; with a --jq filter, what jq makes of that.
 */
export async function printJson(value: unknown): Promise<void> {
  let shown = value;
  if (fields && typeof value === "object" && value !== null) {
    const entries = Object.entries(value);
    const [only] = entries;
    const wanted = fields;
    shown = entries.length === 1 && only && Array.isArray(only[1]) ? { [only[0]]: only[1].map((item) => pick(item, wanted)) } : pick(value, wanted);
  }
  if (jqFilter === null) return void process.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
  const out = await throughJq(shown, jqFilter);
  if (out !== "") process.stdout.write(out.endsWith("\n") ? out : `${out}\n`);
}

/** The width to fit a table to on a terminal: COLUMNS when set (as shells export it), else the terminal's. */
function terminalWidth(): number {
  const columns = Number(process.env.COLUMNS);
  return Number.isInteger(columns) && columns > 0 ? columns : process.stdout.columns || 80;
}

/**
 * Rows with their identifiers last (the last `identifiers` columns, never shortened). On a
 * terminal, aligned columns fitted to its width: the widest other column is shortened with "…".
 * Piped, tab-separated lines, headings first, nothing shortened, for cut, awk and sort.
 */
export function printTable(headings: string[], rows: string[][], identifiers = 1): void {
  if (!process.stdout.isTTY) {
    for (const row of [headings, ...rows]) process.stdout.write(`${row.join("\t")}\n`);
    return;
  }
  const widths = headings.map((heading, i) => Math.max(heading.length, ...rows.map((row) => (row[i] ?? "").length)));
  const flexible = widths.slice(0, widths.length - identifiers).reduce((widest, w, i, all) => (w > (all[widest] ?? 0) ? i : widest), 0);
  const others = widths.reduce((sum, w, i) => (i === flexible ? sum : sum + w + 2), 0);
  widths[flexible] = Math.max(10, Math.min(widths[flexible] ?? 0, terminalWidth() - others));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => {
        const width = widths[i] ?? 0;
        const fitted = cell.length > width ? `${cell.slice(0, width - 1)}…` : cell;
        return i === cells.length - 1 ? fitted : fitted.padEnd(width);
      })
      .join("  ");
  process.stdout.write(`${paint("bold", line(headings))}\n`);
  for (const row of rows) process.stdout.write(`${line(row)}\n`);
}
