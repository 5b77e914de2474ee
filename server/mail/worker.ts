import type { Db } from "../db/client.ts";
import { outsideRequest, type Logger } from "../logger.ts";
import { deliverDueMail, type MailTransport } from "./outbox.ts";

const address = /[^\s<>"'(),;:]+@[^\s<>"'(),;:]+/g;

/** A transport's reason with any e-mail address in it replaced. */
function withoutAddresses(reason: string): string {
  return reason.replace(address, "[address]");
}

export interface MailWorker {
  /** Look for due mail now instead of at the next tick (called right after enqueueing). */
  nudge(): void;
  stop(): Promise<void>;
}

/** Delivers outbox mail every `intervalMs`, and at once when nudged. */
export function startMailWorker(options: { db: Db; transport: MailTransport; logger: Logger; intervalMs?: number }): MailWorker {
  const { db, transport, logger } = options;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  const run = (): void => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    // Nudged from a request, it is still not that request's work: its lines name no request.
    running = outsideRequest(async () => {
      for (;;) {
        again = false;
        try {
          const { sent, failed } = await deliverDueMail(db, transport, {
            failed: ({ reason, gaveUp, ...failure }) => {
              // An SMTP reply often quotes the recipient; the mail's id finds it in the outbox.
              const logged = { ...failure, transport: transport.kind, reason: withoutAddresses(reason) };
              if (gaveUp) logger.error(logged, "mail not delivered after every attempt; given up");
              else logger.warn(logged, "mail not delivered; will try again");
            },
          });
          if (sent > 0) logger.info({ sent, transport: transport.kind }, "mail delivered");
          if (sent + failed === 10) again = true;
        } catch (error) {
          logger.error({ err: error }, "mail delivery failed");
        }
        if (!again || stopped) break;
      }
    }).finally(() => {
      running = undefined;
    });
  };

  const timer = setInterval(run, options.intervalMs ?? 15_000);
  timer.unref();
  run();
  return {
    nudge: run,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      transport.close();
    },
  };
}
