import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { session } from "../../server/db/schema.ts";
import { databaseKinds, identitySuite, testCatalog } from "./helpers.ts";

describe.each(databaseKinds)("signed-in devices on $name", ({ open }) => {
  const suite = identitySuite(open, testCatalog([]));

  it("are at most 50 a person: a new sign-in signs the longest-unused device out, so the devices list stays short", async () => {
    const { id } = await suite.signUp();
    const context = await suite.identity.auth.$context;
    const first = await context.internalAdapter.createSession(id);
    for (let i = 0; i < 55; i++) await context.internalAdapter.createSession(id);
    const [{ live } = { live: 0 }] = await suite.db.select({ live: count() }).from(session).where(eq(session.userId, id));
    expect(live).toBe(50);
    expect(await context.internalAdapter.findSession(first.token)).toBeNull();
    // Another person's devices are not touched.
    const other = await suite.signUp();
    const theirs = await context.internalAdapter.createSession(other.id);
    await context.internalAdapter.createSession(id);
    expect(await context.internalAdapter.findSession(theirs.token)).not.toBeNull();
  });
});
