// The walls between the folders (docs/architecture.md) hold because the lint in `npm test` refuses
// an import across one. Each wall is tried with a file that crosses it, linted with the project's
// own configuration in a scratch copy of the folders, and the real tree must cross none.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot } from "./helpers.ts";

interface Diagnostic {
  code: string;
  filename: string;
  message: string;
}

/** Runs the project's oxlint over `dir` with the given configuration; each import it refuses, once, as "file: specifier". */
function wallReports(dir: string, config: string): string[] {
  const oxlint = path.join(projectRoot, "node_modules/oxlint/bin/oxlint");
  const run = spawnSync(process.execPath, [oxlint, "-c", config, "-f", "json"], { cwd: dir, encoding: "utf8" });
  if (run.error) throw run.error;
  const { diagnostics } = JSON.parse(run.stdout) as { diagnostics: Diagnostic[] };
  const reports = diagnostics
    .filter((d) => d.code === "eslint(no-restricted-imports)")
    .map((d) => `${d.filename.split(path.sep).join("/")}: ${/^'([^']+)'/.exec(d.message)?.[1] ?? d.message}`);
  return [...new Set(reports)].toSorted();
}

/** Files that each cross a wall once per import, and the imports each folder may make. */
const probes: Record<string, string[]> = {
  "server/shop/probe.ts": ['import { formatDay } from "../../app/lib/format.ts";', 'import { formatPaise } from "../../common/format.ts";'],
  "common/probe.ts": [
    'import { attempt } from "../server/errors.ts";',
    'import { pageMeta } from "../app/lib/seo.ts";',
    'import { printTable } from "../cli/output.ts";',
    'import { readFile } from "node:fs/promises";',
    'import { passwordLength } from "./limits.ts";',
  ],
  "app/components/probe.tsx": [
    'import type { OrderStatus } from "../../server/db/schema.ts";',
    'import { stateLabels } from "../../server/websites/index.ts";',
    'import type { ReceiptView } from "../routes/receipt.server.ts";',
    'import type { Review } from "../../common/view-types.ts";',
  ],
  "app/lib/probe.ts": ['import { documentRequest } from "../../server/context.ts";', 'import { formatDay } from "../../common/format.ts";'],
  "app/routes/probe.tsx": [
    'import { issueCertificate } from "../../server/learning/certificates.ts";',
    'import { enrolments } from "../../server/db/schema.ts";',
    'import type { Db } from "../../server/db/client.ts";',
    'import { issuedCertificateIds } from "../../server/learning/index.ts";',
    'import { appServices } from "../../server/context.ts";',
    'import { attempt } from "../../server/errors.ts";',
    'import { receiptView } from "./receipt.server.ts";',
  ],
  "app/root.tsx": ['import { accessRedirect } from "../server/auth/access.ts";', 'import { accessRedirect as redirect } from "../server/auth/index.ts";'],
  "cli/probe.ts": ['import { apiScopes } from "../server/api/index.ts";', 'import { formatDay } from "../app/lib/format.ts";', 'import { formatPaise } from "../common/format.ts";'],
};

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), "academy-walls-"));
  copyFileSync(path.join(projectRoot, ".oxlintrc.json"), path.join(scratch, ".oxlintrc.json"));
  for (const [file, imports] of Object.entries(probes)) {
    mkdirSync(path.dirname(path.join(scratch, file)), { recursive: true });
    writeFileSync(path.join(scratch, file), `${imports.join("\n")}\n`);
  }
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the import walls", () => {
  it("refuse every import across a wall and allow the rest", () => {
    expect(wallReports(scratch, path.join(scratch, ".oxlintrc.json"))).toEqual(
      [
        "server/shop/probe.ts: ../../app/lib/format.ts",
        "common/probe.ts: ../server/errors.ts",
        "common/probe.ts: ../app/lib/seo.ts",
        "common/probe.ts: ../cli/output.ts",
        "common/probe.ts: node:fs/promises",
        "app/components/probe.tsx: ../../server/db/schema.ts",
        "app/components/probe.tsx: ../../server/websites/index.ts",
        "app/components/probe.tsx: ../routes/receipt.server.ts",
        "app/lib/probe.ts: ../../server/context.ts",
        "app/routes/probe.tsx: ../../server/learning/certificates.ts",
        "app/routes/probe.tsx: ../../server/db/schema.ts",
        "app/routes/probe.tsx: ../../server/db/client.ts",
        "app/root.tsx: ../server/auth/access.ts",
        "cli/probe.ts: ../server/api/index.ts",
        "cli/probe.ts: ../app/lib/format.ts",
      ].toSorted(),
    );
  });

  it("are not crossed anywhere in the project", () => {
    expect(wallReports(projectRoot, path.join(projectRoot, ".oxlintrc.json"))).toEqual([]);
  });
});
