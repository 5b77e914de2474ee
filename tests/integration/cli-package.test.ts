import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshConfig, runCli, serveTestApp, type ServedApp } from "./cli-run.ts";
import { projectRoot } from "./helpers.ts";

const run = promisify(execFile);

let served: ServedApp;
beforeAll(async () => {
  served = await serveTestApp();
});
afterAll(() => served.close());

/** docs/cli.md's install block and its npx line, as a reader would type them. */
async function documentedInstall(): Promise<{ block: string[][]; npx: string[] }> {
  const doc = await readFile(path.join(projectRoot, "docs/cli.md"), "utf8");
  const block = /```sh\n(npm pack[^`]*)```/.exec(doc)?.[1] ?? "";
  const npx = /`(npx --package [^`]+)`/.exec(doc)?.[1] ?? "";
  return { block: block.trim().split("\n").map((line) => line.split(" ")), npx: npx.split(" ") };
}

const local = (word: string) => (word === "./cli" ? path.join(projectRoot, "cli") : word);

describe("the CLI package", () => {
  it("packs, installs with npm install -g into an empty prefix offline, and runs as academy, as docs/cli.md shows", { timeout: 180_000 }, async () => {
    const work = await mkdtemp(path.join(tmpdir(), "academy-cli-pack-"));
    // Not the settings of the npm that may have started these tests; npm's cache and logs stay in the test's folder; --offline proves the tarball needs nothing from a registry.
    const inherited = Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith("npm_"));
    const npmEnv = { ...Object.fromEntries(inherited), npm_config_cache: path.join(work, "npm-cache"), npm_config_update_notifier: "false" };
    const prefix = path.join(work, "prefix");
    await mkdir(prefix);
    const academy = path.join(prefix, "bin/academy");
    const { version } = JSON.parse(await readFile(path.join(projectRoot, "package.json"), "utf8")) as { version: string };

    const { block, npx } = await documentedInstall();
    expect(block.map((words) => words.slice(0, 2).join(" "))).toEqual(["npm pack", "npm install", "academy --version"]);
    // The commands run in a folder of the test's own, so ./cli is this checkout's, and the install goes to the empty prefix.
    const [pack = [], install = [], versionCommand = []] = block;
    await run("npm", pack.slice(1).map(local), { cwd: work, env: npmEnv });
    expect(await readdir(work)).toContain(`academy-cli-${version}.tgz`);
    await run("npm", [...install.slice(1), "--prefix", prefix, "--offline", "--no-audit", "--no-fund"], { cwd: work, env: npmEnv });

    const installed = path.join(prefix, "lib/node_modules/academy-cli");
    // Only the compiled CLI ships: no TypeScript, nothing of the server, no dependency to fetch.
    expect((await readdir(installed)).toSorted()).toEqual(["dist", "package.json"]);
    const bundle = await readFile(path.join(installed, "dist/academy.js"), "utf8");
    expect(bundle.startsWith("#!/usr/bin/env node\n")).toBe(true);
    expect(bundle).not.toMatch(/from "(commander|openapi-fetch|jq-wasm|\.\.?\/)/);

    expect(await runCli([academy], versionCommand.slice(1))).toMatchObject({ code: 0, stdout: `${version}\n` });
    const config = await freshConfig();
    const whoami = await runCli([academy], ["whoami", "--server", served.url], { XDG_CONFIG_HOME: config });
    expect(whoami.code).toBe(3);
    expect(whoami.stderr).toBe(`Error: You are not signed in to ${served.url}. Run academy login first, or give an API key with ACADEMY_TOKEN or --token.\n`);
    // The public catalogue through the jq the bundle carries (WebAssembly, loaded on first use).
    const counted = await runCli([academy], ["courses", "--server", served.url, "--jq", ".courses | length"], { XDG_CONFIG_HOME: config });
    expect(counted.code, counted.stderr).toBe(0);
    expect(Number(counted.stdout)).toBeGreaterThan(0);

    expect(npx.slice(0, 2)).toEqual(["npx", "--package"]);
    const viaNpx = await run("npx", ["--yes", "--offline", ...npx.slice(1)], { cwd: work, env: npmEnv });
    expect(viaNpx.stdout).toBe(`${version}\n`);
  });
});
