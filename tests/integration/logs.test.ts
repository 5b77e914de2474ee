import { Writable } from "node:stream";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromPglite, type Database } from "../../server/db/client.ts";
import { user } from "../../server/db/schema.ts";
import { createLogger } from "../../server/logger.ts";

let database: Database;
beforeAll(async () => {
  database = fromPglite(await PGlite.create());
  await database.migrate();
});
afterAll(() => database.close());

/** A logger writing its lines into an array, as the process's would go to stdout. */
function capturedLogger() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
      done();
    },
  });
  return { logger: createLogger("info", destination), lines };
}

describe("a failed query in the logs", () => {
  it("names the statement and the database's reason, but none of the values it carried", async () => {
    const email = "asha.verma+private@example.com";
    const values = { id: "user-id-4f1c9a", name: "Asha Verma", email, emailVerified: false, createdAt: new Date(), updatedAt: new Date() };
    await database.db.insert(user).values(values);
    const failure = await database.db
      .insert(user)
      .values(values)
      .catch((error: unknown) => error);
    const { logger, lines } = capturedLogger();
    logger.error({ err: failure }, "request failed");
    logger.flush();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const line = lines.join("\n");
    expect(line).toContain("request failed");
    expect(line).toContain('insert into \\"user\\"');
    expect(line).toMatch(/duplicate key value violates unique constraint/);
    for (const secret of [email, "user-id-4f1c9a", "Asha Verma"]) expect(line).not.toContain(secret);
  });
});
