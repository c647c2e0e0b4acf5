import type { CarrierAdapter, TrackRequest } from '../../../src/carriers/carrier.js';
import { type CarrierToolkit, carrierToolkit } from '../../../src/carriers/sdk/toolkit.js';

/** A toolkit whose carrier `id` calls go to a local server (as `WAYBILL_CARRIER_<ID>_BASE_URL` does in production). */
export function localToolkit(carrierId: string, baseUrl: string, env: Record<string, string> = {}, now?: () => number): CarrierToolkit {
  return carrierToolkit({ env: { [`WAYBILL_CARRIER_${carrierId.toUpperCase()}_BASE_URL`]: baseUrl, ...env }, now, random: () => 0 });
}

/** Track requests for numbers, first polled now. */
export function requestsFor(...numbers: string[]): TrackRequest[] {
  return numbers.map((tracking_number) => ({ tracking_number, first_polled_at: new Date().toISOString(), attempt: 0 }));
}

export async function trackOne(adapter: CarrierAdapter, trackingNumber: string, settings: Record<string, unknown>) {
  const [result] = await adapter.track(requestsFor(trackingNumber), settings, { now: new Date() });
  return result;
}
