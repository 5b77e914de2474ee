import { eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sharedCoursesOnSale } from "../../server/catalog/index.ts";
import { fromPostgres, type Database } from "../../server/db/client.ts";
import { unpublishedCourses, user, users } from "../../server/db/schema.ts";
import { SharedReads } from "../../server/db/shared-reads.ts";
import { migratedPostgresTemplate, withAdmin } from "../support/database-templates.ts";
import { databaseKinds, newPostgresDatabase } from "./helpers.ts";

const eventually = { timeout: 5_000, interval: 20 };

/** A read of how many courses are off sale, counting how often it went to the database. */
function offSaleCount(database: Database) {
  let loads = 0;
  const read = () =>
    database.sharedReads.read("off sale", ["unpublished_courses"], async () => {
      loads += 1;
      const rows = await database.db.select({ n: sql<number>`count(*)::int` }).from(unpublishedCourses);
      return rows[0]?.n ?? 0;
    });
  return { read, loads: () => loads };
}

const takeOffSale = (database: Database, courseId: string) => database.db.insert(unpublishedCourses).values({ courseId, reason: "Being rewritten." });

describe.each(databaseKinds)("what every visitor sees, kept in the process, on $name", ({ open }) => {
  let database: Database;
  afterEach(() => database?.close());

  async function listening(): Promise<Database> {
    database = await open();
    await vi.waitFor(() => expect(database.sharedReads.live).toBe(true), eventually);
    return database;
  }

  it("goes to the database once, until a write to a table it was read from commits", async () => {
    const db = await listening();
    const offSale = offSaleCount(db);
    expect(await offSale.read()).toBe(0);
    expect(await offSale.read()).toBe(0);
    expect(offSale.loads()).toBe(1);

    await takeOffSale(db, "react-fundamentals");
    await vi.waitFor(async () => expect(await offSale.read()).toBe(1), eventually);
    expect(offSale.loads()).toBe(2);
    // The domain's own read sees it the same way.
    expect((await sharedCoursesOnSale(db.sharedReads, db.db)).has("react-fundamentals")).toBe(false);
  });

  it("keeps what a write to another table, or a write rolled back, did not change", async () => {
    const db = await listening();
    const offSale = offSaleCount(db);
    let nameLoads = 0;
    const names = () =>
      db.sharedReads.read("names", ["users"], async () => {
        nameLoads += 1;
        return (await db.db.select({ name: users.name }).from(users)).map((row) => row.name);
      });
    await offSale.read();
    await names();

    await db.db.insert(user).values({ id: "u-kept", name: "Kept Kavya", email: "kept@example.com" });
    await db.db.insert(users).values({ uid: "u-kept", name: "Kavya" });
    await vi.waitFor(async () => expect(await names()).toEqual(["Kavya"]), eventually);
    const loadsAfterInsert = nameLoads;

    // Signing in touches the row, not the name: what was read of names stays.
    await db.db.update(users).set({ lastLogin: new Date() }).where(eq(users.uid, "u-kept"));
    await expect(db.db.transaction(async (tx) => {
      await tx.insert(unpublishedCourses).values({ courseId: "python-data", reason: "Rolled back." });
      throw new Error("changed my mind");
    })).rejects.toThrow("changed my mind");
    // A later rename is announced after both, so once it is heard they would have been too.
    await db.db.update(users).set({ name: "Kavya R" }).where(eq(users.uid, "u-kept"));
    await vi.waitFor(async () => expect(await names()).toEqual(["Kavya R"]), eventually);
    expect(nameLoads).toBe(loadsAfterInsert + 1);
    expect(await offSale.read()).toBe(0);
    expect(offSale.loads()).toBe(1);
  });

  it("shares one load among readers asking at once, and keeps no failure", async () => {
    const db = await listening();
    let loads = 0;
    const slow = () =>
      db.sharedReads.read("slow", ["feedback"], async () => {
        loads += 1;
        await new Promise((resolve) => setTimeout(resolve, 20));
        return loads;
      });
    expect(await Promise.all([slow(), slow(), slow()])).toEqual([1, 1, 1]);

    let attempts = 0;
    const flaky = () =>
      db.sharedReads.read("flaky", ["feedback"], async () => {
        attempts += 1;
        if (attempts === 1) throw new Error("the database hiccuped");
        return "answer";
      });
    await expect(flaky()).rejects.toThrow("the database hiccuped");
    expect(await flaky()).toBe("answer");
    expect(await flaky()).toBe("answer");
    expect(attempts).toBe(2);
  });
});

