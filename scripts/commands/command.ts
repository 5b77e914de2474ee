// What the operator's commands (rotate-key, staff) share: a sentence and an exit code on failure, and the server's configuration or that sentence.
import { ConfigError, loadConfig } from "../../server/config.ts";

/** Prints `message` for the person at the terminal and exits with `code` (2: the command was not understood). */
export function fail(message: string, code = 1): never {
  console.error(message);
  process.exit(code);
}

/** The configuration the server would start with, or the sentence saying what is wrong with it. */
export function configOrFail(): ReturnType<typeof loadConfig> {
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    fail(error.message);
  }
}
