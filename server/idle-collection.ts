import type { IncomingMessage, ServerResponse } from "node:http";

type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/**
 * How long a spell must be quiet before the server collects (decision 033). A collection costs the
 * next busy spell a little, so it waits for a quiet that says the busy spell is over, not a pause
 * inside it.
 */
export const idleCollectionQuietMs = 30_000;

/** At most this many requests in `quietMs` (one a second) still make a quiet spell (decision 036). */
const quietRequestsPerSecond = 1;

export interface QuietCollection {
  /** A full garbage collection. */
  collect: () => void;
  quietMs: number;
  /** Requests that do not count as traffic: a load balancer's or a container's probes. */
  isProbe: (req: IncomingMessage) => boolean;
}

/**
 * Runs `collect` (a full garbage collection) once a spell of `quietMs` after a busy spell has served
 * at most one request a second, probes left out (so within `quietMs`–2×`quietMs` of the traffic
 * falling off), and once after start-up. V8 keeps the heap a burst of traffic grew (the young
 * generation alone is up to 48 MB); collecting when quiet hands it back to the operating system, so
 * resident memory falls back to its idle size instead of staying at its peak.
 * Returns the handler to serve with (it counts requests) and a function that stops the timer.
 */
export function collectWhenQuiet(handler: Handler, { collect, quietMs, isProbe }: QuietCollection): { handler: Handler; stop: () => void } {
  const quietRequests = (quietMs / 1_000) * quietRequestsPerSecond;
  let served = 0;
  let dirty = true;
  const timer = setInterval(() => {
    if (served > quietRequests) dirty = true;
    else if (dirty) {
      dirty = false;
      collect();
    }
    served = 0;
  }, quietMs);
  timer.unref();
  return {
    handler: (req, res) => {
      if (!isProbe(req)) served++;
      return handler(req, res);
    },
    stop: () => clearInterval(timer),
  };
}

const keepAlive = () => {};

/**
 * V8's last-resort collection through `gc` (Node's `--expose-gc`), leaving Node's own hot path as
 * fast as it was (decision 036). Such a collection also frees the hidden classes that no live object
 * has, and the inline caches that named them cannot name their successors: `process.nextTick` builds
 * its tick object from a literal with computed keys, whose caches then turn megamorphic for the life
 * of the process (61 → 417 ns a tick, measured). A tick queued across the collection is such an object, so
 * its classes survive.
 */
export function lastResortCollection(gc: NodeJS.GCFunction): () => void {
  return () => {
    // With an argument, as Node queues most of its own ticks.
    process.nextTick(keepAlive, null);
    gc({ type: "major", execution: "sync", flavor: "last-resort" });
  };
}
