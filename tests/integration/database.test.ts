import { afterEach, describe, expect, it } from "vitest";
import type { Database } from "../../server/db/client.ts";
import { appRoots } from "../../server/db/schema.ts";
import { databaseKinds } from "./helpers.ts";

describe.each(databaseKinds)("migrations on $name", ({ open }) => {
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
});
