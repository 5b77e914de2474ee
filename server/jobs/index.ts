import type { Site } from "../catalog/index.ts";
import type { Db } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import { queueDueReminders } from "../websites/index.ts";
import { cleanUp } from "./clean-up.ts";
import { scheduleJob, type JobSchedule } from "./scheduled.ts";

/** Renewal reminders are due by the day; ten minutes late is on time. */
export const reminderJob: JobSchedule = { name: "website-reminders", everySeconds: 10 * 60, leaseSeconds: 10 * 60 };
export const cleanUpJob: JobSchedule = { name: "clean-up", everySeconds: 60 * 60, leaseSeconds: 15 * 60 };

/** The periodic work of every server process; each run is done by one of them (server/jobs/scheduled.ts). */
export function startJobs(options: { db: Db; logger: Logger; site: () => Site; publicUrl: string; now: () => Date; mailQueued: () => void }): {
  stop(): Promise<void>;
} {
  const { db, logger } = options;
  const running = [
    scheduleJob({
      db,
      logger,
      job: reminderJob,
      run: async () => {
        const result = await queueDueReminders(db, { site: options.site(), publicUrl: options.publicUrl, now: options.now() });
        if (result.sent === 0) return;
        logger.info(result, "website reminders queued");
        options.mailQueued();
      },
    }),
    scheduleJob({
      db,
      logger,
      job: cleanUpJob,
      run: async () => {
        const removed = await cleanUp(db, options.now());
        if (Object.values(removed).some((n) => n > 0)) logger.info(removed, "clean-up removed expired rows");
      },
    }),
  ];
  return {
    async stop() {
      await Promise.all(running.map((job) => job.stop()));
    },
  };
}
