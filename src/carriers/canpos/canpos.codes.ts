import type { CodeTable } from '../sdk/codes.js';

/**
 * Canada Post's scan event identifiers (`event-identifier`) → our event keys.
 *
 * Canada Post publishes its scan events in the Developer Program's "Messages and Code Tables", section "Tracking
 * scan events" (canadapost-postescanada.ca/info/mc/business/productsservices/developers/messagescodetables.jsf).
 * Only the opening of that page could be read here (2026-11), not the list itself, so this table holds the codes
 * whose meaning could be established otherwise, each marked with where it comes from:
 * - [sample]: the sample answer of Canada Post's "Get Tracking Details – REST" page (codes 20, 0100, 0173, 0174,
 *   0500, 1496, 2300, 3000), as public client code reproduces it;
 * - [seen]: Canada Post's English description of the code as recorded from live answers in public client code
 *   (the karrio project's Canada Post connector, `providers/canadapost/units.py`, read 2026-11). Unverified
 *   against Canada Post's own list; the keys are our reading of each description.
 * Codes not listed keep Canada Post's text and are counted as unmapped (docs/carriers/canpos.md lists the ones
 * seen but deliberately left out). Identifiers are looked up without leading zeros (`0174` → `174`).
 */
export const CANPOS_CODES: CodeTable = {
  // Before the parcel moves.
  '3000': 'info_received', // [sample] order information received by Canada Post
  '3002': 'label_created', // [seen] return label created
  '190': 'cancelled', // [seen] retail transaction has been voided

  // Accepted or picked up.
  '2300': 'picked_up', // [sample] item picked up by Canada Post
  '1300': 'picked_up', // [seen] item accepted
  '1301': 'picked_up', // [seen] item accepted at the Post Office
  '1302': 'picked_up', // [seen] item accepted at the Post Office
  '1303': 'picked_up', // [seen] return item accepted at Post Office

  // Moving through the network.
  '100': 'in_transit', // [sample] item processed at postal facility
  '102': 'in_transit', // [seen] item processed
  '104': 'in_transit', // [seen] item processed
  '105': 'in_transit', // [seen] item processed
  '106': 'in_transit', // [seen] item processed
  '107': 'in_transit', // [seen] item processed
  '170': 'in_transit', // [seen] item processed
  '1240': 'in_transit', // [seen] item processed
  '1244': 'in_transit', // [seen] item processed
  '2500': 'in_transit', // [seen] item processed
  '2501': 'in_transit', // [seen] item processed
  '175': 'in_transit', // [seen] item in transit
  '115': 'in_transit', // [seen] item transferred to partner
  '116': 'in_transit', // [seen] item transferred to partner
  '1480': 'in_transit', // [seen] item redirected to recipient's new address
  '1490': 'in_transit', // [seen] item redirected to recipient's new address
  '1703': 'in_transit', // [seen] item in transit to Post Office
  '1705': 'in_transit', // [seen] item in transit to automated parcel locker
  '4550': 'in_transit', // [seen] in transit to delivery office
  '400': 'arrived_at_facility', // [seen] item arrived
  '405': 'arrived_at_facility', // [seen] item arrived
  '113': 'arrived_at_facility', // [seen] item arrived at partner facility
  '410': 'departed_facility', // [seen] item departed
  '114': 'departed_facility', // [seen] item departed partner facility

  // International legs.
  '4000': 'in_transit', // [seen] international item mailed in origin country
  '4100': 'in_transit', // [seen] international item processed in origin country
  '4202': 'in_transit', // [seen] left the origin country, en route to Canada
  '4310': 'in_transit', // [seen] international shipment has arrived in a foreign country
  '4311': 'in_transit', // [seen] international item has arrived in a foreign country
  '4900': 'in_transit', // [seen] arrived at transit destination
  '4950': 'in_transit', // [seen] forwarded onwards to destination
  '4600': 'arrived_at_facility', // [seen] received at the delivery office in the destination country
  '4330': 'in_customs', // [seen] presented to import customs
  '4400': 'in_customs', // [seen] sent to customs in the destination country
  '127': 'in_customs', // [seen] item held at customs
  '1487': 'in_customs', // [seen] being returned to Canadian Customs for appeal of duties
  '130': 'customs_cleared', // [seen] international item released from Customs
  '4500': 'customs_cleared', // [seen] released from Customs to the foreign postal administration
  '5201': 'customs_cleared', // [seen] released from Customs for processing by Canada Post

  // Delays and changes of plan.
  '1200': 'rescheduled', // [seen] expected delivery date updated
  '1203': 'rescheduled', // [seen] expected delivery date updated
  '1410': 'rescheduled', // [seen] item on hold at recipient's request
  '2410': 'rescheduled', // [seen] item on hold at recipient's request
  '1414': 'rescheduled', // [seen] rescheduled for delivery next business day
  '2414': 'rescheduled', // [seen] rescheduled for delivery next business day
  '1444': 'rescheduled', // [seen] delivery scheduled for next business day
  '159': 'delayed', // [seen] may be delayed: extreme weather
  '160': 'delayed', // [seen] may be delayed: public authority or demonstration
  '161': 'delayed', // [seen] may be delayed: labour disruption
  '162': 'delayed', // [seen] may be delayed: transportation delay
  '163': 'delayed', // [seen] may be delayed: power outage
  '172': 'delayed', // [seen] re-routed due to processing error; possible delay
  '621': 'delayed', // [seen] delivery delayed to next business day
  '622': 'delayed', // [seen] delivery delayed to next business day
  '623': 'delayed', // [seen] delivery delayed to next business day
  '1484': 'delayed', // [seen] item on hold
  '1494': 'delayed', // [seen] item on hold
  '4700': 'delayed', // [seen] item on hold
  '173': 'address_issue', // [sample] customer addressing error found; attempting to correct
  '120': 'address_issue', // [seen] on hold: incorrect or incomplete address
  '171': 'address_issue', // [seen] verifying recipient's address; possible delay
  '1412': 'address_issue', // [seen] verifying recipient's address; possible delay
  '2412': 'address_issue', // [seen] verifying recipient's address; possible delay

  // The last mile.
  '174': 'out_for_delivery', // [sample] item out for delivery
  '500': 'out_for_delivery', // [sample] out for delivery
  '1411': 'delivery_attempt_failed', // [seen] business closed; on hold for a second delivery attempt
  '2411': 'delivery_attempt_failed', // [seen] business temporarily closed; item on hold
  '1443': 'delivery_attempt_failed', // [seen] attempted delivery; rescheduled for next business day
  // A card left after a failed attempt, naming where and when to pick the parcel up.
  '1435': 'delivery_attempt_failed', // [seen]
  '1436': 'delivery_attempt_failed', // [seen]
  '1437': 'delivery_attempt_failed', // [seen]
  '1438': 'delivery_attempt_failed', // [seen]
  '1479': 'delivery_attempt_failed', // [seen]
  '1488': 'delivery_attempt_failed', // [seen]

  // Waiting to be collected: at a post office (its name in event-retail-name) or a parcel locker.
  '1701': 'available_for_pickup', // [seen] item available for pickup at Post Office
  '1407': 'available_for_pickup', // [seen] item available for pick-up
  '2407': 'available_for_pickup', // [seen] item available for pick-up
  '156': 'available_for_pickup', // [seen] final notice: returned to sender if not collected within 10 days
  '1405': 'available_for_pickup', // [seen] delivered to automated parcel locker (the recipient collects it)
  '1406': 'collected_by_recipient', // [seen] item picked up from automated parcel locker

  // Delivered.
  '1496': 'delivered', // [sample] item successfully delivered
  '1498': 'delivered', // [seen] delivered
  '1476': 'delivered', // [seen] delivered
  '1408': 'delivered', // [seen] delivered; contact customer service for a copy of the signature
  '1409': 'delivered', // [seen] delivered; contact customer service for a copy of the signature
  '1421': 'delivered', // [seen] front door
  '1422': 'delivered', // [seen] side door
  '1423': 'delivered', // [seen] back door
  '1424': 'delivered', // [seen] at or in the garage
  '1425': 'delivered', // [seen] superintendent, security or concierge
  '1426': 'delivered', // [seen] recipient's parcel box
  '1427': 'delivered', // [seen] recipient's safe drop location
  '1428': 'delivered', // [seen] front door
  '1429': 'delivered', // [seen] side door
  '1430': 'delivered', // [seen] back door
  '1431': 'delivered', // [seen] at or in the garage
  '1432': 'delivered', // [seen] building superintendent or security agent
  '1433': 'delivered', // [seen] recipient's parcel box
  '1434': 'delivered', // [seen] recipient's safe drop location
  '1441': 'delivered', // [seen] community mailbox or parcel locker
  '1442': 'delivered', // [seen] community mailbox or parcel locker
  '1461': 'delivered', // [seen] concierge or building manager
  '1462': 'delivered', // [seen] concierge or building manager
  '1463': 'delivered', // [seen] mailroom
  '1465': 'delivered', // [seen] mailroom
  '1466': 'delivered', // [seen] mailroom
  '1467': 'delivered', // [seen] mailroom
  '1468': 'delivered', // [seen] mailroom
  '1469': 'delivered', // [seen] mailroom
  '1471': 'delivered', // [seen] recipient's delivery partner
  '1472': 'delivered', // [seen] recipient's delivery partner
  '1473': 'delivered', // [seen] mailroom
  '1475': 'delivered', // [seen] mailroom
  '20': 'delivered', // [sample] signature image recorded (it accompanies the delivery scan)
  '21': 'delivered', // [seen] signature unavailable; verbal signature
  '2001': 'delivered', // [seen] photo available (of the delivered parcel)

  // Going back.
  '1415': 'returning_to_sender', // [seen] incomplete address
  '1416': 'returning_to_sender', // [seen] recipient not located at address provided
  '1417': 'returning_to_sender', // [seen] refused by recipient
  '1418': 'returning_to_sender', // [seen] valid proof of age not provided
  '1419': 'returning_to_sender', // [seen] unclaimed by recipient
  '1420': 'returning_to_sender', // [seen] item being returned to sender
  '1481': 'returning_to_sender', // [seen] recipient not located at address provided
  '1482': 'returning_to_sender', // [seen] refused by recipient
  '1491': 'returning_to_sender', // [seen] recipient not located at address provided
  '1492': 'returning_to_sender', // [seen] refused by recipient
  '1100': 'returning_to_sender', // [seen] refused by Customs; unacceptable sender info
  '167': 'returning_to_sender', // [seen] international item: insufficient postage
  '168': 'returning_to_sender', // [seen] does not meet product requirements
  '169': 'returning_to_sender', // [seen] international item: incorrect or missing shipping label
  '181': 'returning_to_sender', // [seen] shipping label invalid
  '182': 'returning_to_sender', // [seen] documentation incomplete or illegible
  '183': 'returning_to_sender', // [seen] service suspended to country
  '184': 'returning_to_sender', // [seen] non-mailable matter
  '2600': 'returning_to_sender', // [seen] returned and en route to the sender
  '2802': 'returning_to_sender', // [seen] international item undeliverable
  '3001': 'returning_to_sender', // [seen] item being returned to sender
};

/** The identifier as the table keys it: digits without leading zeros (`0174` → `174`); null when not a number. */
export function codeKey(identifier: string | null): string | null {
  if (!identifier || !/^\d+$/.test(identifier)) return null;
  return identifier.replace(/^0+(?=\d)/, '');
}
