import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { throttles } from "../db/schema.ts";

/**
 * Counts one hit on `key` in a fixed window and says whether it is within `max`. One statement,
 * so concurrent requests cannot both slip under the limit.
 */
export async function consumeThrottle(
  db: Db,
  key: string,
  rule: { windowSeconds: number; max: number },
): Promise<{ allowed: boolean; count: number; retryAfterSeconds: number }> {
  const window = sql`make_interval(secs => ${rule.windowSeconds})`;
  const rows = await db
    .insert(throttles)
    .values({ key, count: 1, windowStartedAt: sql`now()` })
    .onConflictDoUpdate({
      target: throttles.key,
      set: {
        count: sql`case when ${throttles.windowStartedAt} + ${window} <= now() then 1 else ${throttles.count} + 1 end`,
        windowStartedAt: sql`case when ${throttles.windowStartedAt} + ${window} <= now() then now() else ${throttles.windowStartedAt} end`,
      },
    })
    .returning({
      count: throttles.count,
      retryAfter: sql<number>`ceil(extract(epoch from (${throttles.windowStartedAt} + ${window} - now())))::int`,
    });
  const row = rows[0] ?? { count: 1, retryAfter: 0 };
  return { allowed: row.count <= rule.max, count: row.count, retryAfterSeconds: Math.max(0, row.retryAfter) };
}
