import { chmod } from "node:fs/promises";
import path from "node:path";
import { build } from "esbuild";

/**
 * Compiles the CLI to one JavaScript file, commander, openapi-fetch, jq-wasm and common/ included, so the package
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
  // jq-wasm's Emscripten loader is CommonJS that reads require, __filename and __dirname on Node.
  banner: {
    js: [
      'import { createRequire as academyCreateRequire } from "node:module";',
      'import { fileURLToPath as academyFileURLToPath } from "node:url";',
      "const require = academyCreateRequire(import.meta.url);",
      "const __filename = academyFileURLToPath(import.meta.url);",
      'const __dirname = academyFileURLToPath(new URL(".", import.meta.url));',
    ].join("\n"),
  },
});
await chmod(outfile, 0o755);
