import { parse } from "yaml";

export interface Document {
  data: unknown;
  body: string;
}

/** Splits a Markdown file into its YAML front-matter and body. */
export function splitFrontMatter(source: string): Document {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(source);
  if (!match) throw new Error("missing front-matter: the file must start with a --- block");
  return { data: parse(match[1] ?? "") as unknown, body: match[2] ?? "" };
}
