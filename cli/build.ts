import { chmod } from "node:fs/promises";
import path from "node:path";
import { build } from "esbuild";

/**
 * Compiles the CLI to one JavaScript file, commander and common/ included, so the package
 * `npm pack` makes installs with no dependencies and runs on the Node versions its engines name.
 */
const outfile = path.join(import.meta.dirname, "dist", "academy.js");
await build({
  entryPoints: [path.join(import.meta.dirname, "academy.ts")],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20.12",
  logLevel: "warning",
});
await chmod(outfile, 0o755);
