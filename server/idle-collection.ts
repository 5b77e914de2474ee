import type { IncomingMessage, ServerResponse } from "node:http";

type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/**
 * How long the server must have served nothing before it collects (decision 033). A collection
 * costs the next busy spell: for its first 20–50 s the same requests take about a third more CPU,
 * so it waits for a quiet that says the busy spell is over, not a pause inside it.
 */
export const idleCollectionQuietMs = 30_000;

/**
 * Runs `collect` (a full garbage collection) once the server has served no request for at least
 * `quietMs` (at most twice that) after a busy spell, and once after start-up. V8 keeps the heap a burst of traffic grew
 * (the young generation alone is up to 48 MB); collecting while idle hands it back to the operating
 * system, so resident memory falls back to its idle size instead of staying at its peak.
 * Returns the handler to serve with (it counts requests) and a function that stops the timer.
 */
export function collectWhenIdle(handler: Handler, collect: () => void, quietMs: number): { handler: Handler; stop: () => void } {
  let served = 0;
  let seen = 0;
  let dirty = true;
  const timer = setInterval(() => {
    if (served !== seen) {
      seen = served;
      dirty = true;
    } else if (dirty) {
      dirty = false;
      collect();
    }
  }, quietMs);
  timer.unref();
  return {
    handler: (req, res) => {
      served++;
      return handler(req, res);
    },
    stop: () => clearInterval(timer),
  };
}
