import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { inArray } from "drizzle-orm";
import type { Db } from "./client.ts";
import { appRoots } from "./schema.ts";

/** Each generated secret and its row in app_roots, beside the encryption key's document. */
const rows = { authSecret: "AuthSecret", sandboxKeySecret: "SandboxKeySecret", sandboxWebhookSecret: "SandboxWebhookSecret" } as const;

export type GeneratedSecrets = Record<keyof typeof rows, string>;

/**
 * The secrets nobody configured, generated once into the database: every process on it signs
 * sessions and sandbox payments alike, and restarts keep them. The first process to insert a row
 * wins and the others read its value. A DATA_DIR/secrets.json written by an earlier version seeds
 * the rows, so its sessions outlive the upgrade.
 */
export async function loadGeneratedSecrets(db: Db, legacyFile: string): Promise<GeneratedSecrets> {
  let legacy: Partial<Record<string, unknown>> = {};
  try {
    legacy = JSON.parse(await readFile(legacyFile, "utf8")) as Record<string, unknown>;
  } catch {
    // No file from an earlier version: every value is new.
  }
  const entries = Object.entries(rows) as [keyof GeneratedSecrets, string][];
  await db
    .insert(appRoots)
    .values(entries.map(([name, id]) => ({ id, key: typeof legacy[name] === "string" ? legacy[name] : randomBytes(32).toString("base64url") })))
    .onConflictDoNothing();
  const stored = new Map(
    (await db.select({ id: appRoots.id, key: appRoots.key }).from(appRoots).where(inArray(appRoots.id, Object.values(rows)))).map((r) => [r.id, r.key]),
  );
  return Object.fromEntries(
    entries.map(([name, id]) => {
      const value = stored.get(id);
      if (!value) throw new Error(`The generated secret ${id} is missing from app_roots`);
      return [name, value];
    }),
  ) as GeneratedSecrets;
}
