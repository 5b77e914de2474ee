import { createHash } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import { cliTokenPrefix } from "../auth/options.ts";
import { throttleHit } from "../auth/throttle.ts";
import type { Db } from "../db/client.ts";
import { apiKeyPrefix } from "./keys.ts";
import { apiScopes, type ApiCaller, type ApiScope } from "./scopes.ts";
import { noteRequestUser } from "../logger.ts";

/** How stale an API key's "last used" may get before a request records it again. */
const lastUsedPrecisionSeconds = 60;

/** A rate-limit window as one request left it. */
interface Window {
  /** Whose window: the credential's own, or the person's across all their credentials. */
  by: "credential" | "person";
  max: number;
  count: number;
  retryAfterSeconds: number;
}

export interface Authorized {
  caller: ApiCaller;
  /** This request's place in the tighter of its windows (the credential's and its person's), and whether both allow it. */
  limit: { allowed: boolean; by: Window["by"]; max: number; remaining: number; retryAfterSeconds: number; /** What a refused request is told. */ refusal: string };
}

/** The window with less left is the one a client must heed; a request is allowed only when neither is over. */
function tighterWindow(credential: Window, person: Window): Authorized["limit"] {
  const over = [credential, person].find((w) => w.count > w.max);
  const binding = over ?? (person.max - person.count < credential.max - credential.count ? person : credential);
  const whose = binding.by === "person" ? "from your account's keys and signed-in CLIs together" : "with this token";
  return {
    allowed: !over,
    by: binding.by,
    max: binding.max,
    remaining: Math.max(0, binding.max - binding.count),
    retryAfterSeconds: binding.retryAfterSeconds,
    refusal: `Too many requests ${whose}. Try again in ${binding.retryAfterSeconds} seconds.`,
  };
}

interface Row {
  credential_id: string;
  session_id: string | null;
  user_id: string;
  email: string;
  name: string;
  scopes: string[] | null;
  count: number;
  retry_after: number;
  person_count: number;
  person_retry_after: number;
}

/**
 * A person's credentials together may make this many times one credential's allowance: a person
 * may hold twenty keys and several CLIs, and their requests are one person's load however they are spread.
 */
export const personAllowanceInCredentials = 2;

/** One hit on a rate-limit window of the caller's, keyed by `key` (an expression over the caller's row), counted as consumeThrottle counts, for the CTE below. */
function countHit(windowSeconds: number, key: SQL) {
  const hit = throttleHit(windowSeconds);
  return sql`insert into throttles (key, count, window_started_at)
      select ${key}, 1, now() from caller
      on conflict (key) do update set count = ${hit.count}, window_started_at = ${hit.windowStartedAt}
      returning count, ${hit.retryAfter} as retry_after`;
}

/** The credential's row, for the CTE below: an API key's (`acd_…`), or a CLI session's (`acli_…`) of a verified account. */
function callerQuery(token: string, at: string) {
  if (token.startsWith(apiKeyPrefix)) {
    return sql`select 'key:' || k.id as credential_id, null::text as session_id, k.id as key_id, k.user_id, u.email, u.name, k.scopes
        from api_keys k join "user" u on u.id = k.user_id
        where k.secret_hash = ${createHash("sha256").update(token).digest("hex")} and k.revoked_at is null
          and (k.expires_at is null or k.expires_at > ${at}::timestamptz)`;
  }
  if (token.startsWith(cliTokenPrefix)) {
    return sql`select 'session:' || s.id as credential_id, s.id as session_id, null::uuid as key_id, s.user_id, u.email, u.name, null::jsonb as scopes
        from session s join "user" u on u.id = s.user_id
        where s.token = ${token} and s.expires_at > ${at}::timestamptz and u.email_verified`;
  }
  return null;
}

/**
 * The caller a bearer token stands for — a session the CLI's device grant made or an API key —
 * and its hit counted against the credential's per-minute limit, in one statement: the API's door
 * costs one round trip. Null for any other token (a browser's session token, as sign-up or
 * list-sessions give it, is not a credential) and for one unknown, expired or revoked; nothing is
 * counted then.
 */
export async function authorize(db: Db, token: string, now: Date, rule: { windowSeconds: number; max: number }): Promise<Authorized | null> {
  const at = now.toISOString();
  const caller = callerQuery(token, at);
  if (!caller) return null;
  // The statement's writes are counters and a last-used time: its commit does not wait for the
  // write-ahead log to reach the disk (a crash could forget the last fraction of a second of
  // counts), which kept a disk flush out of every API request's time. Set for this statement's
  // own transaction only (set_config's `true`), so callers pass the pool, never a transaction.
  const result = await db.execute(sql`with counted_lightly as (select set_config('synchronous_commit', 'off', true)),
    caller as (${caller}),
    hit as (${countHit(rule.windowSeconds, sql`'api:' || credential_id`)}),
    person_hit as (${countHit(rule.windowSeconds, sql`'api-person:' || user_id`)}),
    touched as (
      update api_keys set last_used_at = ${at}::timestamptz
      where id = (select key_id from caller)
        and (last_used_at is null or last_used_at < ${at}::timestamptz - make_interval(secs => ${lastUsedPrecisionSeconds}))
      returning 1
    )
    select caller.credential_id, caller.session_id, caller.user_id, caller.email, caller.name, caller.scopes, hit.count, hit.retry_after,
      person_hit.count as person_count, person_hit.retry_after as person_retry_after
    from caller cross join hit cross join person_hit cross join counted_lightly`);
  const [row] = (result as unknown as { rows: Row[] }).rows;
  if (!row) return null;
  noteRequestUser(row.user_id);
  // A CLI session acts for its person in everything the API offers; a key, in what it was given.
  const scopes: readonly ApiScope[] = row.scopes ? apiScopes.filter((scope) => row.scopes?.includes(scope)) : apiScopes;
  return {
    caller: { userId: row.user_id, email: row.email, name: row.name, credentialId: row.credential_id, sessionId: row.session_id, scopes },
    limit: tighterWindow(
      { by: "credential", max: rule.max, count: row.count, retryAfterSeconds: Math.max(0, row.retry_after) },
      { by: "person", max: rule.max * personAllowanceInCredentials, count: row.person_count, retryAfterSeconds: Math.max(0, row.person_retry_after) },
    ),
  };
}
