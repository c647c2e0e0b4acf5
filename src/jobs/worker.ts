import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Repositories } from '../db/repositories/index.js';
import { JOB_KINDS, type JobRow } from '../db/repositories/jobs.repository.js';
import type { AnyJobHandler, JobOutcome } from './job-handler.js';

/** Something the worker runs on each tick besides queued jobs (the tracking poller, housekeeping). */
export interface PeriodicTask {
  readonly name: string;
  /** Does one round of work; returns how much it did (0 = idle). */
  runOnce(): Promise<number>;
  /**
   * Whether its last round left more due than it took (a claim that came back full): the tasks then run again at
   * once. A task without it counts as behind after every round that did work.
   */
  behind?(): boolean;
}

export interface WorkerOptions {
  /** How long a claimed job is ours before another worker may take it over. */
  leaseMs?: number;
  /** Jobs running at once in this process. */
  concurrency?: number;
  idleDelayMs?: number;
  /**
   * After a round of the periodic tasks that did work and left none behind, the next round waits this long (1 s):
   * what falls due meanwhile (the first polls of new shipments) is then taken together, a configuration's lease,
   * claim and transaction shared by several shipments instead of one each.
   */
  roundGapMs?: number;
}

/**
 * Runs jobs from the database: claims due jobs under a lease, runs their handlers, records the outcome.
 * Several workers (in one process or in many) share the table without running one job twice at once; a
 * job whose worker died is taken over when its lease ends. Jobs run side by side up to `concurrency`, and
 * a slow job never holds up the claiming of others.
 */
export class Worker {
  readonly id = `worker-${randomUUID().slice(0, 8)}`;
  private readonly handlers = new Map<string, AnyJobHandler>();
  private readonly inFlight = new Set<Promise<void>>();
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private readonly leaseMs: number;
  private readonly concurrency: number;
  private readonly idleDelayMs: number;
  private readonly roundGapMs: number;
  /** Free slots worth a claim while jobs are running: claims fill several slots at once, not one per finished job. */
  private readonly claimAt: number;
  /** Finished jobs not yet marked done: recorded together, in one statement per round. */
  private completed: number[] = [];
  /** When the periodic tasks run next (they do not run on every finished job). */
  private tasksDueAt = 0;

  constructor(
    private readonly repos: Repositories,
    private readonly clock: Clock,
    private readonly log: Logger,
    handlers: AnyJobHandler[],
    private readonly tasks: PeriodicTask[] = [],
    options: WorkerOptions = {},
  ) {
    for (const handler of handlers) {
      if (this.handlers.has(handler.kind)) throw new Error(`two handlers for job kind "${handler.kind}"`);
      this.handlers.set(handler.kind, handler);
    }
    this.assertHandles(JOB_KINDS);
    this.leaseMs = options.leaseMs ?? 60_000;
    this.concurrency = options.concurrency ?? 32;
    this.idleDelayMs = options.idleDelayMs ?? 250;
    this.roundGapMs = options.roundGapMs ?? 1_000;
    this.claimAt = Math.max(1, Math.ceil(this.concurrency / 4));
  }

  /** Checks that every kind that can be enqueued has exactly one handler. */
  assertHandles(kinds: readonly string[]): void {
    const missing = kinds.filter((k) => !this.handlers.has(k));
    if (missing.length > 0) throw new Error(`no handler for job kinds: ${missing.join(', ')}`);
  }

  /** One round, waited for to the end: periodic tasks, then every due job. Returns how much was done. */
  async runOnce(): Promise<number> {
    const { done } = await this.runTasks();
    const jobs = await this.claim(this.concurrency);
    await Promise.all(jobs.map((job) => this.execute(job)));
    await this.recordCompleted();
    return done + jobs.length;
  }

