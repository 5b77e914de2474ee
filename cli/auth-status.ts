import { checkToken, CliError, exitCodes, type GivenToken, type TokenCheck } from "./client.ts";
import { credentialsFile, storedLogins } from "./credentials.ts";
import { paint, printJson } from "./output.ts";

interface Entry {
  server: string;
  /** `login` for a token `academy login` stored; else where the token given for this run came from. */
  source: "login" | GivenToken["source"];
  check: TokenCheck;
}

function describe(entry: Entry): string {
  const how = entry.source === "login" ? "academy login" : entry.source;
  if (entry.check.ok) return `${paint("green", "✓")} Signed in as ${entry.check.name} <${entry.check.email}> (${how})`;
  if (entry.check.problem === "refused") {
    return `${paint("red", "✗")} The token from ${how} is not valid any more: ${entry.source === "login" ? `run academy login --server ${entry.server}` : `make a new API key on ${entry.server}/api-tools`}`;
  }
  return `${paint("red", "✗")} Not checked: ${entry.check.message} (token from ${how})`;
}

/**
 * `academy auth status`: every server this machine is signed in to, and who is signed in on each,
 * as each server says now; the token given for this run (--token or ACADEMY_TOKEN) too, for the
 * server it would go to. Exit 3 with no credentials at all, 1 when any is refused or unchecked.
 */
export async function authStatus(options: { server: string; given: GivenToken | null; json: boolean }): Promise<number> {
  const { server, given } = options;
  const tokens = [...(given ? [{ server, source: given.source, token: given.token }] : []), ...(await storedLogins()).map((login) => ({ ...login, source: "login" as const }))];
  const entries = await Promise.all(tokens.map(async (t): Promise<Entry> => ({ server: t.server, source: t.source, check: await checkToken(t.server, t.token) })));
  if (entries.length === 0) throw new CliError("You are not signed in to any server. Run academy login, or give an API key with ACADEMY_TOKEN or --token.", exitCodes.signedOut);
  if (options.json) {
    await printJson({
      credentials: credentialsFile(),
      servers: entries.map(({ server: at, source, check }) => (check.ok ? { server: at, source, signedIn: true, name: check.name, email: check.email } : { server: at, source, signedIn: false, problem: check.problem, message: check.message })),
    });
  } else {
    for (const each of new Set(entries.map((e) => e.server))) {
      process.stdout.write(`${paint("bold", each)}\n`);
      for (const entry of entries.filter((e) => e.server === each)) process.stdout.write(`  ${describe(entry)}\n`);
    }
    process.stdout.write(`Logins are kept in ${credentialsFile()}.\n`);
  }
  return entries.every((e) => e.check.ok) ? exitCodes.ok : exitCodes.failure;
}
