import type { CodeTable } from '../sdk/codes.js';

/**
 * GLS Track And Trace V1 codes → our event keys. Read 2026-11-23.
 *
 * Sources (docs/carriers/glsglb.md has the details and what could not be checked):
 * - Parcel statuses: `ParcelDTO.status` of the Track And Trace V1 API reference (OpenAPI 1.0.7) on the GLS
 *   Group developer portal, https://dev-portal.gls-group.net/ (the same twelve values in every client we read).
 * - Event codes (`FAMILY.REASON`): `GET /track-and-trace-v1/tracking/events/codes` and the examples of the
 *   API reference (the codes whose GLS description we have seen; the rest keep GLS's text and no key).
 *
 * Lookup order for an event: the composite `<code>:after_attempt` (parcel-shop codes after a failed delivery
 * attempt), the full code, its family (the part before the dot), and, for the newest event only, the parcel's
 * status (composite first). `FINAL` is documented without a meaning we can place, so it is not mapped.
 */
export const GLS_CODES: CodeTable = {
  // Parcel statuses (ParcelDTO.status).
  PLANNEDPICKUP: 'info_received',
  PREADVICE: 'info_received',
  INPICKUP: 'picked_up',
  NOTPICKEDUP: 'pickup_failed',
  INTRANSIT: 'in_transit',
  INWAREHOUSE: 'in_transit',
  INDELIVERY: 'out_for_delivery',
  DELIVERED: 'delivered',
  NOTDELIVERED: 'delivery_attempt_failed',
  CANCELED: 'cancelled',
  // Delivered to a ParcelShop: the delivery address the recipient chose (ShopDelivery, or a redirection
  // before any attempt), or the place a parcel waits after a failed attempt.
  DELIVEREDPS: 'delivered_to_pickup_point',
  'DELIVEREDPS:after_attempt': 'available_for_pickup',

  // Event codes, full code first, then the family.
  'INTIAL.PREADVICE': 'info_received',
  'INTIAL.E48_DATA': 'info_received',
  INTIAL: 'picked_up',
  INBOUD: 'arrived_at_facility',
  OUTBOD: 'departed_facility',
  OUTDEL: 'out_for_delivery',
  'DELIVD.PARCELSHOP': 'delivered_to_pickup_point',
  'DELIVD.PARCELSHOP:after_attempt': 'available_for_pickup',
  DELIVD: 'delivered',
  NOTDEL: 'delivery_attempt_failed',
  CANCEL: 'cancelled',
};

/** Codes whose meaning depends on an earlier failed delivery attempt (they get the `:after_attempt` composite). */
export const PARCEL_SHOP_CODES: ReadonlySet<string> = new Set(['DELIVEREDPS', 'DELIVD.PARCELSHOP']);

/** The composite suffix for a parcel-shop code seen after a failed delivery attempt. */
export const AFTER_ATTEMPT = ':after_attempt';

/** Per-parcel error codes of the API. */
export const GLS_NOT_FOUND = 'E_404_01';
