import type { Db } from "../db/client.ts";
import { inRounds } from "../jobs/rounds.ts";
import type { Logger } from "../logger.ts";
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
  const rounds = inRounds(async () => {
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
      // A full batch: there may be more due.
      return sent + failed === 10;
    } catch (error) {
      logger.error({ err: error }, "mail delivery failed");
      return false;
    }
  });

  const timer = setInterval(rounds.run, options.intervalMs ?? 15_000);
  timer.unref();
  rounds.run();
  return {
    nudge: rounds.run,
    async stop() {
      clearInterval(timer);
      await rounds.stop();
      transport.close();
    },
  };
}
