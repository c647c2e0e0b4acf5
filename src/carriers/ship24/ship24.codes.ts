import type { PhaseKey } from '../phases.js';
import type { CodeTable } from '../sdk/codes.js';

/**
 * Ship24's tracking vocabulary → our event keys. Read on 2026-11-28 from Ship24's "Status" page
 * (https://docs.ship24.com/status, as published in Ship24's own plugin repository ship24/ship24-ai-plugin,
 * data/statuses.json): 8 milestones, 6 categories and 20 status codes. docs/carriers/ship24.md has the table.
 *
 * Every event carries a `statusMilestone` (the shipment's overall status at the time of the event); significant
 * events also carry a `statusCode` that says what happened. An event is looked up by its composite code first
 * (a delivery after the parcel waited at a pick-up point, or after a return began), then its status code, then
 * its milestone.
 */
export const SHIP24_CODES: CodeTable = {
  // statusCategory data: events of data exchange.
  data_order_created: 'info_received',
  data_order_cancelled: 'cancelled',
  // statusCategory transit.
  transit_handover: 'picked_up',
  transit_origin_country_departure: 'departed_facility',
  // statusCategory destination: "Shipment arrived in the destination country".
  destination_arrival: 'arrived_at_facility',
  // statusCategory customs.
  customs_received: 'in_customs',
  customs_cleared: 'customs_cleared',
  // statusCategory delivery.
  delivery_available_for_pickup: 'available_for_pickup',
  delivery_out_for_delivery: 'out_for_delivery',
  delivery_attempted: 'delivery_attempt_failed',
  delivery_refused: 'refused_by_recipient',
  delivery_delivered: 'delivered',
  // The delivered milestone is "delivered at home, picked up from a pickup point, etc.": after the parcel was
  // available for pickup, its delivery is the recipient collecting it.
  'delivery_delivered:after_pickup': 'collected_by_recipient',
  'delivered:after_pickup': 'collected_by_recipient',
  // After "will be or being returned", a delivery is the parcel back with its sender.
  'delivery_delivered:after_return': 'returned_to_sender',
  // statusCategory exception: issues that are usually final.
  exception_return: 'returning_to_sender',
  exception_lost: 'lost',

  // statusMilestone, for events without a status code of their own.
  info_received: 'info_received',
  in_transit: 'in_transit',
  out_for_delivery: 'out_for_delivery',
  failed_attempt: 'delivery_attempt_failed',
  available_for_pickup: 'available_for_pickup',
  delivered: 'delivered',
};

/**
 * Codes that place the shipment in a phase without an event key of ours fitting what happened: the event keeps
 * the courier's own text. `exception` is the milestone "can't be delivered due to issues that seem to be final
 * (returning, returned, lost, destroyed)"; the others are issues during customs or delivery that no single key
 * of ours names (a payment due, documents missing, a rejection, a destruction).
 */
export const SHIP24_PHASE_ONLY: Readonly<Record<string, PhaseKey>> = {
  customs_exception: 'exception',
  customs_rejected: 'exception',
  delivery_exception: 'exception',
  exception_discarded: 'exception',
  exception: 'exception',
};

/**
 * Documented codes with no meaning of their own for us: the event is placed by its milestone instead.
 * `data_delivery_proposed` and `data_delivery_decided` are delivery options offered and chosen; `pending` is the
 * milestone of a shipment without events.
 */
export const SHIP24_MILESTONE_ONLY: readonly string[] = ['data_delivery_proposed', 'data_delivery_decided', 'pending'];

/** Composite suffixes. */
export const AFTER_PICKUP = ':after_pickup';
export const AFTER_RETURN = ':after_return';

/** Every status code and milestone the Status page lists, for the test that each is handled. */
export const SHIP24_DOCUMENTED = {
  milestones: [
    'pending',
    'info_received',
    'in_transit',
    'out_for_delivery',
    'failed_attempt',
    'available_for_pickup',
    'delivered',
    'exception',
  ],
  statusCodes: [
    'data_order_created',
    'data_order_cancelled',
    'data_delivery_proposed',
    'data_delivery_decided',
    'transit_handover',
    'transit_origin_country_departure',
    'destination_arrival',
    'customs_received',
    'customs_exception',
    'customs_rejected',
    'customs_cleared',
    'delivery_available_for_pickup',
    'delivery_out_for_delivery',
    'delivery_attempted',
    'delivery_exception',
    'delivery_refused',
    'delivery_delivered',
    'exception_return',
    'exception_lost',
    'exception_discarded',
  ],
} as const;

/** Error codes of the "Error management" page that the adapter acts on. */
export const SHIP24_ERRORS = {
  trackerNotFound: 'tracker_not_found',
  quotaLimitReached: 'quota_limit_reached',
} as const;