  /** Runs rounds until one finds nothing to do (tests, and draining before shutdown). */
  async drain(maxRounds = 100): Promise<void> {
    for (let i = 0; i < maxRounds; i++) if ((await this.runOnce()) === 0) return;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Asks the loop to look for work now (after a write that enqueued some). */
  nudge(): void {
    this.wake?.();
  }

  /** Stops claiming, and waits for the jobs in flight to finish. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    this.loop = null;
    await Promise.all(this.inFlight);
    await this.recordCompleted();
  }

  /**
   * The loop: record finished jobs, run the periodic tasks when they are due (again at once while one is behind,
   * after the round gap when they found work, else after the idle delay), and claim jobs when enough slots are
   * free, or when none run.
   * It sleeps when a round did nothing; a finished job or a nudge wakes it.
   */
  private async run(): Promise<void> {
    while (this.running) {
      let worked = 0;
      let waitMs = this.idleDelayMs;
      try {
        await this.recordCompleted();
        const now = Date.now();
        if (now >= this.tasksDueAt) {
          const { done, behind } = await this.runTasks();
          this.tasksDueAt = Date.now() + (done === 0 ? this.idleDelayMs : behind ? 0 : this.roundGapMs);
          worked += done;
        } else waitMs = Math.min(waitMs, this.tasksDueAt - now);
        const free = this.concurrency - this.inFlight.size;
        if (free >= this.claimAt || (free > 0 && this.inFlight.size === 0)) {
          const jobs = await this.claim(free);
          for (const job of jobs) {
            const running = this.execute(job).finally(() => {
              this.inFlight.delete(running);
              // Woken when a claim is worth it; finished jobs are recorded then, or after the idle delay.
              const free = this.concurrency - this.inFlight.size;
              if (free >= this.claimAt || this.inFlight.size === 0) this.wake?.();
            });
            this.inFlight.add(running);
          }
          worked += jobs.length;
        }
      } catch (error) {
        this.log.error({ err: error }, 'worker round failed');
      }
      if (worked === 0 && this.running) await this.sleep(waitMs);
    }
  }

  /** Marks finished jobs done, in one statement; on failure their leases run out and they run again. */
  private async recordCompleted(): Promise<void> {
    if (this.completed.length === 0) return;
    const ids = this.completed;
    this.completed = [];
    try {
      await this.repos.jobs.completeMany(ids, this.id, this.clock.now().toISOString());
    } catch (error) {
      this.log.error({ err: error, job_ids: ids }, 'recording finished jobs failed');
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, Math.max(1, ms));
      this.wake = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
    });
  }

  /** One round of every periodic task: how much they did, and whether one of them is behind. */
  private async runTasks(): Promise<{ done: number; behind: boolean }> {
    let done = 0;
    let behind = false;
    for (const task of this.tasks) {
      try {
        const did = await task.runOnce();
        done += did;
        if (did > 0 && (task.behind?.() ?? true)) behind = true;
      } catch (error) {
        this.log.error({ err: error, task: task.name }, 'periodic task failed');
      }
    }
    return { done, behind };
  }

  private claim(limit: number): Promise<JobRow[]> {
    const now = this.clock.now();
    return this.repos.jobs.claim(this.id, now.toISOString(), new Date(now.getTime() + this.leaseMs).toISOString(), limit, [
      ...this.handlers.keys(),
    ]);
  }

  private async execute(job: JobRow): Promise<void> {
    const handler = this.handlers.get(job.kind);
    const now = () => this.clock.now().toISOString();
    const later = (ms: number) => new Date(this.clock.now().getTime() + ms).toISOString();
    let outcome: JobOutcome;
    try {
      outcome = handler
        ? await handler.run({ payload: JSON.parse(job.payload), attempt: job.attempts, accountId: job.account_id })
        : { result: 'dead', error: `no handler for ${job.kind}` };
    } catch (error) {
      this.log.error({ err: error, job_id: job.id, kind: job.kind }, 'job failed');
      outcome = { result: 'retry', error: error instanceof Error ? error.message : String(error) };
    }
    try {
      if (outcome.result === 'done') {
        this.completed.push(job.id);
        return;
      }
      if (outcome.result === 'defer') return await this.repos.jobs.defer(job.id, this.id, later(outcome.delayMs), now());
      if (outcome.result === 'dead' || job.attempts >= job.max_attempts) {
        this.log.warn({ job_id: job.id, kind: job.kind, error: outcome.error }, 'job given up');
        return await this.repos.jobs.bury(job.id, this.id, outcome.error, now());
      }
      const delay = outcome.delayMs ?? handler?.backoffMs(job.attempts) ?? 60_000;
      await this.repos.jobs.retry(job.id, this.id, later(delay), outcome.error, now());
    } catch (error) {
      // The lease runs out and another round takes the job again.
      this.log.error({ err: error, job_id: job.id }, 'recording a job outcome failed');
    }
  }
}
