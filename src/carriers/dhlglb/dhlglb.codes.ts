import type { EventKey, PhaseKey } from '../phases.js';
import type { CodeTable } from '../sdk/codes.js';

/**
 * DHL Shipment Tracking – Unified: `statusCode` → our keys, read on 2026-11-23 from the API reference,
 * https://developer.dhl.com/api-reference/shipment-tracking (OpenAPI 1.3.1 and 1.5.6: `statusCode` is an
 * enum of `pre-transit`, `transit`, `delivered`, `failure`, `unknown`, "Code of the status (high-level
 * grouping statuses)").
 *
 * These five are the only codes DHL documents. `status` and `description` are free texts that DHL passes
 * through from each division unchanged (its help centre says `status` is sometimes a code-like text,
 * sometimes a sentence), so nothing is read from them: no out-for-delivery, pickup-point or return key is
 * guessed from words.
 */
export const DHLGLB_CODES: CodeTable = {
  'pre-transit': 'info_received', // DHL has the shipment's data; the parcel is not in its hands yet
  transit: 'in_transit', // every movement, including out for delivery
  delivered: 'delivered',
};

/**
 * Codes that place a shipment in a phase without naming what happened. DHL's `failure` covers failed
 * delivery attempts, customs holds and refusals alike, so no single event key fits; the event keeps
 * DHL's own description and moves the shipment to the exception phase.
 */
export const DHLGLB_PHASE_ONLY: Readonly<Record<string, PhaseKey>> = {
  failure: 'exception',
};

/** Documented codes with no meaning for us: the event keeps DHL's description and changes no phase. */
export const DHLGLB_UNMAPPED: readonly string[] = ['unknown'];

/**
 * With `returnFlag: true` (OpenAPI 1.5.2, "a flag whether the delivery is returned back to consignor") the
 * shipment's newest event is a step of the return: still moving, or delivered back to the sender.
 */
export const DHLGLB_RETURN_KEYS: Readonly<Record<string, EventKey>> = {
  'pre-transit': 'returning_to_sender',
  transit: 'returning_to_sender',
  failure: 'returning_to_sender',
  delivered: 'returned_to_sender',
};

/**
 * Values of the `service` query parameter, as the API reference lists them (1.3.1, and those added by
 * 1.5.x). Each names the DHL division whose records are searched first.
 */
export const DHLGLB_SERVICES = [
  'express',
  'parcel-de',
  'ecommerce',
  'ecommerce-apac',
  'ecommerce-europe',
  'ecommerce-iberia',
  'ecommerce-ppl',
  'dgf',
  'parcel-uk',
  'post-de',
  'post-international',
  'sameday',
  'freight',
  'parcel-nl',
  'parcel-pl',
  'dsc',
  'svb',
] as const;

export type DhlService = (typeof DHLGLB_SERVICES)[number];
