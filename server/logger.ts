import { AsyncLocalStorage } from "node:async_hooks";
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

/** What every line logged while a request is handled says about it, whoever logs the line. */
export interface RequestScope {
  requestId: string;
  /** Set once the request is known to be signed in (a session or an API credential); never the e-mail. */
  userId?: string;
  /** The first error the request failed with, which its one request line reports. */
  error?: unknown;
  /** Set once the request's line is written: work it started that outlives it logs its own errors. */
  closed?: boolean;
}

const requestScope = new AsyncLocalStorage<RequestScope>();

/** Runs `handle` (a request's handling) with `scope` on every line logged meanwhile. */
export function inRequestScope<T>(scope: RequestScope, handle: () => Promise<T>): Promise<T> {
  return requestScope.run(scope, handle);
}

/** Runs `work` as no request's: background work a request only woke up (the mail worker) is not that request's. */
export function outsideRequest<T>(work: () => T): T {
  return requestScope.exit(work);
}

/** Records who the request being handled is signed in as, for its log lines. */
export function noteRequestUser(userId: string): void {
  const scope = requestScope.getStore();
  if (scope) scope.userId = userId;
}

/** Whether `error` is `earlier` or wraps it (an APIError made from a database error keeps it as its cause). */
function wraps(error: unknown, earlier: unknown): boolean {
  let current = error;
  for (let depth = 0; depth < 8 && typeof current === "object" && current !== null; depth++) {
    if (current === earlier) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * An error a request failed with: kept for the request's own line (one line with its id, route,
 * status, user and client, written by the HTTP layer), or logged now when no request is being
 * handled. The same failure reported again on its way up (wrapped by a library) is not repeated;
 * a second, different one gets a line of its own.
 */
export function reportError(logger: Logger, error: unknown, message: string): void {
  const scope = requestScope.getStore();
  if (scope && !scope.closed && scope.error === undefined) {
    scope.error = error;
    return;
  }
  if (scope && wraps(error, scope.error)) return;
  logger.error({ err: error }, message);
}

/** Paths whose last segment is a one-time secret: Better Auth's password-reset link is `/api/auth/reset-password/<token>`. */
const secretSegmentPaths = /^(\/api\/auth\/reset-password\/)[^/]+$/;

/** A request's path as its log line gives it: no query (tokens, searches), and no token that is part of the path. */
export function pathForLog(path: string): string {
  return path.replace(secretSegmentPaths, "$1[token]");
}

function requestFields(): Record<string, string> {
  const scope = requestScope.getStore();
  if (!scope) return {};
  return scope.userId === undefined ? { requestId: scope.requestId } : { requestId: scope.requestId, userId: scope.userId };
}

/**
 * JSON lines on stdout; one object per event. Written asynchronously: a synchronous write per
 * request line took a fifth of the CPU of a light request. Lines written while a write is under
 * way go out together with the next one, and what is pending is flushed when the process exits.
 * Each line names its process, since WEB_CONCURRENCY may run several, and a line logged while a
 * request is handled names that request (and its signed-in user), whichever module wrote it.
 */
export function createLogger(level: pino.LevelWithSilent, destination: pino.DestinationStream = pino.destination({ dest: 1, sync: false })): Logger {
  return pino(
    { level, base: { service: "academy", pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime, serializers: { err: errorWithoutValues }, mixin: requestFields },
    destination,
  );
}
