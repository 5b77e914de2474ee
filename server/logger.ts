import pino from "pino";

export type Logger = pino.Logger;

/**
 * JSON lines on stdout; one object per event. Written asynchronously: a synchronous write per
 * request line took a fifth of the CPU of a light request. Lines written while a write is under
 * way go out together with the next one, and what is pending is flushed when the process exits.
 * Each line names its process, since WEB_CONCURRENCY may run several.
 */
export function createLogger(level: pino.LevelWithSilent): Logger {
  return pino({ level, base: { service: "academy", pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime }, pino.destination({ dest: 1, sync: false }));
}
