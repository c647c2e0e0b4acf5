import { canBook } from '../carriers/booking.js';
import type { CarrierRegistry } from '../carriers/registry.js';
import type { Clock } from '../clock.js';
import type { Repositories } from '../db/repositories/index.js';
import type { JobPayloads } from '../db/repositories/jobs.repository.js';
import type { BookingCompletion } from '../domain/bookings/booking-completion.js';
import type { CarrierConfigsService } from '../domain/carrier-configs.service.js';
import { exponentialBackoff, type JobHandler, type JobOutcome, type JobRun } from './job-handler.js';

/**
 * Settles a booking whose answer was lost (status `unknown`) by asking the carrier (`findBooking`): found,
 * the booking completes as if the answer had come (labels stored, `booking.created`); not found, the
 * reservation is released so the shipment can be booked again. While the carrier cannot say, it asks again,
 * for about a day; then the booking stays `unknown` for the merchant to release.
 */
export class BookingReconcileJob implements JobHandler<'booking.reconcile'> {
  readonly kind = 'booking.reconcile';
  readonly maxAttempts = 12;
  readonly backoffMs = exponentialBackoff(60_000, 4 * 3_600_000);

  constructor(
    private readonly repos: Repositories,
    private readonly carriers: CarrierRegistry,
    private readonly carrierConfigs: CarrierConfigsService,
    private readonly completion: BookingCompletion,
    private readonly clock: Clock,
  ) {}

  async run({ payload }: JobRun<JobPayloads['booking.reconcile']>): Promise<JobOutcome> {
    const booking = await this.repos.bookings.findById(payload.booking_row_id);
    // Released by the merchant, or settled by an earlier run.
    if (!booking || booking.status !== 'unknown') return { result: 'done' };
    const shipment = await this.repos.shipments.findById(booking.shipment_row_id);
    const config = await this.carrierConfigs.resolve(booking.account_id, booking.carrier_reference);
    const adapter = config ? this.carriers.get(config.carrier_id) : undefined;
    if (!shipment || !config || !adapter || !canBook(adapter) || !adapter.findBooking)
      return { result: 'dead', error: 'the booking can no longer be looked up: its shipment or carrier configuration is gone' };

    const found = await adapter.findBooking(payload.request, config.settings, {
      now: this.clock.now(),
      signal: AbortSignal.timeout(30_000),
    });
    if (found.status === 'error')
      return found.retryable ? { result: 'retry', error: found.message } : { result: 'dead', error: found.message };
    if (found.status === 'not_found') {
      await this.repos.bookings.delete(booking.id);
      return { result: 'done' };
    }
    const pudo = payload.request.pudo_location ? { ...payload.request.pudo_location, distance_meters: 0 } : null;
    await this.completion.finish({ booking, shipment, adapter, settings: config.settings, pudo }, found.result);
    return { result: 'done' };
  }
}
