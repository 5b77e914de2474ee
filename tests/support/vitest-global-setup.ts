// Vitest's globalSetup for the database suites: the template databases are made here, once, before
// the workers start, instead of by every worker at the same moment. It also makes this run's own
// temporary folder: vitest-temporary-folder.ts points each test file (and the servers and commands it
// starts) at it, and it is removed when the run ends, so data folders, uploads and copies of the
// content do not pile up by the gigabyte in the system's temporary folder run after run.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { makePgliteDirectory, makePgliteTemplates, makePostgresTemplate } from "./database-templates.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's own temporary folder (TMPDIR for each test file). */
    temporaryFolder: string;
  }
}

export async function setup(project: TestProject): Promise<() => Promise<void>> {
  await makePgliteTemplates();
  await makePgliteDirectory("empty");
  await makePgliteDirectory("migrated");
  if (process.env.TEST_DATABASE_URL) await makePostgresTemplate(process.env.TEST_DATABASE_URL);
  const run = await mkdtemp(path.join(tmpdir(), "academy-test-run-"));
  project.provide("temporaryFolder", run);
  return () => rm(run, { recursive: true, force: true });
}
