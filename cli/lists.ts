import { type Command, InvalidArgumentError, Option } from "commander";
import { CliError, exitCodes } from "./client.ts";

/** What every list command takes: `--limit`, `--sort` and `--desc`. */
export interface ListOptions {
  limit?: number;
  sort?: string;
  desc?: boolean;
}

/** Adds `--limit <n>`, `--sort <field>` and `--desc` to a list command; `sortExample` is a field its items have. */
export function withListOptions(command: Command, sortExample: string): Command {
  return command
    .addOption(
      new Option("--limit <n>", "show at most n of them").argParser((value: string) => {
        const n = Number(value);
        if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("Give a whole number from 1, like --limit 10.");
        return n;
      }),
    )
    .addOption(new Option("--sort <field>", `sort by one of the fields --json prints, like --sort ${sortExample}`))
    .addOption(new Option("--desc", "with --sort: the largest, latest or last in the alphabet first"));
}

/** Whether a list must be read whole before it is cut to --limit: a filter or a sort needs every item. */
export const readsWhole = (options: ListOptions, filtered: boolean) => filtered || options.sort !== undefined;

/** What an item is sorted by: money by its amount, booleans false first; null (nothing there) sorts last either way. */
function sortValue(value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "number" || typeof value === "string") return value;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "object" && "amount" in value && typeof value.amount === "number") return value.amount;
  return JSON.stringify(value);
}

function compare(a: string | number, b: string | number): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a).localeCompare(String(b), "en", { sensitivity: "base", numeric: true });
}

/**
 * The list as asked: sorted by `--sort` (ascending, or `--desc`; ties keep the server's order),
 * then cut to `--limit`. Dates are ISO 8601, so they sort as time does. A field the items do not
 * have is refused with the fields they do.
 */
export function ordered<T extends object>(items: T[], options: ListOptions): T[] {
  if (options.desc && options.sort === undefined) throw new CliError("--desc turns a --sort around: give the field too, like --sort title --desc.", exitCodes.usage);
  let shown = items;
  const field = options.sort;
  if (field !== undefined && items[0]) {
    if (!(field in items[0])) throw new CliError(`There is no field "${field}" to sort by. Choose from: ${Object.keys(items[0]).join(", ")}.`, exitCodes.usage);
    const direction = options.desc ? -1 : 1;
    shown = items.toSorted((x, y) => {
      const a = sortValue((x as Record<string, unknown>)[field]);
      const b = sortValue((y as Record<string, unknown>)[field]);
      if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
      return direction * compare(a, b);
    });
  }
  return options.limit ? shown.slice(0, options.limit) : shown;
}

/** Text without case or accents: "Café" and "cafe" read the same. */
const plain = (text: string) => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

/** Whether `text` has `search` in it, as a person means it: case and accents aside. */
export function mentions(text: string | null | undefined, search: string): boolean {
  return text !== null && text !== undefined && plain(text).includes(plain(search));
}

/**
 * The values of a union the API declares, for `--status` choices: the compiler refuses a list that
 * misses one or names one the API does not have, so the choices follow cli/api-schema.ts.
 */
export const everyValue =
  <T extends string>() =>
  <const V extends readonly T[]>(...values: V & ([T] extends [V[number]] ? unknown : never)): readonly T[] =>
    values;
