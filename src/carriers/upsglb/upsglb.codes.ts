import type { CodeTable } from '../sdk/codes.js';

/**
 * UPS tracking codes → our event keys, read on 2026-11-23.
 *
 * An activity carries a three-digit `status.statusCode` (UPS's "processing details status code") and a
 * status type letter (`status.type`). The mapper looks the status code up first and falls back to the
 * type letter. Sources:
 * - UPS's code list, https://developer.ups.com/api/reference/tracking/api-codes (linked from the
 *   Track API's reference), as its table of activity code → processing details status code → status
 *   text is quoted in https://github.com/UPS-API/api-documentation/issues/7 (the UPS repository's own
 *   issue tracker; the page itself could not be fetched from here). Codes marked ✓ below were read
 *   there with their status text.
 * - Codes without ✓ come from our research notes (docs/carriers/upsglb.md lists them as unverified):
 *   they are kept because their meaning is unambiguous where UPS uses them, and every one falls back to
 *   the carrier's own description if UPS reuses the number differently.
 * - Type letters (`D` delivered, `I` in transit, `P` pickup, `M` manifest/billing information received,
 *   `X` exception) as UPS's tracking developer guides define them.
 *
 * Deliberately not mapped (the carrier's description is kept, the phase does not move): the codes in
 * `UPS_DESCRIBED_ONLY` and type `X` (too general for any exception key).
 */
export const UPS_CODES: CodeTable = {
  // Information received
  '003': 'label_created', // Order processed: ready for UPS (shipper created a label)
  '044': 'info_received', // ✓ In transit to UPS / "On its way to UPS": not yet in UPS's hands

  // Pickup and transit
  '038': 'picked_up', // ✓ Picked up
  '005': 'in_transit', // ✓ In transit
  '010': 'in_transit', // In transit
  '025': 'in_transit', // ✓ Transferred to local post office for delivery
  '071': 'arrived_at_facility', // ✓ Preparing for delivery today (arrived at the destination facility)
  '012': 'in_customs', // ✓ Clearance in progress
  '092': 'in_customs', // Import clearance / customs processing
  '014': 'customs_cleared', // Released by customs
  '084': 'customs_cleared', // Customs cleared

  // Out for delivery
  '021': 'out_for_delivery', // ✓ Out for delivery today
  '072': 'out_for_delivery', // ✓ Loaded on delivery vehicle ("your driver is arriving soon")

  // Failed attempts and pickup points
  '022': 'delivery_attempt_failed', // ✓ First attempt made
  '023': 'delivery_attempt_failed', // Second attempt made
  '024': 'delivery_attempt_failed', // Final attempt made
  '060': 'delivery_attempt_failed', // Delivery attempted
  '017': 'available_for_pickup', // ✓ Held for customer pickup
  '040': 'available_for_pickup', // ✓ Delivered to UPS Access Point, awaiting customer pickup

  // Delivered
  '011': 'delivered', // ✓ Delivered
  '026': 'delivered', // Delivered (other delivery scans)

  // Exceptions
  '029': 'address_issue', // ✓ Exception, action required: address information required
  '050': 'address_issue', // Address problem
  '016': 'delayed', // ✓ Held in warehouse pending instructions
  '046': 'delayed', // Delay
  '048': 'delayed', // ✓ Delay
  '051': 'delayed', // ✓ Delay: emergency situation or severe weather
  '052': 'delayed', // Delay
  '059': 'damaged', // Damage reported
  '064': 'refused_by_recipient', // Refused by the receiver
  '007': 'cancelled', // ✓ Shipment information voided ("shipment canceled")

  // Returns
  '033': 'returning_to_sender', // Return to sender requested
  '035': 'returning_to_sender', // ✓ Returning to sender
  '036': 'returning_to_sender', // Returning to sender
  '034': 'returned_to_sender', // Returned to sender
  '067': 'returned_to_sender', // Returned to shipper

  // Type letters, when the status code is absent or not listed above
  D: 'delivered',
  I: 'in_transit',
  P: 'picked_up',
  M: 'label_created',
};

/**
 * Status codes kept as UPS describes them, without falling back to their type letter: `013` "Exception /
 * Update" (✓, too general for any exception key), `027` "Delivery address change requested" (✓) and
 * `028` "Delivery address changed" (✓), for which no event key says what happened.
 */
export const UPS_DESCRIBED_ONLY: ReadonlySet<string> = new Set(['013', '027', '028']);
