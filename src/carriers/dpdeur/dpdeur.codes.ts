import type { CodeTable } from '../sdk/codes.js';

/**
 * DPD ParcelLifeCycleService 2.0 `StatusInfo.status` values → our event keys. docs/carriers/dpdeur.md has the
 * sources and the reasoning for each line; the comments are ours.
 *
 * The service speaks two vocabularies, depending on the national DPD company whose instance answers:
 *
 * - DPD Germany (`public-ws.dpd.com`) lists the parcel's simplified life cycle, the enumeration of its WSDL:
 *   one entry per step, reached or not (`statusHasBeenReached`), in step order. `SHIPMENT` is the shipment's
 *   own heading (`shipmentInfo.status`), never a step.
 * - DPD Netherlands and DPD Belgium/Luxembourg (`wsshipper.dpd.nl`, `wsshipper.dpd.be`) list the parcel's scans
 *   newest first, each with a scan type in mixed case.
 *
 * Composite keys (`Delivered:ParcelShop`) are tried first: a delivery that follows a stay at a Pickup parcel
 * shop is the recipient collecting the parcel there.
 */
export const DPDEUR_CODES: CodeTable = {
  // DPD Germany's life-cycle steps (their headings as DPD shows them, in English).
  ACCEPTED: 'picked_up', // "Parcel handed to DPD"
  AT_SENDING_DEPOT: 'in_transit', // "In transit": at the parcel dispatch centre
  ON_THE_ROAD: 'in_transit', // on the way to, and at, the parcel delivery centre
  AT_DELIVERY_DEPOT: 'out_for_delivery', // "Parcel out for delivery"
  DELIVERED: 'delivered', // "Parcel delivered"

  // DPD Netherlands and Belgium scan types.
  PickedUp: 'picked_up', // accepted (and picked up) by DPD
  BetweenDepots: 'in_transit', // on a transport between DPD hubs and depots
  Depot: 'arrived_at_facility', // at the delivery depot
  Customs: 'in_customs', // at a cross-border check (non-EU)
  Warehouse: 'rescheduled', // held at a warehouse for consolidation or rerouting
  Consolidation: 'rescheduled', // consolidated for a new delivery
  Courier: 'out_for_delivery',
  DeliveryFailure: 'delivery_attempt_failed', // DPD could not deliver
  ReturningFromDelivery: 'delivery_attempt_failed', // back at the delivery depot from the round, undelivered
  ParcelShop: 'available_for_pickup', // at a DPD Pickup parcel shop
  Delivered: 'delivered',
  'Delivered:ParcelShop': 'collected_by_recipient',
};

/** The statuses that say the parcel is delivered (its journey is over). */
export const DPDEUR_DELIVERED = new Set(['DELIVERED', 'Delivered']);

/** The scan type of a stay at a DPD Pickup parcel shop: its place is the shop. */
export const DPDEUR_PARCEL_SHOP = 'ParcelShop';
