import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer } from "node:net";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { clientIpHeader } from "../../server/auth/index.ts";
import { loadCatalog } from "../../server/catalog/index.ts";
import { fromPglite, fromPostgres, type Database } from "../../server/db/client.ts";
import { startIdentity } from "../../server/identity.ts";
import { createLogger } from "../../server/logger.ts";
import { createNote } from "../../server/notes/index.ts";
import { createDiskStorage } from "../../server/storage/disk.ts";
import { pgliteTemplateInto } from "../support/database-templates.ts";
import { scratchSpace } from "../support/scratch.ts";
import { contentDir, projectRoot } from "./helpers.ts";

// docs/backup.md's "Test a restore", typed into one shell as an operator types it, with the server's
// production environment: a doc that drifts from the product fails here. The only changes to the doc's
// text are the places this machine cannot share with others (below, `substitutions`).

const serverUrl = process.env.TEST_DATABASE_URL;
const { admin, folder: temporary, database: scratchDatabaseOf, dropLater } = scratchSpace(serverUrl);

/** The `sh` blocks of one subsection of "## Test a restore", in order. */
async function docBlocks(subsection: string): Promise<string[]> {
  const doc = await readFile(path.join(projectRoot, "docs/backup.md"), "utf8");
  const section = doc.split(/^## /m).find((part) => part.startsWith("Test a restore\n")) ?? "";
  const sub = section.split(/^### /m).find((part) => part.startsWith(`${subsection}\n`)) ?? "";
  return [...sub.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1] as string);
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });

/** One bash session with the operator's environment: each block is typed in whole, and a failing command ends the session. */
function operatorShell(env: NodeJS.ProcessEnv) {
  // Its own process group, so the server it starts in the background ends with it whatever happened.
  const bash = spawn("bash", ["--noprofile", "--norc"], { cwd: projectRoot, env, stdio: ["pipe", "pipe", "pipe"], detached: true });
  let stdout = "";
  let stderr = "";
  bash.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  bash.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const ended = new Promise<number | null>((resolve) => bash.once("close", resolve));
  bash.stdin.write("set -e -o pipefail\n");
  return {
    /** Runs one block and returns what it printed. */
    async type(block: string): Promise<string> {
      const marker = `block-done-${randomBytes(4).toString("hex")}`;
      const from = stdout.length;
      bash.stdin.write(`${block}\necho ${marker}\n`);
      const done = await Promise.race([
        (async () => {
          while (!stdout.includes(marker)) await new Promise((resolve) => setTimeout(resolve, 50));
          return true;
        })(),
        ended.then(() => false),
      ]);
      if (!done) throw new Error(`The shell stopped in this block:\n${block}\nstdout:\n${stdout}\nstderr:\n${stderr}`);
      return stdout.slice(from, stdout.indexOf(marker));
    },
    async exit() {
      bash.stdin.end("exit\n");
      await ended;
      try {
        process.kill(-(bash.pid as number), "SIGKILL");
      } catch {
        // The group is gone: nothing was left running.
      }
    },
  };
}

interface Kind {
  name: string;
  subsection: string;
  extension: string;
  /** The server's own database, the one backed up: the environment that names it, and a handle on it. */
  place(): Promise<{ env: Record<string, string>; open(): Promise<Database> }>;
}

const kinds: Kind[] = [
  {
    name: "the embedded database",
    subsection: "On the embedded database",
    extension: ".pglite.tar.gz",
    async place() {
      const dataDir = await temporary("academy-doc-data-");
      await pgliteTemplateInto(dataDir, "migrated");
      return { env: { DATA_DIR: dataDir }, open: async () => fromPglite(await PGlite.create(path.join(dataDir, "db"))) };
    },
  },
  ...(serverUrl
    ? [
        {
          name: "PostgreSQL",
          subsection: "On PostgreSQL",
          extension: ".postgres.dump",
          async place() {
            const { url } = await scratchDatabaseOf("academy_doc_");
            return { env: { DATABASE_URL: url }, open: async () => fromPostgres(url, { poolSize: 2 }) };
          },
        },
      ]
    : []),
];

const password = "a good long password";

