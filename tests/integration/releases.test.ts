import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { version } from "../../server/version.ts";
import { projectRoot } from "./helpers.ts";

const read = (file: string) => readFile(path.join(projectRoot, file), "utf8");

/** Each release of CHANGELOG.md: its version and the migrations its "Migrates" paragraph names. */
async function releases(): Promise<{ version: string; migrates: string[] | "no" }[]> {
  const sections = (await read("CHANGELOG.md")).split(/^## /m).slice(1);
  return sections.map((section) => {
    const [, name = ""] = /^\[(\d+\.\d+\.\d+)\]/.exec(section) ?? [];
    const migrates = /\*\*Migrates:\*\* ([\s\S]*?)(?:\n\n|$)/.exec(section)?.[1] ?? "";
    return { version: name, migrates: migrates.startsWith("no") ? "no" : [...migrates.matchAll(/`(\d{4}_[a-z0-9_]+)`/g)].map((m) => m[1] as string) };
  });
}

describe("releases", () => {
  it("are numbered in semver, newest first, and the newest is the version package.json builds", async () => {
    const listed = await releases();
    expect(listed.length).toBeGreaterThan(0);
    for (const release of listed) expect(release.version).toMatch(/^\d+\.\d+\.\d+$/);
    const numbers = listed.map((r) => r.version.split(".").map(Number));
    for (let i = 1; i < numbers.length; i++) {
      const [a = [], b = []] = [numbers[i - 1], numbers[i]];
      expect((a[0] ?? 0) * 1e6 + (a[1] ?? 0) * 1e3 + (a[2] ?? 0)).toBeGreaterThan((b[0] ?? 0) * 1e6 + (b[1] ?? 0) * 1e3 + (b[2] ?? 0));
    }
    expect(listed[0]?.version).toBe((JSON.parse(await read("package.json")) as { version: string }).version);
    expect(version).toBe(listed[0]?.version);
  });

  it("each say whether they migrate, and every migration belongs to exactly one release", async () => {
    const listed = await releases();
    for (const release of listed) expect(release.migrates === "no" || release.migrates.length > 0, release.version).toBe(true);
    const named = listed.flatMap((r) => (r.migrates === "no" ? [] : r.migrates));
    const journal = JSON.parse(await read("server/db/migrations/meta/_journal.json")) as { entries: { tag: string }[] };
    expect(named.toSorted()).toEqual(journal.entries.map((e) => e.tag).toSorted());
  });

  it("are what academy --version prints, the CLI package's version kept to the server's", async () => {
    expect((JSON.parse(await read("cli/package.json")) as { version: string }).version).toBe(version);
    const { stdout } = await promisify(execFile)(process.execPath, ["cli/academy.ts", "--version"], { cwd: projectRoot });
    expect(stdout.trim()).toBe(version);
  });
});
