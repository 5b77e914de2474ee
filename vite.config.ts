import { createHash } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { builtinModules } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";
import { serviceWorkerPath } from "./common/offline.ts";

/** Folders the server process loads itself (Node runs their TypeScript): the server build imports them, never copies them. */
const runTimeFolders = ["server", "common"].map((folder) => path.join(import.meta.dirname, folder) + path.sep);

/**
 * One instance of each server module per process: routes reach `server/` and `common/` through
 * Node's own loader, as `server/main.ts` does, so a context key, a cache or a counter exists once.
 * The built bundle keeps a relative import; the dev server's module runner is handed a `file:` URL
 * that it leaves to Node (see `resolve.builtins` below).
 */
function serverModulesAtRunTime(): Plugin {
  return {
    name: "academy:server-modules-at-run-time",
    enforce: "pre",
    applyToEnvironment: (environment) => environment.config.consumer === "server",
    async resolveId(source, importer, options) {
      if (!importer || source.startsWith("\0") || source.startsWith("virtual:")) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved || resolved.external || !runTimeFolders.some((folder) => resolved.id.startsWith(folder))) return null;
      if (this.environment.mode === "dev") return { id: pathToFileURL(resolved.id).href, external: true };
      const { root, build } = this.environment.config;
      // A relative id stays as written: the path from the bundle's folder to the source file.
      return { id: path.relative(path.resolve(root, build.outDir), resolved.id).split(path.sep).join("/"), external: true };
    },
  };
}

/**
 * Writes the project files each bundle was made from to build/.inputs-<environment>.json (outside the
 * served folder), so a test can check that scripts/source-hash.ts hashes every one of them.
 */
function recordInputs(): Plugin {
  return {
    name: "academy:record-inputs",
    apply: "build",
    async generateBundle(_options, bundle) {
      const { root } = this.environment.config;
      const files = new Set(
        Object.values(bundle)
          .flatMap((output) => (output.type === "chunk" ? output.moduleIds : []))
          .filter((id) => path.isAbsolute(id) && !id.includes(`${path.sep}node_modules${path.sep}`))
          .map((id) => path.relative(root, id.split("?")[0] as string).split(path.sep).join("/")),
      );
      await mkdir(path.join(root, "build"), { recursive: true });
      await writeFile(path.join(root, "build", `.inputs-${this.environment.name}.json`), `${JSON.stringify([...files].toSorted(), null, 1)}\n`);
    },
  };
}

/**
 * The service worker and the offline page it keeps (app/offline/), written to the site's root:
 * /sw.js, /offline.html, /offline.css. The worker is stamped with a version of this build (a hash
 * of every file the browser gets), so a new deploy installs a new worker, which drops the old caches.
 */
function offlineSupport(): Plugin {
  const folder = path.join(import.meta.dirname, "app", "offline");
  return {
    name: "academy:offline-support",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "client",
    async generateBundle(_options, bundle) {
      const files = await Promise.all(["offline.html", "offline.css", "service-worker.js"].map((name) => readFile(path.join(folder, name), "utf8")));
      const [page, stylesheet, worker] = files as [string, string, string];
      const version = createHash("sha256");
      for (const name of Object.keys(bundle).toSorted()) version.update(name);
      for (const text of files) version.update(text);
      this.emitFile({ type: "asset", fileName: "offline.html", source: page });
      this.emitFile({ type: "asset", fileName: "offline.css", source: stylesheet });
      this.emitFile({ type: "asset", fileName: serviceWorkerPath.slice(1), source: `const buildVersion = "${version.digest("hex").slice(0, 16)}";\n${worker}` });
    },
  };
}

/** The frame every page shares, and the front page: the first script most visitors load. */
const framePages = /[\\/]app[\\/](root|routes[\\/]site[\\/]home)\.tsx/;

/** The public site's other pages. */
const publicPages = /[\\/]app[\\/]routes[\\/]site[\\/]/;

type ModuleGraph = { getModuleInfo(id: string): { importers: readonly string[] } | null };

/** Whether a module whose id `pages` matches imports the module, itself or through others. */
function usedBy(pages: RegExp, id: string, context: ModuleGraph, seen = new Set<string>()): boolean {
  if (pages.test(id)) return true;
  seen.add(id);
  return (context.getModuleInfo(id)?.importers ?? []).some((importer) => !seen.has(importer) && usedBy(pages, importer, context, seen));
}

/** Our own modules, and Vite's helper for loading a module with what it imports. */
const ownModules = /[\\/](app[\\/](components|lib)|common)[\\/]|^\0vite[\\/]preload-helper/;

export default defineConfig({
  plugins: [serverModulesAtRunTime(), recordInputs(), offlineSupport(), tailwindcss(), reactRouter()],
  build: {
    // Inline nothing into JS as data URLs: CSP and caching work on real files.
    assetsInlineLimit: 0,
  },
  environments: {
    ssr: {
      resolve: {
        // Node's own modules, as by default, and our run-time folders: the dev module runner imports a
        // "builtin" natively instead of evaluating its own copy.
        builtins: [...builtinModules, /^node:/, ...runTimeFolders.map((folder) => new RegExp(`^${pathToFileURL(folder).href.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`))],
      },
    },
    client: {
      build: {
        rolldownOptions: {
          output: {
            // Few, larger first-load files instead of thirty 1 KB ones: each request costs a round trip
            // on a slow phone connection. What our modules share goes to one of three files: "shared",
            // what the frame or the front page uses; "site", what the other public pages share; and
            // "signed-in", what four or more of the rest use (forms, dialogs, the account's parts). A
            // visitor's first page carries no account or back-office form, and no 1 KB file of its own.
            // What fewer screens use stays with them. The app's own script on / is 14.6 KB gzip in 6
            // files; 21.9 KB in 13 with one shared file, 39 KB in 6 when every component was one file,
            // 31 KB in 30 with none (npm run bench, "First load"). Route modules load lazily.
            codeSplitting: {
              groups: [
                { name: "framework", test: /node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/ },
                { name: (id, context) => (usedBy(framePages, id, context) ? "shared" : null), debugName: "shared", test: ownModules, minShareCount: 2 },
                { name: (id, context) => (usedBy(publicPages, id, context) ? "site" : null), debugName: "site", test: ownModules, minShareCount: 2 },
                { name: "signed-in", test: ownModules, minShareCount: 4 },
              ],
            },
          },
        },
      },
    },
  },
});
