/**
 * Shipment `status` and how it moves. The moves are made by the shipments and tracking services
 * (src/domain/shipments/); the values live here because schemas and pages list them.
 *
 * | status    | meaning                                                                  |
 * |-----------|--------------------------------------------------------------------------|
 * | pending   | created; nothing tracked yet (no tracking data, or no carrier answer yet) |
 * | active    | tracking in progress: the carrier has reported the parcel                |
 * | delivered | the carrier reports delivery (final unless the carrier corrects it)      |
 * | return    | the parcel goes back to its sender                                       |
 * | expired   | no carrier update within the tracking window (default 30 days)           |
 * | inactive  | tracking stopped: the carrier never knew the number within the window, or the merchant stopped it |
 *
 * Transitions (trigger → next status):
 * - create → pending
 * - first carrier event, or a manual event with a standard key, in any phase but delivered/return_to_sender → active
 * - event in phase delivered → delivered; event in phase return_to_sender → return
 * - no update for the tracking window: active → expired; pending with tracking → inactive
 * - new tracking number or carrier on update → tracking restarts (status kept until the carrier answers)
 */
export const SHIPMENT_STATUS = {
  pending: 'pending',
  expired: 'expired',
  active: 'active',
  inactive: 'inactive',
  delivered: 'delivered',
  return: 'return',
} as const;

export type ShipmentStatus = (typeof SHIPMENT_STATUS)[keyof typeof SHIPMENT_STATUS];

export const SHIPMENT_STATUSES = Object.values(SHIPMENT_STATUS);
