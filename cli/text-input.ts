import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { text } from "node:stream/consumers";
import { CliError, exitCodes } from "./client.ts";

/**
 * A note's text, from the first of: --file (or "-" for stdin), standard input when it is piped,
 * or $VISUAL / $EDITOR opened on `initial`.
 */
export async function noteText(options: { file?: string | undefined; initial: string }): Promise<string> {
  if (options.file === "-") return text(process.stdin);
  if (options.file) {
    try {
      return await readFile(options.file, "utf8");
    } catch {
      throw new CliError(`Could not read ${options.file}. Check the path, or pass - to read standard input.`, exitCodes.usage);
    }
  }
  if (!process.stdin.isTTY) return text(process.stdin);
  const editor = process.env.VISUAL || process.env.EDITOR;
  if (!editor) throw new CliError("Set $EDITOR (for example export EDITOR=nano), or pass the text with --file or on standard input.", exitCodes.usage);
  const dir = await mkdtemp(path.join(tmpdir(), "academy-note-"));
  const file = path.join(dir, "note.md");
  try {
    await writeFile(file, options.initial, { mode: 0o600 });
    const [command = editor, ...args] = editor.split(" ");
    const result = spawnSync(command, [...args, file], { stdio: "inherit" });
    if (result.status !== 0) throw new CliError(`${editor} did not finish cleanly, so nothing was saved.`);
    return await readFile(file, "utf8");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
