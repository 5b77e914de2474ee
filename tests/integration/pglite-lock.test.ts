import { existsSync } from "node:fs";
import { mkdtemp, rename } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { migratedDataDir } from "../support/database-templates.ts";
import { listeningUrl, productionSandboxEnv, startProcess, type ServerProcess } from "../support/server-process.ts";

const running: ServerProcess[] = [];
afterEach(() => {
  for (const server of running.splice(0)) server.child.kill("SIGKILL");
});

const start = (env: Record<string, string>) => {
  const server = startProcess({ PORT: "0", ...env });
  running.push(server);
  return server;
};

/** Its exit code, or "listening" when it started instead. */
const outcome = (server: ServerProcess) => Promise.race([server.exited, listeningUrl(server).then(() => "listening", () => server.exited)]);


describe("one process per embedded database", { timeout: 240_000 }, () => {
  it("refuses a second server on the same DATA_DIR with a sentence naming the first, and takes over after a kill -9", async () => {
    const dataDir = await migratedDataDir("academy-lock-");
    const first = start({ ...productionSandboxEnv, DATA_DIR: dataDir });
    const url = await listeningUrl(first);

    const second = start({ ...productionSandboxEnv, DATA_DIR: dataDir });
    expect(await outcome(second)).toBe(1);
    expect(second.output()).toContain(
      `The embedded database in ${path.join(dataDir, "db")} is in use by another Academy process (pid ${first.child.pid}). Stop it first, or set DATABASE_URL to share a PostgreSQL database between processes.`,
    );
    expect(second.output()).not.toContain("Academy is running at");
    expect((await fetch(`${url}/readyz`)).status).toBe(200);

    // The lock ends with its process, however it ends: nothing stale is left to clear by hand.
    first.child.kill("SIGKILL");
    await first.exited;
    const third = start({ ...productionSandboxEnv, DATA_DIR: dataDir });
    expect((await fetch(`${await listeningUrl(third)}/readyz`)).status).toBe(200);
  });

  it("lets the backup tools see the lock: taking it while a server holds the folder fails with the same sentence", async () => {
    const dataDir = await migratedDataDir("academy-lock-");
    const server = start({ DATA_DIR: dataDir });
    await listeningUrl(server);
    const { lockPgliteData, DatabaseInUse } = await import("../../server/db/pglite-lock.ts");
    expect(() => lockPgliteData(dataDir)).toThrow(DatabaseInUse);
    expect(() => lockPgliteData(dataDir)).toThrow(`is in use by another Academy process (pid ${server.child.pid}).`);

    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    const lock = lockPgliteData(dataDir);
    // Held now by this process: a server started meanwhile is the one refused.
    const refused = start({ DATA_DIR: dataDir });
    expect(await outcome(refused)).toBe(1);
    expect(refused.output()).toContain(`is in use by another Academy process (pid ${process.pid}).`);
    lock.release();
    const after = start({ DATA_DIR: dataDir });
    expect((await fetch(`${await listeningUrl(after)}/readyz`)).status).toBe(200);
  });

  it("will not make a new, empty database where a restore stopped after moving the old one aside", async () => {
    const { openDatabase } = await import("../../server/db/client.ts");
    const dataDir = await mkdtemp(path.join(tmpdir(), "academy-lock-"));
    const settings = { databaseUrl: undefined, dataDir, databasePoolSize: 1 };
    const first = await openDatabase(settings);
    await first.migrate();
    await first.close();
    // What a restore killed between its two renames leaves (server/db/backup/pglite.ts).
    await rename(path.join(dataDir, "db"), path.join(dataDir, "db.replaced-20261126T101500Z"));
    await expect(openDatabase(settings)).rejects.toThrow(
      `There is no embedded database in ${path.join(dataDir, "db")}, but ${path.join(dataDir, "db.replaced-20261126T101500Z")} is beside it: a restore stopped after moving the database aside. Run the restore again, or move db.replaced-20261126T101500Z back to db, before starting Academy.`,
    );
    expect(existsSync(path.join(dataDir, "db"))).toBe(false);
    // The lock was let go: the operator's restore, or a server once the folder is back, can take it.
    await rename(path.join(dataDir, "db.replaced-20261126T101500Z"), path.join(dataDir, "db"));
    await (await openDatabase(settings)).close();
  });
});
