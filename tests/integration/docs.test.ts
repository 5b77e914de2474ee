// The map and the decision records a newcomer reads first say what the code does.
import { execFile } from "node:child_process";
import { cp, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { projectRoot } from "./helpers.ts";

const read = (file: string) => readFile(path.join(projectRoot, file), "utf8");

describe("docs/decisions", () => {
  it("lists every record in its index under the record's own title, and marks the superseded ones", async () => {
    const index = await read("docs/decisions/README.md");
    const records = (await readdir(path.join(projectRoot, "docs/decisions"))).filter((name) => /^\d{3}-.*\.md$/.test(name)).toSorted();
    expect(records.length).toBeGreaterThan(20);
    for (const name of records) {
      const text = await read(`docs/decisions/${name}`);
      const heading = /^# (\d{3}) — (.+)$/m.exec(text);
      expect(heading?.[1], name).toBe(name.slice(0, 3));
      const row = index.split("\n").find((line) => line.includes(`](${name})`));
      expect(row, name).toContain(`| ${heading?.[2]} |`);
      const supersededBy = /^\*\*Superseded by \[(\d{3})\]/m.exec(text)?.[1];
      expect(row, name).toContain(supersededBy ? `Superseded by ${supersededBy}` : "Accepted");
    }
  });
});

describe("docs/architecture.md", () => {
  it("describes each folder of the code and each area of app/routes", async () => {
    const map = await read("docs/architecture.md");
    for (const folder of ["app/routes/", "app/components/", "app/components/ui/", "app/lib/", "common/", "server/db/", "server/http/", "server/jobs/", "cli/", "content/", "scripts/", "tests/", "bench/", "deploy/"]) {
      expect(map, folder).toContain(`\`${folder}`);
    }
    const areas = (await readdir(path.join(projectRoot, "app/routes"), { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
    const routeTable = await read("app/routes.ts");
    for (const area of areas) expect(routeTable, area).toContain(`"routes/${area}/`);
    const domains = (await readdir(path.join(projectRoot, "server"), { withFileTypes: true }))
      .filter((e) => e.isDirectory() && !["db", "http", "jobs", "metrics"].includes(e.name))
      .map((e) => e.name);
    for (const domain of domains) expect(map, domain).toContain(`\`${domain}\``);
  });

  it("the migration command it gives finds nothing to generate: the schema and the migrations agree", { timeout: 120_000 }, async () => {
    // drizzle-kit writes a migration when they differ, so it runs on a copy of the migrations.
    const scratch = await mkdtemp(path.join(tmpdir(), "academy-migrations-"));
    await cp(path.join(projectRoot, "server/db/migrations"), path.join(scratch, "migrations"), { recursive: true });
    const config = path.join(scratch, "drizzle.config.json");
    await writeFile(config, JSON.stringify({ dialect: "postgresql", schema: path.join(projectRoot, "server/db/schema.ts"), out: "./migrations" }));
    const { stdout } = await promisify(execFile)(path.join(projectRoot, "node_modules/.bin/drizzle-kit"), ["generate", `--config=${config}`], { cwd: scratch });
    expect(stdout).toContain("No schema changes");
  });
});
