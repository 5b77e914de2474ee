import { spawn } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sourceHash, sourceInputs, stampFile } from "../../scripts/source-hash.ts";
import { freePort } from "../support/free-port.ts";
import { startProcess } from "../support/server-process.ts";
import { projectRoot } from "./helpers.ts";

const tempDir = () => mkdtemp(path.join(tmpdir(), "academy-start-"));

/** Runs an npm script of the project from `cwd`, as an operator in that folder would; its exit code and output. */
function npm(args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  const { NODE_ENV: _mode, ...inherited } = process.env;
  const child = spawn("npm", args, { cwd, env: { ...inherited, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, output })));
}

describe("npm run build and npm start", () => {
  it("records the sources a build was made from, so the first npm start after npm run build serves it as built", async () => {
    // npm test builds before the integration tests run.
    expect(await readFile(stampFile(), "utf8")).toBe(await sourceHash());
  });

  it("hashes every project file the client and server bundles were made from", async () => {
    // The build lists the modules of each bundle (vite.config.ts, recordInputs).
    const made = await Promise.all(["client", "ssr"].map(async (name) => JSON.parse(await readFile(path.join(projectRoot, `build/.inputs-${name}.json`), "utf8")) as string[]));
    expect(made.flat().length).toBeGreaterThan(50);
    const unhashed = made.flat().filter((file) => !sourceInputs.some((input) => file === input || file.startsWith(`${input}/`)));
    expect(unhashed).toEqual([]);
  });

  it("counts a change to code the pages share as a change to the build's sources, and not one to server/, which the server loads itself", async () => {
    const root = await tempDir();
    await mkdir(path.join(root, "server"));
    await mkdir(path.join(root, "common"));
    await mkdir(path.join(root, "app"));
    await writeFile(path.join(root, "app/root.tsx"), "export default 1;\n");
    await writeFile(path.join(root, "common/limits.ts"), "export const days = 7;\n");
    await writeFile(path.join(root, "server/rules.ts"), "export const days = 7;\n");
    const before = await sourceHash(root);
    await writeFile(path.join(root, "server/rules.ts"), "export const days = 8;\n");
    expect(await sourceHash(root)).toBe(before);
    await writeFile(path.join(root, "common/limits.ts"), "export const days = 8;\n");
    expect(await sourceHash(root)).not.toBe(before);
  });

  it("reads the settings in .env of the folder it is started from, and refuses development mode on a public address", async () => {
    // An operator's checkout: the project's package.json and programs, and their own .env.
    const checkout = await tempDir();
    await copyFile(path.join(projectRoot, "package.json"), path.join(checkout, "package.json"));
    for (const linked of ["scripts", "node_modules"]) await symlink(path.join(projectRoot, linked), path.join(checkout, linked));
    await writeFile(
      path.join(checkout, ".env"),
      `NODE_ENV=development\nPUBLIC_URL=https://academy.example\nDATA_DIR=${await tempDir()}\nAUTH_SECRET=${"s".repeat(40)}\n`,
    );
    const started = await npm(["start"], checkout, { PORT: "0" });
    expect(started.output).not.toContain("building");
    expect(started.output).toContain("PUBLIC_URL=https://academy.example is not this machine, and NODE_ENV=development:");
    expect(started.code).toBe(1);
  }, 60_000);

  it("says in a sentence, with the password hidden, when DATABASE_URL leads nowhere", async () => {
    const port = await freePort();
    const server = startProcess({ DATA_DIR: await tempDir(), PORT: "0", DATABASE_URL: `postgres://academy:secret-word@127.0.0.1:${port}/academy` });
    const code = await server.exited;
    const output = server.output();
    expect(output).toContain(
      `Cannot open the database at DATABASE_URL (postgres://academy:****@127.0.0.1:${port}/academy): nothing accepts connections there (connect ECONNREFUSED 127.0.0.1:${port}). Check that PostgreSQL runs there`,
    );
    expect(output).not.toContain("secret-word");
    expect(output).not.toMatch(/\n\s+at /);
    expect(code).toBe(1);
  }, 60_000);

  it("says where it is running: PUBLIC_URL, and the address it listens on", async () => {
    const port = await freePort();
    const server = startProcess({ DATA_DIR: await tempDir(), PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` });
    try {
      await expect.poll(server.output, { timeout: 90_000, interval: 200 }).toContain(`Academy is running at http://127.0.0.1:${port} (listening on 127.0.0.1:${port})`);
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
    }
  }, 120_000);
});
