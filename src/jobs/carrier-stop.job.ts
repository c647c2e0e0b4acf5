import { registersNumbers } from '../carriers/aggregator.js';
import { normalizeTrackingNumber } from '../carriers/detect/index.js';
import type { CarrierRegistry } from '../carriers/registry.js';
import type { Clock } from '../clock.js';
import type { Repositories } from '../db/repositories/index.js';
import type { JobPayloads } from '../db/repositories/jobs.repository.js';
import type { CarrierConfigsService } from '../domain/carrier-configs.service.js';
import { STOP_ATTEMPTS } from '../domain/shipments/tracking-stops.js';
import { exponentialBackoff, type JobHandler, type JobOutcome, type JobRun } from './job-handler.js';

/**
 * Stops an aggregator's tracking of a number Waybill no longer follows (src/domain/shipments/tracking-stops.ts),
 * with the configuration's credentials: retried while the aggregator cannot be reached (for about a day), put off
 * without counting an attempt while the credential is throttled; done when another shipment of the account
 * tracks the same number with the same configuration again (the stop would end its tracking too), and when the
 * configuration is gone, since nothing is left to stop it with. A stop that succeeded is recorded
 * (`tracking_stops`, by the number as carrier detection reads it): the poller has the aggregator track the number
 * again if Waybill follows it again (src/jobs/tracking-poller.ts).
 */
export class CarrierStopJob implements JobHandler<'carrier.stop'> {
  readonly kind = 'carrier.stop';
  readonly maxAttempts = STOP_ATTEMPTS;
  readonly backoffMs = exponentialBackoff(60_000, 4 * 3_600_000);

  constructor(
    private readonly repos: Repositories,
    private readonly carriers: CarrierRegistry,
    private readonly carrierConfigs: CarrierConfigsService,
    private readonly clock: Clock,
  ) {}

  async run({ payload, accountId }: JobRun<JobPayloads['carrier.stop']>): Promise<JobOutcome> {
    const config = accountId === null ? undefined : await this.carrierConfigs.resolve(accountId, payload.carrier_reference);
    const adapter = config ? this.carriers.get(config.carrier_id) : undefined;
    if (!config || !adapter || !registersNumbers(adapter)) return { result: 'done' };
    if (await this.repos.shipments.tracks(config.account_id, config.carrier_reference, payload.tracking_number)) return { result: 'done' };
    const stopped = await adapter.stopTracking([payload.tracking_number], config.settings, {
      now: this.clock.now(),
      signal: AbortSignal.timeout(30_000),
    });
    if (stopped.status === 'ok') {
      // Written after the stop: should it fail, the job runs again, and a number stopped already counts as stopped.
      const key = normalizeTrackingNumber(payload.tracking_number);
      await this.repos.trackingStops.record(config.account_id, config.carrier_reference, key, this.clock.now().toISOString());
      return { result: 'done' };
    }
    // A pause of the credential (ours or the aggregator's) is not the stop's failure.
    if (stopped.throttled) return { result: 'defer', delayMs: Math.max(60, stopped.retry_after_seconds ?? 60) * 1000 };
    if (stopped.retryable) {
      const after = stopped.retry_after_seconds ? { delayMs: stopped.retry_after_seconds * 1000 } : {};
      return { result: 'retry', error: stopped.message, ...after };
    }
    return { result: 'dead', error: stopped.message };
  }
}
