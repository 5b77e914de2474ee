import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { throttles } from "../db/schema.ts";

/**
 * One more hit in a fixed window of `windowSeconds` (weighing `cost`): the count and window start an
 * upsert on the throttle row sets (a new window once the old one is over), and the seconds the window has left.
 */
export function throttleHit(windowSeconds: number, cost = 1) {
  const window = sql`make_interval(secs => ${windowSeconds})`;
  const over = sql`${throttles.windowStartedAt} + ${window} <= now()`;
  return {
    count: sql`case when ${over} then ${cost}::int else ${throttles.count} + ${cost}::int end`,
    windowStartedAt: sql`case when ${over} then now() else ${throttles.windowStartedAt} end`,
    retryAfter: sql<number>`ceil(extract(epoch from (${throttles.windowStartedAt} + ${window} - now())))::int`,
  };
}

/**
 * Counts one hit on `key` in a fixed window and says whether it is within `max`. One statement,
 * so concurrent requests cannot both slip under the limit. A hit may weigh more than one (`cost`),
 * for requests whose work varies.
 */
export async function consumeThrottle(
  db: Db,
  key: string,
  rule: { windowSeconds: number; max: number },
  cost = 1,
): Promise<{ allowed: boolean; count: number; retryAfterSeconds: number }> {
  const hit = throttleHit(rule.windowSeconds, cost);
  const rows = await db
    .insert(throttles)
    .values({ key, count: cost, windowStartedAt: sql`now()` })
    .onConflictDoUpdate({ target: throttles.key, set: { count: hit.count, windowStartedAt: hit.windowStartedAt } })
    .returning({ count: throttles.count, retryAfter: hit.retryAfter });
  const row = rows[0] ?? { count: cost, retryAfter: 0 };
  return { allowed: row.count <= rule.max, count: row.count, retryAfterSeconds: Math.max(0, row.retryAfter) };
}
