import type { Clock } from '../clock.js';
import type { Repositories } from '../db/repositories/index.js';
import type { PeriodicTask } from './worker.js';

const HOUR_MS = 3_600_000;
/** Finished jobs are kept this long for operators to look at; their effects live in their own tables. */
export const DONE_JOBS_KEPT_MS = 7 * 24 * HOUR_MS;

/**
 * Removes what has served its time, at most once an hour: finished jobs older than a week, stored
 * responses past their replay window (return de-duplication, Idempotency-Key), the sign-outs of console
 * sessions that have expired anyway, and carriers' pick-up point answers past their time.
 */
export class HousekeepingTask implements PeriodicTask {
  readonly name = 'housekeeping';
  private lastRun = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly repos: Repositories,
    private readonly clock: Clock,
  ) {}

  async runOnce(): Promise<number> {
    const now = this.clock.now();
    if (now.getTime() - this.lastRun < HOUR_MS) return 0;
    this.lastRun = now.getTime();
    const jobs = await this.repos.jobs.purgeDone(new Date(now.getTime() - DONE_JOBS_KEPT_MS).toISOString());
    const replays = await this.repos.replays.purgeExpired(now.toISOString());
    const signOuts = await this.repos.consoleSessions.purgeExpired(now.toISOString());
    const pudo = await this.repos.pudoCache.purgeExpired(now.toISOString());
    return jobs + replays + signOuts + pudo;
  }
}
