// Imported first by every entry point (server/main.ts, the operator's scripts), before any module that
// loads drizzle-orm; see docs/decisions/025-module-resolution-inside-packages.md.
//
// For each file a package in node_modules imports by a relative path, Node 24 looks up the package's
// type and, on the way, parses the package's whole "exports" map again (package_json_reader spreads an
// object whose "exports" is parsed lazily, on read). drizzle-orm's package.json is 179 KB and its query
// builder is a few hundred files: about half a second of a core at every start of a process. This hook
// answers those imports itself, with each package.json read once: the same file Node would find (its
// real path), the same format ("type" of the nearest package.json), and Node's own resolution for
// everything else.
import { readFileSync, realpathSync, statSync } from "node:fs";
import { registerHooks, type ModuleFormat } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The format of a `.js` file in each folder, from the nearest package.json's "type"; undefined leaves it to Node (no "type": Node detects the syntax). */
const formatOfFolder = new Map<string, ModuleFormat | undefined>();

function jsFormatIn(folder: string): ModuleFormat | undefined {
  if (formatOfFolder.has(folder)) return formatOfFolder.get(folder);
  let format: ModuleFormat | undefined;
  let manifest: string | undefined;
  try {
    manifest = readFileSync(path.join(folder, "package.json"), "utf8");
  } catch {
    manifest = undefined;
  }
  if (manifest !== undefined) {
    const { type } = JSON.parse(manifest) as { type?: unknown };
    format = type === "module" ? "module" : type === "commonjs" ? "commonjs" : undefined;
  } else if (path.basename(folder) !== "node_modules" && path.dirname(folder) !== folder) {
    format = jsFormatIn(path.dirname(folder));
  }
  formatOfFolder.set(folder, format);
  return format;
}

const relativeJs = /^\.\.?\/[^?#]*\.js$/;

/** The real path of the file `specifier` names from `parent`, as Node would resolve it; undefined when it is not a file. */
function realFile(specifier: string, parent: string): string | undefined {
  try {
    const file = realpathSync(fileURLToPath(new URL(specifier, parent)));
    return statSync(file).isFile() ? file : undefined;
  } catch {
    return undefined;
  }
}

registerHooks({
  resolve(specifier, context, nextResolve) {
    const parent = context.parentURL;
    if (parent?.startsWith("file:") && parent.includes("/node_modules/") && relativeJs.test(specifier)) {
      const file = realFile(specifier, parent);
      const format = file === undefined ? undefined : jsFormatIn(path.dirname(file));
      if (file !== undefined && format !== undefined) return { url: pathToFileURL(file).href, format, shortCircuit: true };
    }
    return nextResolve(specifier, context);
  },
});
