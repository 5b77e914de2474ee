import { readFile } from "node:fs/promises";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { migrationsFolder, SchemaTooNew, type Database } from "../../server/db/client.ts";
import { appRoots } from "../../server/db/schema.ts";
import { databaseKinds } from "./helpers.ts";

describe.each(databaseKinds)("migrations on $name", ({ empty: open }) => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it("is not ready before migrations and ready after them", async () => {
    database = await open();
    expect(await database.ready()).toBe(false);
    await database.migrate();
    expect(await database.ready()).toBe(true);
  });

  it("applies migrations idempotently and the schema works", async () => {
    database = await open();
    await database.migrate();
    await database.migrate();
    await database.db.delete(appRoots);
    await database.db.insert(appRoots).values({ id: "Encryption", key: "k" });
    const rows = await database.db.select().from(appRoots);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: "Encryption", key: "k" });
    expect(rows[0]?.createdAt).toBeInstanceOf(Date);
  });

  it("migrates once when several start together, each on its own connection", async () => {
    database = await open();
    await Promise.all([database.migrate(), database.migrate(), database.migrate()]);
    const journal = JSON.parse(await readFile(path.join(migrationsFolder, "meta/_journal.json"), "utf8")) as { entries: unknown[] };
    const applied = await database.db.execute<{ n: number }>(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    expect((applied as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(journal.entries.length);
    expect(await database.ready()).toBe(true);
  });

  it("refuses a database that a newer version has migrated", async () => {
    database = await open();
    await database.migrate();
    await database.db.execute(sql`insert into drizzle.__drizzle_migrations (hash, created_at) select 'from-a-newer-version', max(created_at) + 1000 from drizzle.__drizzle_migrations`);
    const refused = database.migrate();
    await expect(refused).rejects.toBeInstanceOf(SchemaTooNew);
    await expect(refused).rejects.toThrow(/The database has a migration newer than this version of Academy knows \(its last is 0\d{3}_\w+\)\. Deploy the newer version/);
  });
});

describe.each(databaseKinds)("the event loop while the database works, on $name", ({ open }) => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  // PGlite answers in the same thread, through promises only: without a turn of the event loop between
  // queries, a busy server would read no new request (nor accept a connection) until every query
  // waiting is done (a mixed load saw the first requests of some connections wait 30 s).
  it("lets a timer run after a few milliseconds of queries, however many readers wait", async () => {
    database = await open();
    const { db } = database;
    let queriesDone = 0;
    let timerSawQueries: number | undefined;
    // Each query takes a millisecond at least: PGlite may run five milliseconds of them on end.
    const readers = Array.from({ length: 20 }, async () => {
      for (let i = 0; i < 5; i++) {
        await db.execute(sql`select pg_sleep(0.001)`);
        queriesDone += 1;
      }
    });
    setTimeout(() => (timerSawQueries = queriesDone), 0);
    await Promise.all(readers);
    expect(timerSawQueries).toBeDefined();
    expect(timerSawQueries).toBeLessThanOrEqual(10);
  });
});
