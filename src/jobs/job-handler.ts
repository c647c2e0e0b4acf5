import type { Repositories } from '../db/repositories/index.js';

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

/** One kind of background work, by name. */
export interface JobHandler<P = unknown> {
  readonly kind: string;
  /** How many runs before the job is given up as dead. */
  readonly maxAttempts: number;
  /** Delay before the next attempt after a failure, by attempt number (1-based). */
  backoffMs(attempt: number): number;
  run(job: JobRun<P>): Promise<JobOutcome>;
}

export interface EnqueueOptions<P> {
  kind: string;
  payload: P;
  accountId?: number | null;
  runAt?: string;
  /** A second job with the same key is not added while the first exists. */
  dedupeKey?: string;
  maxAttempts?: number;
}

/** Adds a job through the given repositories, so it commits with the write that causes it. */
export async function enqueue<P>(repos: Repositories, now: string, options: EnqueueOptions<P>, defaultMaxAttempts = 10): Promise<void> {
  await repos.jobs.insert({
    kind: options.kind,
    account_id: options.accountId ?? null,
    payload: JSON.stringify(options.payload),
    status: 'queued',
    run_at: options.runAt ?? now,
    max_attempts: options.maxAttempts ?? defaultMaxAttempts,
    dedupe_key: options.dedupeKey ?? null,
    created_at: now,
    updated_at: now,
  });
}

/** Exponential backoff with a ceiling: base · 2^(attempt-1), at most `maxMs`. */
export function exponentialBackoff(baseMs: number, maxMs: number): (attempt: number) => number {
  return (attempt) => Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
}
