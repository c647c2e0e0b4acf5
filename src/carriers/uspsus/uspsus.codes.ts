import type { CodeTable } from '../sdk/codes.js';

/**
 * USPS scan event codes → our event keys, read on 2026-11-23.
 *
 * USPS Tracking 3.2 (`TrackingEvent.eventCode`) refers to Publication 199, Appendix G-4 "USPS Domestic Tracking
 * Scan Events" (https://postalpro.usps.com/pub199). That publication could not be fetched from here; the codes
 * below were read in the scan-event tables that quote it with their USPS.com texts and status categories (the
 * "Customer Daily Extract" table: https://online.documentine.com/usps-zip-code-file-download/3/usps-customer-daily-extract-external-usps-com-second.html),
 * and cross-checked with the event code list of USPS's Web Tools Track & Confirm API guide
 * (https://www.usps.com/business/web-tools-apis/track-and-confirm-api.htm) as public clients reproduce it and with
 * ehub's list of USPS codes (https://app.theneo.io/ehub/ehub-api/tracking-event-descriptions; GX and OA are only
 * there, EF and SF only in the Web Tools list). Every code is typed in here, none copied; docs/carriers/uspsus.md
 * lists them with their USPS texts.
 *
 * Codes not listed keep USPS's own description (`eventType`) and no key: international scan codes (Appendix G-5),
 * `DX` "Delivery Status Not Updated" and `19` "DC eVS Arrive" (no journey meaning), `41` (open-and-distribute
 * units only).
 */
export const USPS_CODES: CodeTable = {
  // Before USPS has the item
  GX: 'label_created', // Shipping Label Created, USPS Awaiting Item
  MA: 'info_received', // Manifest Acknowledgement ("Pre-Shipment Info Sent to USPS, USPS Awaiting Item")

  // Acceptance
  '03': 'picked_up', // Accept or Pickup (USPS in possession of item)
  OA: 'picked_up', // Origin Acceptance
  PA: 'picked_up', // Passive Acceptance, shown as "Shipment Acceptance"
  TM: 'picked_up', // Truck manifest, shown as "Shipment Received, Package Acceptance Pending"
  '80': 'picked_up', // Picked Up by Shipping Partner

  // Transit
  '10': 'in_transit', // Processed (through a USPS facility)
  PC: 'in_transit', // Sorting / Processing Complete
  '42': 'in_transit', // USPS Handoff to Shipping Partner
  '06': 'in_transit', // Forwarded (to the recipient's new address)
  '07': 'arrived_at_facility', // Arrival at Unit (the delivering Post Office)
  '81': 'arrived_at_facility', // Arrived Shipping Partner Facility
  '82': 'departed_facility', // Departed Shipping Partner Facility
  EF: 'departed_facility', // Departed Sort Facility
  SF: 'departed_facility', // Departed Post Office
  '08': 'delayed', // Missent
  '15': 'delayed', // Mis-shipped
  '71': 'rescheduled', // Rescheduled to Next Delivery Day

  // Delivery
  OF: 'out_for_delivery', // Out for Delivery
  '01': 'delivered', // Delivered (every "Delivered, …" variant carries 01)
  '17': 'delivered', // Picked Up By Agent (the addressee's agent)
  '43': 'collected_by_recipient', // Picked Up (by the recipient at the Post Office)

  // Held for pickup
  '14': 'available_for_pickup', // Arrival at Pickup Point
  '16': 'available_for_pickup', // Available for Pickup

  // Failed attempts ("Delivery Attempt: Action Needed")
  '02': 'delivery_attempt_failed', // Notice Left
  '52': 'delivery_attempt_failed', // Notice Left (subset of 02)
  '53': 'delivery_attempt_failed', // Notice Left (Receptacle Blocked)
  '54': 'delivery_attempt_failed', // Notice Left (Receptacle Full / Item Oversized)
  '55': 'delivery_attempt_failed', // Notice Left (No Secure Location Available)
  '56': 'delivery_attempt_failed', // Notice Left (No Authorized Recipient Available)
  '30': 'delivery_attempt_failed', // Delivery Attempted - No Access to Delivery Location
  '51': 'delivery_attempt_failed', // Business Closed

  // Exceptions
  '04': 'refused_by_recipient', // Refused
  '05': 'address_issue', // Undeliverable as Addressed
  '11': 'lost', // Dead Letter (sent to the Mail Recovery Center)

  // Back to the sender: 09 and its reasons 21–29, 31
  '09': 'returning_to_sender', // Return to Sender
  '21': 'returning_to_sender', // Return to Sender: No Such Number
  '22': 'returning_to_sender', // Return to Sender: Insufficient Address
  '23': 'returning_to_sender', // Return to Sender: Moved, Left No Address
  '24': 'returning_to_sender', // Return to Sender: Forward Expired
  '25': 'returning_to_sender', // Return to Sender: Addressee Unknown
  '26': 'returning_to_sender', // Return to Sender: Vacant
  '27': 'returning_to_sender', // Return to Sender: Unclaimed
  '28': 'returning_to_sender', // Return to Sender: Deceased
  '29': 'returning_to_sender', // Return to Sender: Other
  '31': 'returning_to_sender', // Return to Sender: Not Picked Up
  '44': 'returning_to_sender', // Customer Recall (the sender called the item back)
};

/**
 * USPS.com status categories (`TrackingDetail.statusCategory`, the "External Status Category" of Pub 199's scan
 * event table), keyed `category:<lower case>`. The category describes the item, not one event: the mapper uses it
 * only for the newest event, and only when that event's code is not in `USPS_CODES`. `Alert` is left out: USPS
 * uses it for delays, holds and returns alike.
 */
export const USPS_CATEGORIES: CodeTable = {
  'category:pre-shipment': 'info_received',
  'category:accepted': 'picked_up',
  'category:in transit': 'in_transit',
  'category:in-transit': 'in_transit',
  'category:out for delivery': 'out_for_delivery',
  'category:delivered': 'delivered',
  'category:delivery attempt': 'delivery_attempt_failed',
  'category:delivery attempt: action needed': 'delivery_attempt_failed',
  'category:available for pickup': 'available_for_pickup',
  'category:return to sender': 'returning_to_sender',
};

/** The composite key of a status category in `USPS_CATEGORIES`. */
export function categoryKey(category: string): string {
  return `category:${category.replace(/\s+/g, ' ').trim().toLowerCase()}`;
}

/**
 * USPS's subordinate error codes (USPS's "API Error Consolidated List", Tracking tab, 2025-10-30:
 * https://github.com/USPS/api-examples/tree/main/Error%20Inventory) that mean USPS has no tracking for the number
 * yet (a mistyped number, or a label whose item USPS has not scanned): the number is `not_found` and is asked
 * again later.
 */
export const USPS_NOT_YET_KNOWN = new Set(['150001', '150002', '150003', '150009']);

/**
 * Subordinate codes that mean this number will never be tracked through the API (not available on this site,
 * another shipper's number, a pickup confirmation, a suppressed country, fraudulent postage…): a non-retryable error.
 */
export const USPS_NOT_TRACKABLE = new Set(['150004', '150006', '150007', '150008', '150010', '150011', '150012', '150013']);
