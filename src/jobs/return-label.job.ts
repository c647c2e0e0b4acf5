import type { Repositories } from '../db/repositories/index.js';
import type { JobPayloads } from '../db/repositories/jobs.repository.js';
import { portalCaller, type ReturnLabels } from '../domain/returns-portal/return-labels.js';
import { exponentialBackoff, type JobHandler, type JobOutcome, type JobRun } from './job-handler.js';

/**
 * Books the label of a portal return the merchant approved: done when booked or when there is nothing to book
 * (no longer approved, booked already, no return carrier); given up when the carrier refuses (the consumer can
 * try again from the status page); tried again while the carrier cannot be reached.
 */
export class ReturnLabelJob implements JobHandler<'return.label'> {
  readonly kind = 'return.label';
  readonly maxAttempts = 8;
  readonly backoffMs = exponentialBackoff(60_000, 3_600_000);

  constructor(
    private readonly repos: Repositories,
    private readonly labels: ReturnLabels,
  ) {}

  async run({ payload, accountId }: JobRun<JobPayloads['return.label']>): Promise<JobOutcome> {
    const account = accountId === null ? undefined : await this.repos.accounts.findById(accountId);
    if (!account) return { result: 'done' };
    const outcome = await this.labels.book(portalCaller(account), payload.return_uuid);
    if (outcome === 'unavailable') return { result: 'retry', error: 'the return carrier could not book now' };
    if (outcome === 'refused') return { result: 'dead', error: 'the return carrier refused the booking' };
    return { result: 'done' };
  }
}
