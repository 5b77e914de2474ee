import { execFile } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { projectRoot } from "./helpers.ts";

const run = promisify(execFile);
/** `npm run api-types -- <args>`, as package.json defines it, on this Node. */
const apiTypes = (args: string[]) => run(process.execPath, ["scripts/api-types.ts", ...args], { cwd: projectRoot }).then(
  ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
  (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
);

describe("the CLI's API types (cli/api-schema.ts)", () => {
  it("are what the server's OpenAPI document declares today, by the check docs/cli.md gives", { timeout: 60_000 }, async () => {
    const { scripts } = JSON.parse(await readFile(path.join(projectRoot, "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(scripts["api-types"]).toBe("node scripts/api-types.ts");
    expect(await readFile(path.join(projectRoot, "docs/cli.md"), "utf8")).toContain("`npm run api-types -- --check`");
    const checked = await apiTypes(["--check"]);
    expect(checked.stderr).toBe("");
    expect(checked.code).toBe(0);
    const types = await readFile(path.join(projectRoot, "cli/api-schema.ts"), "utf8");
    // Every operation the CLI calls is in them, with its answer's schema.
    for (const operation of ["getMe", "listCourses", "listNotes", "createNote", "updateNote", "deleteNote", "listOrders", "getReceipt", "getInvoice", "listWebsites", "getWebsite"]) expect(types).toContain(`    ${operation}: {`);
  });

  it("--check fails, naming the command to run, when the types are not the document's, and writes nothing", { timeout: 60_000 }, async () => {
    const stale = path.join(await mkdtemp(path.join(tmpdir(), "academy-api-types-")), "api-schema.ts");
    const edited = (await readFile(path.join(projectRoot, "cli/api-schema.ts"), "utf8")).replace("title: string;", "heading: string;");
    await writeFile(stale, edited);
    const checked = await apiTypes(["--check", "--file", stale]);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toMatch(/api-schema\.ts is not what the server's API declares now: run npm run api-types and commit it with the change to the API\./);
    expect(await readFile(stale, "utf8")).toBe(edited);
  });
});
