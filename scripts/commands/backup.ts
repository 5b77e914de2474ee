// `npm run backup -- [FILE]`: the configured database (embedded or PostgreSQL) into one file; see docs/backup.md.
import { loadEnvFile } from "../../server/env-file.ts";
import path from "node:path";
import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "../../server/config.ts";
import { BackupError, backupDatabase, backupNotes, defaultBackupFile } from "../../server/db/backup/index.ts";

loadEnvFile();

const usage = `Usage: npm run backup -- [FILE]

Backs up the database Academy is configured for, read from the same environment as the server:
PostgreSQL (pg_dump's custom format, FILE ending .postgres.dump) when DATABASE_URL is set, otherwise the
embedded database in DATA_DIR/db (a tarball, FILE ending .pglite.tar.gz), which the server must not be using.
FILE defaults to ./backups/academy-<UTC time>.<format>.`;

function fail(message: string, code = 1): never {
  console.error(message);
  process.exit(code);
}

let parsed: ReturnType<typeof parseArgs<{ allowPositionals: true; options: { help: { type: "boolean"; short: "h" } } }>>;
try {
  parsed = parseArgs({ allowPositionals: true, options: { help: { type: "boolean", short: "h" } } });
} catch (error) {
  fail(`${(error as Error).message}\n\n${usage}`, 2);
}
if (parsed.values.help) {
  console.log(usage);
  process.exit(0);
}
if (parsed.positionals.length > 1) fail(`Give at most one FILE.\n\n${usage}`, 2);

const size = (bytes: number) =>
  `${bytes < 1_000_000 ? `${Math.ceil(bytes / 1000).toLocaleString("en")} kB` : `${(bytes / 1_000_000).toLocaleString("en", { maximumFractionDigits: 1 })} MB`} (${bytes.toLocaleString("en")} bytes)`;

try {
  const config = loadConfig();
  const given = parsed.positionals[0];
  const file = given ? path.resolve(given) : defaultBackupFile(config);
  const { source, bytes } = await backupDatabase(config, file);
  console.log(`Backed up ${source}\nto ${file}, ${size(bytes)}.`);
  for (const note of backupNotes(config)) console.log(note);
} catch (error) {
  if (!(error instanceof BackupError || error instanceof ConfigError)) throw error;
  fail(error.message);
}
