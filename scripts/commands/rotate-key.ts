// `npm run rotate-key`: every encrypted field re-encrypted under a new key while the servers run; see docs/operations.md "Encryption keys".
import { parseArgs } from "node:util";
import { EncryptionError } from "../../server/crypto/field-encryption.ts";
import { RotationError, rotateEncryptionKey } from "../../server/crypto/rotation.ts";
import { openDatabase, SchemaTooNew } from "../../server/db/client.ts";
import { loadEnvFile } from "../../server/env-file.ts";
import { configOrFail, fail } from "./command.ts";

loadEnvFile();

const usage = `Usage: ENCRYPTION_KEY=NEW ENCRYPTION_KEY_PREVIOUS=OLD npm run rotate-key

Moves every encrypted value (profiles, notes, certificates) from the key in ENCRYPTION_KEY_PREVIOUS to the
key in ENCRYPTION_KEY, on the database the same environment as the server names. Servers keep running:
first restart each one with both variables set, then run this. Stopped at any point, run it again: it
finishes. Without ENCRYPTION_KEY_PREVIOUS the old key is the one generated into the database. The embedded
database (no DATABASE_URL) can be opened by one process only: stop the server before running this.`;


let parsed: ReturnType<typeof parseArgs<{ options: { help: { type: "boolean"; short: "h" } } }>>;
try {
  parsed = parseArgs({ options: { help: { type: "boolean", short: "h" } } });
} catch (error) {
  fail(`${(error as Error).message}\n\n${usage}`, 2);
}
if (parsed.values.help) {
  console.log(usage);
  process.exit(0);
}

const config = configOrFail();
const database = await openDatabase(config);
try {
  await database.migrate();
  const result = await rotateEncryptionKey(database.db, {
    to: config.encryptionKey,
    from: config.encryptionKeyPrevious,
    // No server can have the embedded database open beside this, so none needs time to notice the new key.
    ...(database.kind === "pglite" ? { settleMs: 0 } : {}),
    log: (line) => console.log(line),
  });
  if (!result.alreadyDone) {
    console.log(`Done: every encrypted value is under key id ${result.newId} (${result.rewritten.toLocaleString("en")} values moved), and key id ${result.oldId} is no longer listed.`);
    if (result.unreadable > 0) {
      console.log(`${result.unreadable.toLocaleString("en")} values decrypt with neither key and were left as they are: they were written under another key before keys were checked.`);
    }
    if (result.removedKeptKey) console.log("The generated key kept in the database is deleted: from now on every server needs ENCRYPTION_KEY.");
  }
  console.log("Remove ENCRYPTION_KEY_PREVIOUS from the servers' environment at their next restart, and keep the old key for as long as you keep backups taken before this rotation.");
} catch (error) {
  if (!(error instanceof RotationError || error instanceof EncryptionError || error instanceof SchemaTooNew)) throw error;
  await database.close();
  fail(error.message);
}
await database.close();
