import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Database } from "../../server/db/client.ts";
import { loadGeneratedSecrets } from "../../server/db/generated-secrets.ts";
import { databaseKinds } from "./helpers.ts";

const noFile = async () => path.join(await mkdtemp(path.join(tmpdir(), "academy-secrets-")), "secrets.json");

describe.each(databaseKinds)("generated secrets on $name", ({ open }) => {
  const opened: Database[] = [];
  const migrated = async () => {
    const database = await open();
    opened.push(database);
    await database.migrate();
    return database;
  };
  afterEach(async () => {
    for (const database of opened.splice(0)) await database.close();
  });

  it("generates each secret once, so every process on the database signs alike", async () => {
    const { db } = await migrated();
    const [first, second, third] = await Promise.all([0, 1, 2].map(async () => loadGeneratedSecrets(db, await noFile())));
    expect(first?.authSecret.length).toBeGreaterThanOrEqual(32);
    expect(new Set([first?.authSecret, first?.sandboxKeySecret, first?.sandboxWebhookSecret]).size).toBe(3);
    expect(second).toEqual(first);
    expect(third).toEqual(first);
    expect(await loadGeneratedSecrets(db, await noFile())).toEqual(first);
  });

  it("differs between databases", async () => {
    const [a, b] = [await migrated(), await migrated()];
    expect((await loadGeneratedSecrets(a.db, await noFile())).authSecret).not.toBe((await loadGeneratedSecrets(b.db, await noFile())).authSecret);
  });

  it("takes the values an earlier version kept in DATA_DIR/secrets.json, so its sessions outlive the upgrade", async () => {
    const { db } = await migrated();
    const file = await noFile();
    await writeFile(file, JSON.stringify({ authSecret: "an-auth-secret-from-an-earlier-version-0123" }));
    const secrets = await loadGeneratedSecrets(db, file);
    expect(secrets.authSecret).toBe("an-auth-secret-from-an-earlier-version-0123");
    expect(secrets.sandboxKeySecret).not.toBe(secrets.sandboxWebhookSecret);
    await writeFile(file, JSON.stringify({ authSecret: "a-file-changed-later-does-not-replace-the-stored-one" }));
    expect(await loadGeneratedSecrets(db, file)).toEqual(secrets);
  });
});
