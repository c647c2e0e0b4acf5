import type { CodeTable } from '../sdk/codes.js';

/**
 * FedEx tracking status codes → our event keys.
 *
 * Source: FedEx's tracking status codes as the Track API returns them in `scanEvents[].eventType` and
 * `derivedStatusCode` (the "Tracking status codes" reference of the Track API on developer.fedex.com, the same
 * list as in FedEx's Web Services Track Service guide), and the delivery-exception codes of FedEx's mock
 * tracking numbers; read 2026-11-23. docs/carriers/fdxglb.md lists what each code means and why codes are left
 * out. Keys are `eventType:exceptionCode` where the exception code refines the event (tried first), then the
 * plain code.
 */
export const FEDEX_CODES: CodeTable = {
  // Before pickup
  OC: 'label_created', // Order created (shipment information sent to FedEx)
  OX: 'info_received', // Shipment information sent to USPS (SmartPost)
  PD: 'pickup_failed', // Pickup delay: FedEx did not pick up as planned
  // Pickup and line haul
  PU: 'picked_up',
  PX: 'picked_up', // Picked up (see details)
  AR: 'arrived_at_facility', // Arrived at FedEx location
  AF: 'arrived_at_facility', // At FedEx facility
  OF: 'arrived_at_facility', // At FedEx origin facility
  FD: 'arrived_at_facility', // At FedEx destination facility
  SF: 'arrived_at_facility', // At sort facility
  AA: 'arrived_at_facility', // At airport
  AC: 'arrived_at_facility', // At Canada Post facility
  AX: 'arrived_at_facility', // At USPS facility
  DP: 'departed_facility', // Departed FedEx location
  LO: 'departed_facility', // Left origin
  IT: 'in_transit',
  IP: 'in_transit',
  IX: 'in_transit', // In transit (see details)
  EA: 'in_transit', // Enroute to airport
  EO: 'in_transit', // Enroute to origin airport
  PF: 'in_transit', // Plane in flight
  PL: 'in_transit', // Plane landed
  // Customs
  CP: 'in_customs', // Clearance in progress
  CD: 'in_customs', // Clearance delay
  CC: 'customs_cleared', // International shipment release
  // Last mile
  OD: 'out_for_delivery', // On FedEx vehicle for delivery
  ED: 'out_for_delivery', // Enroute to delivery
  DL: 'delivered',
  DE: 'delivery_attempt_failed', // Delivery exception: customer not available, local restriction, …
  'DE:03': 'address_issue', // Delivery exception 03: incorrect address
  'DE:07': 'refused_by_recipient', // Delivery exception 07: delivery refused by the recipient
  'DE:17': 'rescheduled', // Delivery exception 17: a request was made to change the delivery date
  HL: 'available_for_pickup', // Held at a FedEx location for the recipient
  HP: 'available_for_pickup', // Ready for recipient pickup
  // Exceptions and returns
  DD: 'delayed', // Delivery delay
  DY: 'delayed', // Delay
  SE: 'delayed', // Shipment exception: the parcel is held up; FedEx's text says why
  CA: 'cancelled', // Shipment cancelled
  RS: 'returning_to_sender', // Return to shipper
};

/**
 * Documented codes left without an event key, each for a reason: they say nothing about where the parcel is
 * (announcements, label links, custom-delivery requests), or they are too vague to place. Their events keep
 * FedEx's own description and change neither status nor phase.
 */
export const FEDEX_UNMAPPED_CODES: Readonly<Record<string, string>> = {
  AD: 'At delivery: the courier is at the address, the outcome follows as DL or DE',
  AE: 'Shipment arriving early: an announcement',
  AO: 'Shipment arriving on time: an announcement',
  AP: 'At pickup: the courier is at the shipper, the outcome follows as PU',
  AS: 'Address corrected: the parcel continues',
  CH: 'Location changed',
  DO: 'Delivered at original destination (used for redirected parcels): not documented precisely enough',
  DR: 'Vehicle furnished but not used (freight)',
  DS: 'Vehicle dispatched (freight)',
  EP: 'Enroute to pickup',
  HA: 'Hold at location request accepted: a request, the parcel is not there yet',
  PM: 'In progress',
  RR: 'Custom delivery option requested',
  RM: 'Custom delivery option modified',
  RC: 'Custom delivery option cancelled',
  RP: 'Return label link e-mailed to the return sender',
  LP: 'Return label link cancelled by the shipment originator',
  RG: 'Return label link expiring soon',
  RD: 'Return label link expired',
  SP: 'Split status: the pieces of a shipment are in different states',
};
