import { styleText } from "node:util";

/** Colour only on a terminal, and never with NO_COLOR set. */
export function coloured(stream: NodeJS.WriteStream = process.stdout): boolean {
  return stream.isTTY === true && !("NO_COLOR" in process.env && process.env.NO_COLOR !== "");
}

export function paint(format: Parameters<typeof styleText>[0], text: string, stream: NodeJS.WriteStream = process.stdout): string {
  return coloured(stream) ? styleText(format, text, { validateStream: false }) : text;
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/**
 * Rows as aligned columns, fitted to the terminal's width: the last column is shortened with "…"
 * when the line would not fit (80 columns when not a terminal).
 */
export function printTable(headings: string[], rows: string[][]): void {
  const width = process.stdout.columns || 80;
  const widths = headings.map((heading, i) => Math.max(heading.length, ...rows.map((row) => (row[i] ?? "").length)));
  const fixed = widths.slice(0, -1).reduce((sum, w) => sum + w + 2, 0);
  const last = Math.max(10, width - fixed);
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => {
        if (i === cells.length - 1) return cell.length > last ? `${cell.slice(0, last - 1)}…` : cell;
        return cell.padEnd(widths[i] ?? 0);
      })
      .join("  ");
  process.stdout.write(`${paint("bold", line(headings))}\n`);
  for (const row of rows) process.stdout.write(`${line(row)}\n`);
}
