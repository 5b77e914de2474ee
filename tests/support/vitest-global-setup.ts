// Vitest's globalSetup for the database suites: the template databases are made here, once, before
// the workers start, instead of by every worker at the same moment.
import { makePgliteDirectory, makePgliteTemplates, makePostgresTemplate } from "./database-templates.ts";

export async function setup(): Promise<void> {
  await makePgliteTemplates();
  await makePgliteDirectory("empty");
  await makePgliteDirectory("migrated");
  if (process.env.TEST_DATABASE_URL) await makePostgresTemplate(process.env.TEST_DATABASE_URL);
}
