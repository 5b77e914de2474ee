import { sql, type AnyColumn, type SQL } from "drizzle-orm";

/** Where a list paged newest first by time and id left off: the last row's time and id. */
export interface TimeCursor {
  createdAt: Date;
  id: string;
}

/**
 * A time column to the millisecond a JavaScript Date holds, so a cursor made from a row compares
 * equal to it: order by this and the id, and page with `olderThan`.
 */
export const toTheMillisecond = (column: AnyColumn): SQL => sql`date_trunc('milliseconds', ${column})`;

/** Rows older than `cursor` in the order (time, id) descending. */
export const olderThan = (time: SQL, id: AnyColumn, cursor: TimeCursor): SQL =>
  sql`(${time}, ${id}) < (${cursor.createdAt.toISOString()}::timestamptz, ${cursor.id}::uuid)`;
