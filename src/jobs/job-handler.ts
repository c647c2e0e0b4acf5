import type { JobKind, JobPayloads } from '../db/repositories/jobs.repository.js';

/** What a job handler may use while it runs. */
export interface JobRun<P> {
  payload: P;
  /** 1 on the first run. */
  attempt: number;
  accountId: number | null;
}

/** The outcome of one run: done, or try again (at a time the handler may choose), or give up. */
export type JobOutcome =
  | { result: 'done' }
  | { result: 'retry'; error: string; delayMs?: number }
  | { result: 'dead'; error: string }
  /** Not now, and it does not count as an attempt (e.g. the target is busy). */
  | { result: 'defer'; delayMs: number };

/** The handler of one kind of background work: it reads that kind's payload. */
export interface JobHandler<K extends JobKind> {
  readonly kind: K;
  /** How many runs before the job is given up as dead. */
  readonly maxAttempts: number;
  /** Delay before the next attempt after a failure, by attempt number (1-based). */
  backoffMs(attempt: number): number;
  run(job: JobRun<JobPayloads[K]>): Promise<JobOutcome>;
}

/** A handler of any one kind. */
export type AnyJobHandler = { [K in JobKind]: JobHandler<K> }[JobKind];

/** Exponential backoff with a ceiling: base · 2^(attempt-1), at most `maxMs`. */
export function exponentialBackoff(baseMs: number, maxMs: number): (attempt: number) => number {
  return (attempt) => Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
}
