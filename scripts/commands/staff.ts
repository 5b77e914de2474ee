// `npm run staff -- grant|revoke <email> <role>` and `npm run staff -- list`: the back office's roles from the server's shell; see docs/operations.md "Staff".
import { userInfo, hostname } from "node:os";
import { openDatabase, SchemaTooNew } from "../../server/db/client.ts";
import { DatabaseInUse } from "../../server/db/pglite-lock.ts";
import { loadEnvFile } from "../../server/env-file.ts";
import { configOrFail, fail } from "./command.ts";
import { UserError } from "../../server/errors.ts";
import { grantRole, listStaff, resetTwoFactor, revokeRole, type Actor } from "../../server/staff/index.ts";

loadEnvFile();

const usage = `Usage: npm run staff -- grant <email> <role>
       npm run staff -- revoke <email> <role>
       npm run staff -- reset-two-factor <email>
       npm run staff -- list

Gives a role in the back office (/admin) to the account with that e-mail, takes one away, or lists
everyone who holds one. The roles: owner (everything, manages staff), support, finance, content.
reset-two-factor turns two-factor sign-in off for someone who lost their phone and their recovery
codes; make sure who is asking first. They set it up again when they next open /admin.
The person signs up on the site first; they set up two-factor sign-in the first time they open
/admin. Every change is written to the audit log as made from the command line. Uses the database
the same environment as the server names; the embedded database (no DATABASE_URL) can be opened by
one process only, so stop the server first.`;


const [command, email, role, ...extra] = process.argv.slice(2);
if (command === "--help" || command === "-h" || command === "help") {
  console.log(usage);
  process.exit(0);
}
const wellFormed =
  (command === "list" && email === undefined) ||
  (command === "reset-two-factor" && email !== undefined && role === undefined) ||
  ((command === "grant" || command === "revoke") && email !== undefined && role !== undefined && extra.length === 0);
if (!wellFormed) fail(`${command ? `"${[command, email, role, ...extra].filter(Boolean).join(" ")}" is not a staff command.` : "Say what to do."}\n\n${usage}`, 2);

const config = configOrFail();

let database: Awaited<ReturnType<typeof openDatabase>>;
try {
  database = await openDatabase(config);
} catch (error) {
  if (!(error instanceof DatabaseInUse)) throw error;
  fail(error.message);
}

const operator: Actor = { id: null, name: `command line (${userInfo().username}@${hostname()})`, roles: [], address: null };
try {
  await database.migrate();
  if (command === "list") {
    const staff = await listStaff(database.db);
    if (staff.length === 0) console.log("Nobody holds a role yet. Make the first owner with: npm run staff -- grant <email> owner");
    for (const person of staff) console.log(`${person.email}\t${person.name}\t${person.roles.join(", ")}\t${person.twoFactorEnabled ? "two-factor set up" : "two-factor not set up yet"}`);
  } else if (command === "grant") {
    const { changed } = await grantRole(database.db, operator, email as string, role as string);
    console.log(changed ? `${email} is now ${role}. They open ${config.publicUrl}/admin, signed in, and set up two-factor sign-in there.` : `${email} is ${role} already; nothing changed.`);
  } else if (command === "reset-two-factor") {
    const { changed } = await resetTwoFactor(database.db, operator, email as string);
    console.log(changed ? `Two-factor sign-in is off for ${email}: they sign in with their password and set it up again at ${config.publicUrl}/admin.` : `${email} had no two-factor sign-in; nothing changed.`);
  } else {
    const { changed } = await revokeRole(database.db, operator, email as string, role as string);
    console.log(changed ? `${email} is no longer ${role}, from their next request on.` : `${email} was not ${role}; nothing changed.`);
  }
} catch (error) {
  await database.close();
  if (error instanceof UserError || error instanceof SchemaTooNew) fail(error.message);
  throw error;
}
await database.close();
