import { describe, expect, it } from "vitest";
import { runNode } from "../support/node-process.ts";
import { projectRoot } from "./helpers.ts";

/**
 * A process that logs every module it loads and the format it loads it in, then imports the whole
 * server (serve.ts and what it imports, every package included) and an operator's command's database
 * code, with server/module-resolution.ts first or not at all.
 */
const loadEverything = (withHook: boolean) => `
import { registerHooks } from "node:module";
const loaded = [];
registerHooks({
  load(url, context, nextLoad) {
    const result = nextLoad(url, context);
    loaded.push(url + " " + result.format);
    return result;
  },
});
${withHook ? 'await import("./server/module-resolution.ts");' : ""}
await import("./server/serve.ts");
await import("./server/db/backup/index.ts");
console.log(JSON.stringify(loaded.filter((entry) => !entry.includes("/server/module-resolution.ts")).sort()));
`;

async function modulesLoaded(withHook: boolean): Promise<string[]> {
  const { code, stdout, stderr } = await runNode(["--input-type=module", "--eval", loadEverything(withHook)], { cwd: projectRoot });
  expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
  return JSON.parse(stdout) as string[];
}

describe("Node's module resolution inside packages (server/module-resolution.ts)", { timeout: 120_000 }, () => {
  it("loads the very same files, in the same formats, as Node does on its own", async () => {
    const [own, hooked] = await Promise.all([modulesLoaded(false), modulesLoaded(true)]);
    expect(hooked).toEqual(own);
    // What the hook answers for: drizzle-orm's query builder, a few hundred files, each loaded once.
    const drizzle = hooked.filter((entry) => entry.includes("/node_modules/drizzle-orm/"));
    expect(drizzle.length).toBeGreaterThan(100);
    expect(new Set(drizzle.map((entry) => entry.split(" ")[0])).size).toBe(drizzle.length);
    expect(drizzle.every((entry) => entry.endsWith(" module"))).toBe(true);
  });
});
