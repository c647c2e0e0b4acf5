import type { CarrierError, CarrierSettings } from './carrier.js';

export type { CarrierOfRecord } from './carrier.js';

/**
 * Tracking aggregators (Ship24, 17TRACK) follow the numbers of many couriers behind one key: one adapter makes
 * every carrier they follow trackable. They differ from a carrier in three ways, each part of this contract:
 * - they name the courier that actually carries the parcel (the carrier of record), which the shipment shows;
 * - they bill per number registered, so a number is registered once: by the adapter's `track`, only when the
 *   aggregator says it does not know the number yet (never again on a retry or after a restart), counted in
 *   `waybill_carrier_registrations_total`;
 * - tracking a number costs until it is stopped, so the service stops it (`stopTracking`) once the shipment's
 *   tracking ends (a final phase, the tracking window run out, the number or carrier changed), and has it tracked
 *   again (`resumeTracking`) when a stopped number is followed again: a stopped number still answers, with what
 *   the aggregator had when it stopped.
 * The part of an aggregator adapter that ends what it bills for, and starts it again.
 */
export interface TrackingRegistrar {
  /** Numbers are registered with the aggregator, once each, by `track`. */
  readonly registersNumbers: true;
  /**
   * Stops tracking these numbers at the aggregator. A number it no longer knows counts as stopped. Never throws:
   * a failure is data, retried by the job that calls it.
   */
  stopTracking(
    numbers: readonly string[],
    settings: CarrierSettings,
    options: { now: Date; signal?: AbortSignal },
  ): Promise<{ status: 'ok' } | CarrierError>;
  /**
   * Has the aggregator track again numbers it was told to stop following, before a poll asks for them. A number
   * it tracks already, or cannot track again however often it is asked (`ok` is the end of trying, not a
   * promise of news), counts as done. Never throws: a failure is data, and the next poll tries again.
   */
  resumeTracking(
    numbers: readonly string[],
    settings: CarrierSettings,
    options: { now: Date; signal?: AbortSignal },
  ): Promise<{ status: 'ok' } | CarrierError>;
}

export function registersNumbers(adapter: object): adapter is TrackingRegistrar {
  const registrar = adapter as Partial<TrackingRegistrar>;
  return (
    registrar.registersNumbers === true && typeof registrar.stopTracking === 'function' && typeof registrar.resumeTracking === 'function'
  );
}
