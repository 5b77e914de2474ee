import type { ExpiryCursor, TimeCursor } from "../../../server/staff/index.ts";

/** The `before` of a list paged by time and id ("2026-11-27T08:00:00.000Z_<uuid>"), or undefined when it is not one. */
export function timeCursorIn(params: URLSearchParams): TimeCursor | undefined {
  const [at, id] = (params.get("before") ?? "").split("_");
  return at && id && !Number.isNaN(Date.parse(at)) && /^[0-9a-f-]{36}$/.test(id) ? { createdAt: new Date(at), id } : undefined;
}

/** The `before` that asks for the page after `cursor`. */
export const timeCursorText = (cursor: TimeCursor | null): string | null => (cursor ? `${cursor.createdAt.toISOString()}_${cursor.id}` : null);

/** The `before` of a list paged by a growing number (order numbers, audit entries), or undefined when it is not one. */
export function numberCursorIn(params: URLSearchParams): number | undefined {
  const before = Number(params.get("before"));
  return Number.isSafeInteger(before) && before > 0 ? before : undefined;
}

/** The `after` of a list paged by expiry, soonest first ("2026-11-27T08:00:00.000Z_<uuid>", or "never_<uuid>" for one never paid), or undefined when it is not one. */
export function expiryCursorIn(params: URLSearchParams): ExpiryCursor | undefined {
  const [at, id] = (params.get("after") ?? "").split("_");
  if (!at || !id || !/^[0-9a-f-]{36}$/.test(id)) return undefined;
  if (at === "never") return { expiresAt: null, id };
  return Number.isNaN(Date.parse(at)) ? undefined : { expiresAt: new Date(at), id };
}

/** The `after` that asks for the page after `cursor`. */
export const expiryCursorText = (cursor: ExpiryCursor | null): string | null => (cursor ? `${cursor.expiresAt?.toISOString() ?? "never"}_${cursor.id}` : null);
