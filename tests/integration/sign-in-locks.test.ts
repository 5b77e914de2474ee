// docs/operations.md, "Sign-in locks": the statement an operator runs to lift a person's locks, run
// here as the page gives it, so the page and the table's keys cannot drift apart.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { clientIpHeader } from "../../server/auth/index.ts";
import { fromPostgres, type Database } from "../../server/db/client.ts";
import { throttles } from "../../server/db/schema.ts";
import { migratedPostgresTemplate, pgliteCopy } from "../support/database-templates.ts";
import { identitySuite, newPostgresDatabase, projectRoot, testCatalog } from "./helpers.ts";

/** The here-document of the section's psql command, and the psql options before it. */
async function documentedUnlock(): Promise<{ statement: string }> {
  const page = await readFile(path.join(projectRoot, "docs/operations.md"), "utf8");
  const section = page.slice(page.indexOf("## Sign-in locks"), page.indexOf("\n## ", page.indexOf("## Sign-in locks") + 1));
  const statement = /psql [^\n]*-v email='[^']*' <<'SQL'\n([\s\S]*?)\nSQL\n/.exec(section)?.[1];
  if (!statement) throw new Error("docs/operations.md has no psql command with a here-document in its section Sign-in locks.");
  return { statement };
}

/** What psql makes of `:'email'`: the value as a quoted literal. */
const asPsqlWould = (statement: string, email: string) => statement.replaceAll(":'email'", `'${email.replaceAll("'", "''")}'`);

function psql(url: string, email: string, statement: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("psql", [url, "-v", `email=${email}`], { stdio: ["pipe", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, output }));
    child.stdin.end(`${statement}\n`);
  });
}

/** A client address of its own for each call, so per-address limits never count with the per-account one. */
const headers = () => new Headers({ [clientIpHeader]: `10.${randomBytes(3).join(".")}` });

interface Kind {
  name: string;
  open: () => Promise<Database>;
  /** Runs the documented statement for `email` the way an operator would on this kind of database. */
  unlock: (database: Database, email: string) => Promise<void>;
}

const serverUrl = process.env.TEST_DATABASE_URL;
let postgresUrl = "";
const kinds: Kind[] = [
  {
    name: "PGlite",
    open: () => pgliteCopy("migrated"),
    unlock: async (database, email) => void (await database.db.execute(sql.raw(asPsqlWould((await documentedUnlock()).statement, email)))),
  },
  ...(serverUrl
    ? [
        {
          name: "PostgreSQL (with psql)",
          open: async () => {
            const created = await newPostgresDatabase(serverUrl, await migratedPostgresTemplate(serverUrl));
            postgresUrl = created.url;
            const database = fromPostgres(created.url);
            return { ...database, close: async () => (await database.close(), await created.drop()) };
          },
          unlock: async (_database: Database, email: string) => {
            const { code, output } = await psql(postgresUrl, email, (await documentedUnlock()).statement);
            expect(code, output).toBe(0);
            expect(output).toMatch(/DELETE [1-9]/);
          },
        },
      ]
    : []),
];

describe.each(kinds)("lifting a sign-in lock on $name", ({ open, unlock }) => {
  const suite = identitySuite(open, testCatalog([]));

  it("lets a locked-out person sign in again at once, as docs/operations.md says", async () => {
    const person = await suite.signUp();
    // Typed in capitals: the statement lowers it, as the limit does.
    const typed = person.email.toUpperCase();
    for (let i = 0; i < 10; i++) {
      await expect(suite.identity.auth.api.signInEmail({ body: { email: person.email, password: `wrong guess ${i}` }, headers: headers() })).rejects.toMatchObject({ statusCode: 401 });
    }
    const signIn = () => suite.identity.auth.api.signInEmail({ body: { email: person.email, password: "a good long password" }, headers: headers() });
    await expect(signIn()).rejects.toMatchObject({ statusCode: 429 });
    const other = await suite.signUp();
    await expect(suite.identity.auth.api.signInEmail({ body: { email: other.email, password: "a typo in it" }, headers: headers() })).rejects.toMatchObject({ statusCode: 401 });
    // A device of the person's own, locked by its own typing mistakes, is let in again too.
    await suite.db.insert(throttles).values({ key: `/sign-in/email:${person.email}:device:laptop`, count: 10, windowStartedAt: new Date() });
    await unlock(suite.database, typed);
    expect((await signIn()).user.id).toBe(person.id);
    expect((await suite.db.select({ key: throttles.key }).from(throttles)).map((row) => row.key)).not.toContain(`/sign-in/email:${person.email}:device:laptop`);
    // Nobody else's count was touched.
    const keys = (await suite.db.select({ key: throttles.key }).from(throttles)).map((row) => row.key);
    expect(keys).toContain(`/sign-in/email:${other.email}`);
  });

  it("names the per-address lock's key as the table holds it", async () => {
    const person = await suite.signUp();
    await suite.identity.auth.api.signInEmail({ body: { email: person.email, password: "a good long password" }, headers: new Headers({ [clientIpHeader]: "203.0.113.7" }) });
    // Addresses are counted only for requests through the HTTP handler.
    await suite.identity.auth.handler(
      new Request("http://academy.test/api/auth/sign-in/email", {
        method: "POST",
        headers: { "content-type": "application/json", origin: "http://academy.test", [clientIpHeader]: "203.0.113.7" },
        body: JSON.stringify({ email: person.email, password: "a good long password" }),
      }),
    );
    const keys = (await suite.db.select({ key: throttles.key }).from(throttles)).map((row) => row.key);
    expect(keys).toContain("address:203.0.113.7:/sign-in/email");
  });
});