describe.each(kinds)("docs/backup.md: test a restore, on $name", { timeout: 180_000 }, (kind) => {
  it("runs as written with the production environment, and the restored copy signs a person in and reads their note", async () => {
    const blocks = await docBlocks(kind.subsection);
    expect(blocks.length, `sh blocks under "### ${kind.subsection}"`).toBe(3);

    // The production server's database and settings, with a person and a note encrypted under its ENCRYPTION_KEY.
    const place = await kind.place();
    const encryptionKey = randomBytes(32).toString("base64");
    const database = await place.open();
    const email = `restore-drill-${randomBytes(4).toString("hex")}@example.com`;
    const noteTitle = `Restore drill ${randomBytes(4).toString("hex")}`;
    try {
      await database.migrate();
      const catalog = await loadCatalog(contentDir);
      const identity = await startIdentity({
        db: database.db,
        logger: createLogger("silent"),
        catalog: () => catalog,
        production: false,
        publicUrl: "https://academy.example.com",
        authSecret: randomBytes(32).toString("base64"),
        encryptionKey,
        smtpUrl: undefined,
        mailFrom: "Academy <no-reply@academy.example.com>",
        mailIntervalMs: 60_000,
        storage: createDiskStorage(await temporary("academy-doc-uploads-")),
      });
      const { user } = await identity.auth.api.signUpEmail({ body: { name: "Asha Verma", email, password }, headers: new Headers({ [clientIpHeader]: "10.9.8.7" }) });
      // A test account, as the doc asks for: one that has confirmed its address.
      await database.db.execute(sql`update "user" set email_verified = true where id = ${user.id}`);
      await createNote(database.db, identity.cipher, catalog, user.id, { title: noteTitle, body: "Proves the key matches the backup." });
      await identity.mailWorker.stop();
    } finally {
      await database.close();
    }
    // Vitest's TEST=true would reach the server, and Better Auth skips its origin check in a test environment.
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(DATABASE_URL|DATA_DIR|ENCRYPTION_KEY|NODE_ENV|TEST|VITEST.*)$/.test(name)));
    const production: NodeJS.ProcessEnv = {
      ...inherited,
      NODE_ENV: "production",
      PUBLIC_URL: "https://academy.example.com",
      AUTH_SECRET: randomBytes(32).toString("base64"),
      ENCRYPTION_KEY: encryptionKey,
      SMTP_URL: "smtp://127.0.0.1:9",
      RAZORPAY_KEY_ID: "rzp_live_restoredrill",
      RAZORPAY_KEY_SECRET: "restore-drill-secret",
      RAZORPAY_WEBHOOK_SECRET: "restore-drill-webhook-secret",
      ...place.env,
    };

    // Last night's backup, as cron made it.
    const backups = await temporary("academy-doc-backups-");
    const backedUp = await new Promise<number | null>((resolve) =>
      spawn(process.execPath, ["scripts/backup.ts", path.join(backups, `academy-20261124T031500Z${kind.extension}`)], { cwd: projectRoot, env: production, stdio: "ignore" }).once(
        "close",
        resolve,
      ),
    );
    expect(backedUp).toBe(0);

    // What an operator's machine has and this one cannot share with parallel runs: the port, the scratch names, where backups are.
    const port = await freePort();
    const scratch = path.join(await temporary("academy-doc-scratch-"), "academy-restore-test");
    const scratchDatabase = `academy_restore_test_${randomBytes(4).toString("hex")}`;
    const substitutions: [RegExp, string][] = [
      [/\/srv\/backups/g, backups],
      [/\b3100\b/g, String(port)],
      [/\bacademy_restore_test\b/g, scratchDatabase],
      [/\/tmp\/academy-restore-test/g, scratch],
    ];
    const typed = blocks.map((block) => substitutions.reduce((text, [pattern, value]) => text.replace(pattern, value), block));
    if (kind.extension === ".postgres.dump") dropLater(scratchDatabase);

    const shell = operatorShell(production);
    try {
      const [restore, serve, stop] = typed as [string, string, string];
      expect(await shell.type(restore)).toContain("Restored ");
      expect(await shell.type(serve)).toContain('{"status":"ready"}');

      // The doc's browser step: sign in at http://localhost:PORT as the restored person and open the notes.
      const site = `http://localhost:${port}`;
      const signIn = await fetch(`${site}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: site },
        body: JSON.stringify({ email, password }),
      });
      expect(signIn.status, await signIn.clone().text()).toBe(200);
      const cookie = signIn.headers
        .getSetCookie()
        .map((line) => line.split(";")[0])
        .join("; ");
      const notes = await fetch(`${site}/notes`, { headers: { cookie } });
      expect(notes.status).toBe(200);
      const page = await notes.text();
      expect(page.includes(noteTitle), `the notes page (${/<title>([^<]*)/.exec(page)?.[1]}) shows the restored note`).toBe(true);

      await shell.type(stop);
      expect(existsSync(scratch)).toBe(false);
      await expect(fetch(`${site}/healthz`)).rejects.toThrow();
      if (kind.extension === ".postgres.dump") {
        const left = await admin((client) => client.query("select 1 from pg_database where datname = $1", [scratchDatabase]));
        expect(left.rowCount).toBe(0);
      }
    } finally {
      await shell.exit();
    }
  });
});
