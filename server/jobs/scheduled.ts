import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { scheduledJobs } from "../db/schema.ts";
import type { Logger } from "../logger.ts";

export interface JobSchedule {
  name: string;
  /** Time between the end of one run and the start of the next, whichever process takes it. */
  everySeconds: number;
  /** How long a run may take before another process may assume its owner died and run it again. */
  leaseSeconds: number;
}

/**
 * Claims the job's next run when it is due and nobody holds it: one statement, so of several
 * processes asking at once exactly one gets it. A job seen for the first time is due at once.
 */
export async function claimRun(db: Db, job: JobSchedule): Promise<boolean> {
  const lease = sql`now() + make_interval(secs => ${job.leaseSeconds})`;
  const claimed = await db
    .insert(scheduledJobs)
    .values({ name: job.name, leaseUntil: lease, lastStartedAt: sql`now()` })
    .onConflictDoUpdate({
      target: scheduledJobs.name,
      set: { leaseUntil: lease, lastStartedAt: sql`now()` },
      setWhere: sql`${scheduledJobs.nextRunAt} <= now() and (${scheduledJobs.leaseUntil} is null or ${scheduledJobs.leaseUntil} < now())`,
    })
    .returning({ name: scheduledJobs.name });
  return claimed.length > 0;
}

/** Ends a claimed run: the lease is let go and the next run is due `everySeconds` from now. */
export async function finishRun(db: Db, job: JobSchedule, error: unknown): Promise<void> {
  await db
    .update(scheduledJobs)
    .set({
      leaseUntil: null,
      lastFinishedAt: sql`now()`,
      nextRunAt: sql`now() + make_interval(secs => ${job.everySeconds})`,
      lastError: error === undefined ? null : String((error as Error).message ?? error).slice(0, 500),
    })
    .where(eq(scheduledJobs.name, job.name));
}

export interface RunningJob {
  /** Waits for a run under way, then stops asking. */
  stop(): Promise<void>;
}

/**
 * Every process calls this for every job; each looks every `pollMs` (and at once) whether the job
 * is due and runs it only when its claim succeeds. The work itself must be safe to repeat: a
 * process that dies mid-run leaves the job to be run again by another once the lease is over.
 */
export function scheduleJob(options: {
  db: Db;
  job: JobSchedule;
  logger: Logger;
  run: () => Promise<void>;
  pollMs?: number;
}): RunningJob {
  const { db, job, logger } = options;
  let running: Promise<void> | undefined;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = (async () => {
      if (!(await claimRun(db, job))) return;
      let failure: unknown;
      try {
        await options.run();
      } catch (error) {
        failure = error;
        logger.error({ err: error, job: job.name }, "scheduled job failed");
      }
      await finishRun(db, job, failure);
    })()
      .catch((error: unknown) => logger.error({ err: error, job: job.name }, "scheduled job could not be claimed"))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, options.pollMs ?? Math.min(job.everySeconds * 1000, 60_000));
  timer.unref();
  tick();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
