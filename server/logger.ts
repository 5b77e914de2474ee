import pino from "pino";

export type Logger = pino.Logger;

/** JSON lines on stdout; one object per event. */
export function createLogger(level: pino.LevelWithSilent): Logger {
  return pino({ level, base: { service: "academy" }, timestamp: pino.stdTimeFunctions.isoTime });
}
