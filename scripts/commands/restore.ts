// `npm run restore -- FILE [--force]`: a file made by `npm run backup` into the configured database; see docs/backup.md.
import { loadEnvFile } from "../../server/env-file.ts";
import path from "node:path";
import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "../../server/config.ts";
import { BackupError, restoreDatabase, restoreNotes } from "../../server/db/backup/index.ts";

loadEnvFile();

const usage = `Usage: npm run restore -- FILE [--force]

Restores a backup made by \`npm run backup\` into the database Academy is configured for, read from the same
environment as the server: PostgreSQL when DATABASE_URL is set (a .postgres.dump), otherwise the embedded
database in DATA_DIR/db (a .pglite.tar.gz). Stop the Academy servers first.
  --force   replace a database that is not empty (the restore says what it replaced)`;

function fail(message: string, code = 1): never {
  console.error(message);
  process.exit(code);
}

const options = { help: { type: "boolean", short: "h" }, force: { type: "boolean" } } as const;
let parsed: ReturnType<typeof parseArgs<{ allowPositionals: true; options: typeof options }>>;
try {
  parsed = parseArgs({ allowPositionals: true, options });
} catch (error) {
  fail(`${(error as Error).message}\n\n${usage}`, 2);
}
if (parsed.values.help) {
  console.log(usage);
  process.exit(0);
}
const [given, ...extra] = parsed.positionals;
if (!given || extra.length > 0) fail(`Give exactly one FILE.\n\n${usage}`, 2);

try {
  const config = loadConfig();
  const file = path.resolve(given as string);
  const outcome = await restoreDatabase(config, file, { force: parsed.values.force ?? false });
  console.log(`Restored ${file}\ninto ${outcome.target}.`);
  if (outcome.replaced) console.log(`It replaced what was there: ${outcome.replaced}.`);
  if (outcome.kept) console.log(`The replaced database was moved to ${outcome.kept}; delete it once the restored one serves.`);
  console.log(`The restored database holds ${outcome.summary}`);
  for (const note of restoreNotes(config, outcome)) console.log(note);
} catch (error) {
  if (!(error instanceof BackupError || error instanceof ConfigError)) throw error;
  fail(error.message);
}