describe("shared reads without a feed of changes", () => {
  it("go to the database every time, and keep at most their bound of answers", async () => {
    let loads = 0;
    const unheard = new SharedReads(() => null);
    await unheard.read("a", ["feedback"], async () => ++loads);
    await unheard.read("a", ["feedback"], async () => ++loads);
    expect(loads).toBe(2);

    const live = { live: true, subscribe: () => () => {}, close: async () => {} };
    const bounded = new SharedReads(() => live, { maxEntries: 2, maxAgeMs: 60_000 });
    const counts = new Map<string, number>();
    const read = (key: string) => bounded.read(key, ["feedback"], async () => counts.set(key, (counts.get(key) ?? 0) + 1).get(key));
    await read("a");
    await read("b");
    await read("a");
    expect(counts.get("a")).toBe(1);
    // A third key finds the bound reached: everything is dropped rather than growing.
    await read("c");
    await read("a");
    expect(counts.get("a")).toBe(2);

    const aging = new SharedReads(() => live, { maxAgeMs: 0 });
    let aged = 0;
    await aging.read("x", ["feedback"], async () => ++aged);
    await aging.read("x", ["feedback"], async () => ++aged);
    expect(aged).toBe(2);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)("shared reads across processes on PostgreSQL", () => {
  const serverUrl = process.env.TEST_DATABASE_URL as string;
  const opened: Database[] = [];
  let drop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((database) => database.close()));
    await drop?.();
  });

  /** Two processes' handles on one database, and the database's name. */
  async function twoProcesses(): Promise<[Database, Database, string]> {
    const created = await newPostgresDatabase(serverUrl, await migratedPostgresTemplate(serverUrl));
    drop = created.drop;
    const pair: [Database, Database] = [fromPostgres(created.url), fromPostgres(created.url)];
    opened.push(...pair);
    for (const database of pair) await vi.waitFor(() => expect(database.sharedReads.live).toBe(true), eventually);
    return [...pair, new URL(created.url).pathname.slice(1)];
  }

  it("drops what one process kept when another writes", async () => {
    const [reader, writer] = await twoProcesses();
    const offSale = offSaleCount(reader);
    expect(await offSale.read()).toBe(0);
    await takeOffSale(writer, "react-fundamentals");
    await vi.waitFor(async () => expect(await offSale.read()).toBe(1), eventually);
  });

  it("keeps nothing while its listening connection is down, and drops everything once it listens again", async () => {
    const [reader, writer, name] = await twoProcesses();
    const offSale = offSaleCount(reader);
    expect(await offSale.read()).toBe(0);
    // The server ends the connection that listens (a restart, a failover, an idle timeout), and a write lands before it is back.
    await withAdmin(serverUrl, (admin) =>
      admin.query("select pg_terminate_backend(pid) from pg_stat_activity where query ilike 'LISTEN%' and datname = $1", [name]),
    );
    await takeOffSale(writer, "react-fundamentals");
    await vi.waitFor(async () => expect(await offSale.read()).toBe(1), eventually);
    // Listening again, it keeps what it reads once more.
    await vi.waitFor(() => expect(reader.sharedReads.live).toBe(true), eventually);
    expect(await offSale.read()).toBe(1);
    const loads = offSale.loads();
    expect(await offSale.read()).toBe(1);
    expect(offSale.loads()).toBe(loads);
  });
});
