import { readFileSync } from "node:fs";
import path from "node:path";

/** Academy's release (package.json, semver; CHANGELOG.md says what each one changed and whether it migrates). */
export const version = (JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../package.json"), "utf8")) as { version: string }).version;
