import pino from "pino";

export type Logger = pino.Logger;

/** Drizzle puts a failed query's values on a line of their own: `params: <id>,<email>,…`. */
const paramsLine = /\nparams: [^\n]*/g;

/**
 * Errors as pino writes them, without the personal data a failed query carries: the statement and
 * the database's reason stay, the values it was given (ids, addresses, names) and PostgreSQL's
 * `detail` ("Key (email)=(…) already exists") do not.
 */
function errorWithoutValues(error: unknown): unknown {
  const serialized = pino.stdSerializers.err(error as Error) as unknown as Record<string, unknown>;
  if (!serialized || typeof serialized !== "object" || !("message" in serialized)) return serialized;
  const { params: _params, detail: _detail, raw: _raw, ...kept } = serialized;
  for (const key of ["message", "stack"] as const) {
    if (typeof kept[key] === "string") kept[key] = (kept[key] as string).replace(paramsLine, "");
  }
  return kept;
}

/**
 * JSON lines on stdout; one object per event. Written asynchronously: a synchronous write per
 * request line took a fifth of the CPU of a light request. Lines written while a write is under
 * way go out together with the next one, and what is pending is flushed when the process exits.
 * Each line names its process, since WEB_CONCURRENCY may run several.
 */
export function createLogger(level: pino.LevelWithSilent, destination: pino.DestinationStream = pino.destination({ dest: 1, sync: false })): Logger {
  return pino({ level, base: { service: "academy", pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime, serializers: { err: errorWithoutValues } }, destination);
}
