import type { CodeTable } from '../sdk/codes.js';

/**
 * PostNord Track and Trace v5 statuses → standard event keys.
 *
 * PostNord's OpenAPI document ("Track Shipment V5" 1.0.7, and the v7 documents of the same API) enumerates the
 * item statuses (`itemStatus`) and shipment statuses (`ShipmentStatus`: the same plus `SPLIT`), without a
 * description of each. Each event carries the item status it set (`status`) beside PostNord's event code
 * (`eventCode`), for which no list is published: the key is read from the status, the event code is what is
 * stored (docs/carriers/postnd.md, "Code table", says why each status maps as it does).
 *
 * `DELIVERED:AVAILABLE_FOR_DELIVERY` is our composite, not PostNord's: a delivery after the item waited at a
 * service point or parcel locker is the recipient collecting it. The stored carrier code stays the event code.
 */
export const POSTNORD_CODES: CodeTable = {
  INFORMED: 'info_received', // the sender announced the item; PostNord does not have it yet
  CREATED: 'info_received', // the shipment was registered
  EN_ROUTE: 'in_transit',
  AVAILABLE_FOR_DELIVERY: 'available_for_pickup', // waiting to be collected (service point)
  AVAILABLE_FOR_DELIVERY_PAR_LOC: 'available_for_pickup', // waiting in a parcel locker
  DELAYED: 'delayed',
  EXPECTED_DELAY: 'delayed',
  STOPPED: 'delayed', // held (customs, or stopped in the network): no cause given, "delayed" claims none
  DELIVERY_IMPOSSIBLE: 'delivery_attempt_failed',
  DELIVERY_REFUSED: 'refused_by_recipient',
  DELIVERED: 'delivered',
  'DELIVERED:AVAILABLE_FOR_DELIVERY': 'collected_by_recipient',
  RETURNED: 'returning_to_sender',
};

/** The statuses whose events our composite `DELIVERED:AVAILABLE_FOR_DELIVERY` follows. */
export const POSTNORD_WAITING_STATUSES: readonly string[] = ['AVAILABLE_FOR_DELIVERY', 'AVAILABLE_FOR_DELIVERY_PAR_LOC'];

/**
 * Every status the OpenAPI document lists, mapped or not. `OTHER` is PostNord's own catch-all and keeps
 * PostNord's text; `SPLIT` is a shipment status only (its items differ), never an event's.
 */
export const POSTNORD_DOCUMENTED_STATUSES = [
  'CREATED',
  'AVAILABLE_FOR_DELIVERY',
  'AVAILABLE_FOR_DELIVERY_PAR_LOC',
  'DELAYED',
  'DELIVERED',
  'DELIVERY_IMPOSSIBLE',
  'DELIVERY_REFUSED',
  'EXPECTED_DELAY',
  'INFORMED',
  'EN_ROUTE',
  'OTHER',
  'RETURNED',
  'STOPPED',
  'SPLIT',
] as const;

/** Documented statuses deliberately left without a key. */
export const POSTNORD_UNMAPPED_STATUSES: readonly string[] = ['OTHER', 'SPLIT'];

/** Statuses after which a delivery estimate is stale. */
export const POSTNORD_FINAL_STATUSES: readonly string[] = ['DELIVERED', 'RETURNED'];
