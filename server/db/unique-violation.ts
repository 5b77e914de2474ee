/** Whether a write failed on a unique index (PostgreSQL's 23505), as node-postgres and PGlite report it. */
export const isUniqueViolation = (error: unknown): boolean =>
  (error as { code?: unknown }).code === "23505" || (error as { cause?: { code?: unknown } }).cause?.code === "23505";
