// One instance of each server module per process: the React Router server build imports server/
// and common/ at run time instead of carrying its own copy of them (vite.config.ts).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { migratedDataDir } from "../support/database-templates.ts";
import { listeningUrl, startProcess } from "../support/server-process.ts";
import { projectRoot, startTestApp } from "./helpers.ts";

const runTimeFolders = ["server", "common"];

function sourceFiles(folder: string): string[] {
  const root = path.join(projectRoot, folder);
  let entries;
  try {
    entries = readdirSync(root, { recursive: true, withFileTypes: true });
  } catch {
    return [];
  }
  return entries.filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.name.endsWith(".test.ts")).map((e) => path.join(e.parentPath, e.name));
}

/** Names a module declares at its top level (exported or not). */
function topLevelNames(files: string[]): Set<string> {
  const declaration = /^(?:export )?(?:default )?(?:async )?(?:function\*? |class |const |let )(\w+)/gm;
  return new Set(files.flatMap((file) => [...readFileSync(file, "utf8").matchAll(declaration)].map((match) => match[1] as string)));
}

describe("one copy of the server code", () => {
  it("the server build imports server/ and common/ instead of declaring their code again", () => {
    const bundle = readFileSync(path.join(projectRoot, "build/server/index.js"), "utf8");
    const exported = new Set(
      runTimeFolders.flatMap(sourceFiles).flatMap((file) => [...readFileSync(file, "utf8").matchAll(/^export (?:async )?(?:function\*? |class |const )(\w+)/gm)].map((m) => m[1] as string)),
    );
    // A name app/ declares for itself may appear in the bundle as that declaration.
    const appNames = topLevelNames(sourceFiles("app"));
    const copied = [...exported].filter((name) => !appNames.has(name) && new RegExp(`^(?:async )?(?:function\\*? |class |const |let |var )${name}\\b`, "m").test(bundle));
    expect(copied).toEqual([]);
    expect(bundle).toMatch(/from "\.\.\/\.\.\/server\/context\.ts"/);
  });

  it("the browser bundle is made from no server/ module: what a page shows of the server's rules lives in common/", async () => {
    // The build lists each bundle's modules (vite.config.ts, recordInputs).
    const modules = JSON.parse(readFileSync(path.join(projectRoot, "build/.inputs-client.json"), "utf8")) as string[];
    expect(modules).toContain("app/root.tsx");
    expect(modules.filter((file) => file.startsWith("server/"))).toEqual([]);
  });

  it("a page renders with the services the HTTP layer set on the server's own context key", async () => {
    // createHttpApp sets AppServices on the key it imports from server/context.ts; a loader reading a
    // second copy of that key would fail every page with "No value found for context".
    const test = await startTestApp();
    try {
      const course = test.catalog.courses[0];
      const page = await test.app.request(`http://academy.test/course/${course?.id}`, { headers: { accept: "text/html" } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(course?.title);
    } finally {
      await test.close();
    }
  });

  it("the development server renders pages with the HTTP layer's context key too", { timeout: 180_000 }, async () => {
    const server = startProcess({ PORT: "0", DATA_DIR: await migratedDataDir("academy-dev-") }, ["server/dev.ts"]);
    try {
      const url = await listeningUrl(server);
      const page = await fetch(`${url}/courses`, { headers: { accept: "text/html" } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("<h1");
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
    }
  });
});
