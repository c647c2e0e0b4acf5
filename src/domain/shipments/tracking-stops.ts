import { registersNumbers } from '../../carriers/aggregator.js';
import type { CarrierRegistry } from '../../carriers/registry.js';
import type { Repositories } from '../../db/repositories/index.js';

/** Runs of a stop job before it is given up (its backoff reaches about a day). */
export const STOP_ATTEMPTS = 12;

/** A shipment's tracking identity as it was before its tracking ended. */
export interface EndedTracking {
  account_id: number;
  carrier_reference: string | null;
  carrier_id: string | null;
  tracking_number: string | null;
}

/**
 * Aggregators bill for every number they follow until it is stopped (src/carriers/aggregator.ts): when Waybill
 * stops following one (a final phase, the tracking window run out, the number or the carrier changed), a
 * `carrier.stop` job is queued in the same transaction as that write, so the stop is neither lost nor made for
 * a write that did not commit. Other carriers need nothing.
 */
export class TrackingStops {
  constructor(
    private readonly carriers: CarrierRegistry,
    /**
     * The job waits this long (the poll lease): a poll of the number claimed just before tracking ended may still
     * be asking the aggregator, and could register the number again after an earlier stop.
     */
    private readonly delayMs: number,
  ) {}

  async queue(repos: Repositories, ended: EndedTracking, now: string): Promise<void> {
    const adapter = ended.carrier_id ? this.carriers.get(ended.carrier_id) : undefined;
    if (!adapter || !registersNumbers(adapter) || !ended.carrier_reference || !ended.tracking_number) return;
    await repos.jobs.enqueue(
      'carrier.stop',
      { carrier_reference: ended.carrier_reference, tracking_number: ended.tracking_number },
      {
        now,
        runAt: new Date(Date.parse(now) + this.delayMs).toISOString(),
        accountId: ended.account_id,
        maxAttempts: STOP_ATTEMPTS,
        // Kept after it ran, a key without the time would drop the stop of a number tracked again and ended again.
        dedupeKey: `carrier.stop:${ended.account_id}:${ended.carrier_reference}:${ended.tracking_number}:${now}`,
      },
    );
  }
}
