import type { JobPayloads } from '../db/repositories/jobs.repository.js';
import type { CarrierPushService } from '../domain/carrier-push.service.js';
import { exponentialBackoff, type JobHandler, type JobOutcome, type JobRun } from './job-handler.js';

/** Applies a push a carrier made (acknowledged when it arrived). Applying it twice stores nothing twice. */
export class CarrierPushJob implements JobHandler<'carrier.push'> {
  readonly kind = 'carrier.push';
  readonly maxAttempts = 10;
  readonly backoffMs = exponentialBackoff(2_000, 10 * 60_000);

  constructor(private readonly pushes: CarrierPushService) {}

  async run({ payload, accountId }: JobRun<JobPayloads['carrier.push']>): Promise<JobOutcome> {
    if (accountId === null) return { result: 'dead', error: 'a carrier push job without its account' };
    await this.pushes.apply(accountId, payload.carrier_id, payload.carrier_reference, payload.body);
    return { result: 'done' };
  }
}
