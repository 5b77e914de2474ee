import { createHash, randomBytes } from "node:crypto";
import { and, count, desc, eq, gt, isNull, or } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { apiKeys } from "../db/schema.ts";
import { Conflict, NotFound, ValidationError } from "../errors.ts";
import { apiScopes, keyLifetimes, keyLimits, type ApiScope } from "../../common/api-keys.ts";

/** Every secret starts so, which tells a key from a CLI token and lets secret scanners find leaked ones. */
export const apiKeyPrefix = "acd_";

const hash = (secret: string) => createHash("sha256").update(secret).digest("hex");

export interface ApiKeySummary {
  id: string;
  name: string;
  prefix: string;
  scopes: ApiScope[];
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  createdAt: Date;
}

const summary = (row: typeof apiKeys.$inferSelect): ApiKeySummary => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  scopes: row.scopes.filter((s): s is ApiScope => (apiScopes as readonly string[]).includes(s)),
  expiresAt: row.expiresAt,
  lastUsedAt: row.lastUsedAt,
  createdAt: row.createdAt,
});

/**
 * Makes a key. The secret is returned this once and never stored: only its hash is. A name, at
 * least one known scope and one of the offered lifetimes are required.
 */
export async function createApiKey(
  db: Db,
  userId: string,
  input: { name: string; scopes: string[]; lifetimeDays: number | null },
  now: Date,
): Promise<{ key: ApiKeySummary; secret: string }> {
  const name = input.name.replace(/\s+/g, " ").trim();
  if (!name) throw new ValidationError("Give the key a name, so you know later what uses it.");
  if (name.length > keyLimits.name) throw new ValidationError(`Keep the name to ${keyLimits.name} characters or fewer.`);
  const scopes = [...new Set(input.scopes)];
  if (scopes.length === 0) throw new ValidationError("Choose at least one thing the key may do.");
  const unknown = scopes.find((s) => !(apiScopes as readonly string[]).includes(s));
  if (unknown) throw new ValidationError(`"${unknown}" is not a scope. Choose from ${apiScopes.join(", ")}.`);
  if (!(keyLifetimes as readonly (number | null)[]).includes(input.lifetimeDays)) throw new ValidationError("Choose how long the key lasts from the list.");
  const [live] = await db.select({ n: count() }).from(apiKeys).where(and(eq(apiKeys.userId, userId), usable(now)));
  if ((live?.n ?? 0) >= keyLimits.perUser) throw new Conflict(`You have ${keyLimits.perUser} keys already. Revoke one you no longer use first.`);
  const secret = `${apiKeyPrefix}${randomBytes(32).toString("base64url")}`;
  const expiresAt = input.lifetimeDays === null ? null : new Date(now.getTime() + input.lifetimeDays * 86_400_000);
  const [row] = await db
    .insert(apiKeys)
    .values({ userId, name, prefix: secret.slice(0, apiKeyPrefix.length + 6), secretHash: hash(secret), scopes, expiresAt, createdAt: now })
    .returning();
  if (!row) throw new Conflict("The key could not be made. Try again.");
  return { key: summary(row), secret };
}

/** Not revoked and not expired. */
function usable(now: Date) {
  return and(isNull(apiKeys.revokedAt), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now)));
}

/** The user's keys that still work, newest first. */
export async function listApiKeys(db: Db, userId: string, now: Date): Promise<ApiKeySummary[]> {
  const rows = await db.select().from(apiKeys).where(and(eq(apiKeys.userId, userId), usable(now))).orderBy(desc(apiKeys.createdAt));
  return rows.map(summary);
}

/** Revokes one of the user's keys; another person's key, or none, is not found. Revoking twice changes nothing. */
export async function revokeApiKey(db: Db, userId: string, keyId: string, now: Date): Promise<void> {
  if (!/^[0-9a-f-]{36}$/i.test(keyId)) throw new NotFound("We could not find that key.");
  const [row] = await db.select({ id: apiKeys.id }).from(apiKeys).where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId)));
  if (!row) throw new NotFound("We could not find that key.");
  await db.update(apiKeys).set({ revokedAt: now }).where(and(eq(apiKeys.id, row.id), isNull(apiKeys.revokedAt)));
}
