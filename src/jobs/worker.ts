import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Repositories } from '../db/repositories/index.js';
import type { JobRow } from '../db/repositories/jobs.repository.js';
import type { JobHandler, JobOutcome } from './job-handler.js';

/** Something the worker runs on each tick besides queued jobs (the tracking poller, housekeeping). */
export interface PeriodicTask {
  readonly name: string;
  /** Does one round of work; returns how much it did (0 = idle). */
  runOnce(): Promise<number>;
}

export interface WorkerOptions {
  /** How long a claimed job is ours before another worker may take it over. */
  leaseMs?: number;
  batchSize?: number;
  concurrency?: number;
  idleDelayMs?: number;
}

/**
 * Runs jobs from the database: claims due jobs under a lease, runs their handlers, records the outcome.
 * Several workers (threads of one process or other processes) share the table without running one job twice
 * at once; a job whose worker died is taken over when its lease ends.
 */
export class Worker {
  readonly id = `worker-${randomUUID().slice(0, 8)}`;
  private readonly handlers = new Map<string, JobHandler<any>>();
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private readonly leaseMs: number;
  private readonly batchSize: number;
  private readonly concurrency: number;
  private readonly idleDelayMs: number;

  constructor(
    private readonly repos: Repositories,
    private readonly clock: Clock,
    private readonly log: Logger,
    handlers: JobHandler<any>[],
    private readonly tasks: PeriodicTask[] = [],
    options: WorkerOptions = {},
  ) {
    for (const handler of handlers) {
      if (this.handlers.has(handler.kind)) throw new Error(`two handlers for job kind "${handler.kind}"`);
      this.handlers.set(handler.kind, handler);
    }
    this.leaseMs = options.leaseMs ?? 60_000;
    this.batchSize = options.batchSize ?? 50;
    this.concurrency = options.concurrency ?? 8;
    this.idleDelayMs = options.idleDelayMs ?? 250;
  }

  /** Checks that every kind that can be enqueued has exactly one handler. */
  assertHandles(kinds: readonly string[]): void {
    const missing = kinds.filter((k) => !this.handlers.has(k));
    if (missing.length > 0) throw new Error(`no handler for job kinds: ${missing.join(', ')}`);
  }

  /** One round: periodic tasks, then every due job. Returns how much work was done. */
  async runOnce(): Promise<number> {
    let done = 0;
    for (const task of this.tasks) {
      try {
        done += await task.runOnce();
      } catch (error) {
        this.log.error({ err: error, task: task.name }, 'periodic task failed');
      }
    }
    const now = this.clock.now();
    const jobs = await this.repos.jobs.claim(
      this.id,
      now.toISOString(),
      new Date(now.getTime() + this.leaseMs).toISOString(),
      this.batchSize,
      [...this.handlers.keys()],
    );
    for (let i = 0; i < jobs.length; i += this.concurrency) {
      await Promise.all(jobs.slice(i, i + this.concurrency).map((job) => this.execute(job)));
    }
    return done + jobs.length;
  }

  /** Runs rounds until one finds nothing to do (tests, and draining before shutdown). */
  async drain(maxRounds = 100): Promise<void> {
    for (let i = 0; i < maxRounds; i++) if ((await this.runOnce()) === 0) return;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = (async () => {
      while (this.running) {
        let worked = 0;
        try {
          worked = await this.runOnce();
        } catch (error) {
          this.log.error({ err: error }, 'worker round failed');
        }
        if (worked === 0 && this.running) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, this.idleDelayMs);
            this.wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          this.wake = null;
        }
      }
    })();
  }

  /** Asks the loop to look for work now (after a write that enqueued some). */
  nudge(): void {
    this.wake?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    this.loop = null;
  }

  private async execute(job: JobRow): Promise<void> {
    const handler = this.handlers.get(job.kind);
    const now = () => this.clock.now().toISOString();
    let outcome: JobOutcome;
    try {
      outcome = handler
        ? await handler.run({ payload: JSON.parse(job.payload), attempt: job.attempts, accountId: job.account_id })
        : { result: 'dead', error: `no handler for ${job.kind}` };
    } catch (error) {
      this.log.error({ err: error, job_id: job.id, kind: job.kind }, 'job failed');
      outcome = { result: 'retry', error: error instanceof Error ? error.message : String(error) };
    }
    if (outcome.result === 'done') return this.repos.jobs.complete(job.id, this.id, now());
    if (outcome.result === 'dead' || job.attempts >= job.max_attempts) {
      this.log.warn({ job_id: job.id, kind: job.kind, error: outcome.error }, 'job given up');
      return this.repos.jobs.bury(job.id, this.id, outcome.error, now());
    }
    const delay = outcome.delayMs ?? handler?.backoffMs(job.attempts) ?? 60_000;
    return this.repos.jobs.retry(job.id, this.id, new Date(this.clock.now().getTime() + delay).toISOString(), outcome.error, now());
  }
}
