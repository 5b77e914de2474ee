import type { TimeCursor } from "../../../server/staff/index.ts";

/** The `before` of a list paged by time and id ("2026-11-27T08:00:00.000Z_<uuid>"), or undefined when it is not one. */
export function timeCursorIn(params: URLSearchParams): TimeCursor | undefined {
  const [at, id] = (params.get("before") ?? "").split("_");
  return at && id && !Number.isNaN(Date.parse(at)) && /^[0-9a-f-]{36}$/.test(id) ? { createdAt: new Date(at), id } : undefined;
}

/** The `before` that asks for the page after `cursor`. */
export const timeCursorText = (cursor: TimeCursor | null): string | null => (cursor ? `${cursor.createdAt.toISOString()}_${cursor.id}` : null);
