import { outsideRequest } from "../logger.ts";

export interface Rounds {
  /** Run a round now, or one more after the round running, if any. */
  run(): void;
  /** No round starts from now on; resolves when the one running has ended. */
  stop(): Promise<void>;
}

/**
 * Background work done a round at a time, never two at once: asked while a round runs, it runs one
 * more after it, as it does when a round answers true (there is more to do). Woken from a request,
 * a round is still not that request's work: its log lines name no request. `round` handles its own
 * failures.
 */
export function inRounds(round: () => Promise<boolean>): Rounds {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  const run = (): void => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = outsideRequest(async () => {
      for (;;) {
        again = false;
        if (await round()) again = true;
        if (!again || stopped) break;
      }
    }).finally(() => {
      running = undefined;
    });
  };
  return {
    run,
    async stop() {
      stopped = true;
      await running;
    },
  };
}
