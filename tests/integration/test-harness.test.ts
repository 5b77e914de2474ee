import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sourceHash, stampFile } from "../../scripts/source-hash.ts";
import { appRoots } from "../../server/db/schema.ts";
import { buildProblem, databaseKinds } from "./helpers.ts";

describe("the build the HTTP tests run", () => {
  it("is refused when missing, and when a source changed after it was built, with what to run", async () => {
    const root = await mkdtemp(path.join(tmpdir(), "academy-build-check-"));
    await mkdir(path.join(root, "common"));
    await writeFile(path.join(root, "common/limits.ts"), "export const days = 7;\n");
    expect(await buildProblem(root, "these tests")).toBe("No build: run `npm run build` before these tests (npm test does).");

    await mkdir(path.join(root, "build/server"), { recursive: true });
    await writeFile(path.join(root, "build/server/index.js"), "export {};\n");
    await writeFile(stampFile(root), await sourceHash(root));
    expect(await buildProblem(root, "these tests")).toBeNull();

    await writeFile(path.join(root, "common/limits.ts"), "export const days = 8;\n");
    expect(await buildProblem(root, "these tests")).toBe("The build is older than the sources: run `npm run build` again before these tests (npm test does).");
  });
});

describe.each(databaseKinds)("test databases on $name", ({ open, empty }) => {
  it("opens each test its own migrated database, sharing no rows with another", async () => {
    const [first, second] = [await open(), await open()];
    try {
      expect(await first.ready()).toBe(true);
      await first.db.insert(appRoots).values({ id: "Encryption", key: "only in the first" });
      expect(await first.db.select().from(appRoots)).toHaveLength(1);
      expect(await second.db.select().from(appRoots)).toEqual([]);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it("opens an empty one, untouched by any migration, for the tests of migrating", async () => {
    const database = await empty();
    try {
      expect(await database.ready()).toBe(false);
    } finally {
      await database.close();
    }
  });
});
