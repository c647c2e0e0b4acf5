import { registersNumbers } from '../carriers/aggregator.js';
import type { CarrierRegistry } from '../carriers/registry.js';
import type { Clock } from '../clock.js';
import type { JobPayloads } from '../db/repositories/jobs.repository.js';
import type { CarrierConfigsService } from '../domain/carrier-configs.service.js';
import { exponentialBackoff, type JobHandler, type JobOutcome, type JobRun } from './job-handler.js';

/**
 * Stops an aggregator's tracking of a number Waybill no longer follows (src/domain/shipments/tracking-stops.ts),
 * with the configuration's credentials: retried while the aggregator cannot be reached (for about a day); done
 * when the configuration is gone, since nothing is left to stop it with.
 */
export class CarrierStopJob implements JobHandler<'carrier.stop'> {
  readonly kind = 'carrier.stop';
  readonly maxAttempts = 12;
  readonly backoffMs = exponentialBackoff(60_000, 4 * 3_600_000);

  constructor(
    private readonly carriers: CarrierRegistry,
    private readonly carrierConfigs: CarrierConfigsService,
    private readonly clock: Clock,
  ) {}

  async run({ payload, accountId }: JobRun<JobPayloads['carrier.stop']>): Promise<JobOutcome> {
    const config = accountId === null ? undefined : await this.carrierConfigs.resolve(accountId, payload.carrier_reference);
    const adapter = config ? this.carriers.get(config.carrier_id) : undefined;
    if (!config || !adapter || !registersNumbers(adapter)) return { result: 'done' };
    const stopped = await adapter.stopTracking([payload.tracking_number], config.settings, {
      now: this.clock.now(),
      signal: AbortSignal.timeout(30_000),
    });
    if (stopped.status === 'ok') return { result: 'done' };
    if (stopped.retryable) {
      const after = stopped.retry_after_seconds ? { delayMs: stopped.retry_after_seconds * 1000 } : {};
      return { result: 'retry', error: stopped.message, ...after };
    }
    return { result: 'dead', error: stopped.message };
  }
}
