import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { projectRoot } from "./helpers.ts";

/** What an operator reads: the README, docs/, the example settings and the deployment files. */
async function operatorTexts(): Promise<{ file: string; text: string }[]> {
  const files = [
    "README.md",
    "CHANGELOG.md",
    ".env.example",
    ".env.production.example",
    ...(await readdir(path.join(projectRoot, "docs"))).filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`),
    ...(await readdir(path.join(projectRoot, "deploy"))).filter((name) => /\.(conf|service)$/.test(name)).map((name) => `deploy/${name}`),
  ];
  return Promise.all(files.map(async (file) => ({ file, text: await readFile(path.join(projectRoot, file), "utf8") })));
}

const scripts = async () => (JSON.parse(await readFile(path.join(projectRoot, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;

describe("the operator's documents", () => {
  it("name only npm scripts that exist", async () => {
    const known = await scripts();
    const missing: string[] = [];
    for (const { file, text } of await operatorTexts()) {
      for (const [, name] of text.matchAll(/npm run (?:--silent )?([a-z][a-z-]*)/g)) if (!(name && name in known)) missing.push(`${file}: npm run ${name}`);
    }
    expect(missing).toEqual([]);
  });

  it("name only files of the project that exist", async () => {
    const missing: string[] = [];
    for (const { file, text } of await operatorTexts()) {
      for (const [, named] of text.matchAll(/`((?:deploy|scripts|docs|tests|bench|server|cli|app|common)\/[A-Za-z0-9_./-]*[A-Za-z0-9_/-])`/g)) {
        // deploy/tls/ holds the operator's own certificate, never committed.
        if (named?.startsWith("deploy/tls/")) continue;
        if (!existsSync(path.join(projectRoot, named as string))) missing.push(`${file}: ${named}`);
      }
      // Markdown links, relative to the page.
      for (const [, named] of file.endsWith(".md") ? text.matchAll(/\]\(((?:\.\.\/)?[A-Za-z0-9_./-]+\.(?:md|example))\)/g) : []) {
        const resolved = path.resolve(path.dirname(path.join(projectRoot, file)), named as string);
        if (!existsSync(resolved)) missing.push(`${file}: ${named}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("give commands whose --help answers with their usage", async () => {
    for (const script of ["backup", "restore", "rotate-key", "staff"]) {
      const { stdout } = await promisify(execFile)(process.execPath, [`scripts/${script}.ts`, "--help"], { cwd: projectRoot });
      expect(stdout, script).toMatch(new RegExp(`Usage: .*npm run ${script}`));
    }
  });

  it("run the server with npm start's Node flags in the image, the systemd unit and the deployment guide", async () => {
    const flags = (await scripts()).start?.split(/\s+/).filter((word) => word.startsWith("--")) ?? [];
    expect(flags).toContain("--no-memory-reducer");
    const dockerfile = await readFile(path.join(projectRoot, "Dockerfile"), "utf8");
    const imageCommand = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)?.[1] ?? "[]") as string[];
    expect(imageCommand.filter((word) => word.startsWith("--"))).toEqual(flags);
    const unit = await readFile(path.join(projectRoot, "deploy/academy.service"), "utf8");
    expect(/^ExecStart=(.*)$/m.exec(unit)?.[1]?.split(/\s+/).filter((word) => word.startsWith("--"))).toEqual(flags);
    const guide = await readFile(path.join(projectRoot, "docs/operations.md"), "utf8");
    expect(guide).toContain(`\`node ${flags.join(" ")} server/main.ts\``);
  });
});
