import type { CodeTable } from '../sdk/codes.js';

/**
 * PostNL's track-and-trace codes → our event keys.
 *
 * Source: PostNL Developer Portal, reference data "T&T status codes" (status codes with their phases, and event
 * codes with the status each one sets), https://developer.postnl.nl/docs/#/http/reference-data/t-t-status-codes/event-codes,
 * read 2026-11-20. Only codes with a meaning for us are typed in; the comments are ours.
 *
 * Keys are tried most specific first (see postnl.mapper.ts):
 * - a scan: its event code (`J05`), then the status PostNL recorded at the same moment (`3:7`, then `7`);
 * - a status without a scan: `PhaseCode:StatusCode` (`3:7`), then `StatusCode` (`7`).
 * Status codes are digits and event codes a letter and two digits, so one table holds both.
 */
export const POSTNL_STATUS_CODES: CodeTable = {
  // Phase 1, collection.
  '1': 'info_received', // pre-alerted: PostNL has the shipment's data
  '2': 'picked_up', // accepted by PostNL
  '3': 'picked_up', // collected by PostNL
  '4': 'pickup_failed', // not collected
  '13': 'info_received', // pre-alerted, not yet accepted
  '14': 'cancelled', // pre-alerted but never handed over: PostNL closed it
  '15': 'delayed', // missing in collection (PostNL's events for it announce a later delivery)
  '18': 'lost', // missing for good
  '19': 'cancelled', // refused for processing (missing data, unknown postcode, no contract)
  // Phase 2, sorting.
  '5': 'in_transit', // sorted
  '6': 'delayed', // not sorted
  '16': 'delayed', // missing in sorting
  '21': 'in_transit', // in storage at PostNL
  '31': 'in_transit', // ready for transport to the destination country
  // Phase 3, distribution.
  '7': 'out_for_delivery',
  '8': 'delivery_attempt_failed', // not delivered
  '9': 'in_customs',
  '17': 'delayed', // missing in distribution
  '20': 'in_customs', // in clearance
  '27': 'returning_to_sender', // undeliverable, going back
  '28': 'returning_to_sender', // wrong delivery code, going back
  // Phase 4, delivered.
  '11': 'delivered',
  '12': 'available_for_pickup', // at a pickup location
  '22': 'collected_by_recipient', // collected from a post office
  '23': 'picked_up', // a collection order was collected
  // 99 "not applicable" has no meaning of its own: it is left unmapped on purpose.
};

/** Event codes whose meaning is finer than (or differs from) the status they set. */
export const POSTNL_EVENT_CODES: CodeTable = {
  // Announced, not yet with PostNL.
  A01: 'info_received',
  A71: 'info_received',
  X80: 'info_received', // collection order received
  A10: 'label_created', // the sender made a return label
  M03: 'cancelled', // the label's validity ran out
  M01: 'cancelled', // never handed over to PostNL
  // With PostNL.
  B01: 'picked_up',
  B04: 'picked_up',
  C01: 'picked_up',
  C02: 'picked_up',
  X40: 'picked_up', // handed in at a PostNL point
  Z80: 'picked_up',
  A73: 'picked_up', // collected by a partner abroad
  // Collection failed or cancelled.
  D02: 'pickup_failed',
  D03: 'pickup_failed',
  D04: 'pickup_failed',
  D05: 'pickup_failed',
  D06: 'pickup_failed',
  D07: 'pickup_failed',
  D09: 'pickup_failed',
  D40: 'pickup_failed',
  X42: 'pickup_failed', // refused at a PostNL point (size)
  X43: 'pickup_failed', // refused at a PostNL point (packing)
  Y80: 'pickup_failed',
  Y81: 'pickup_failed',
  D41: 'cancelled',
  H30: 'cancelled',
  H31: 'cancelled',
  R06: 'cancelled',
  // Moving through the network.
  J01: 'in_transit',
  J06: 'in_transit',
  J10: 'in_transit',
  J27: 'in_transit',
  J61: 'in_transit',
  R01: 'in_transit',
  X50: 'in_transit',
  X51: 'in_transit',
  X68: 'in_transit', // back in PostNL's process
  V12: 'in_transit',
  V13: 'in_transit',
  V22: 'in_transit',
  V23: 'in_transit',
  V50: 'in_transit',
  J45: 'in_transit', // on the line haul to the delivery depot
  J55: 'in_transit', // on the way to a PostNL point
  Q15: 'in_transit',
  S05: 'in_transit',
  // International legs.
  A72: 'in_transit',
  A74: 'in_transit',
  A75: 'in_transit',
  A76: 'in_transit', // arrived in the Netherlands
  B06: 'in_transit',
  Q12: 'in_transit',
  Q13: 'in_transit',
  Q16: 'in_transit',
  Q17: 'in_transit',
  Q18: 'in_transit',
  Q19: 'in_transit',
  X01: 'in_transit', // crossed the border
  X02: 'in_transit', // arrived in the destination country
  X07: 'in_transit',
  X08: 'in_transit',
  X14: 'in_transit',
  X15: 'in_transit',
  X16: 'in_transit',
  X19: 'in_transit',
  X52: 'in_transit',
  // Customs.
  X03: 'in_customs',
  X10: 'in_customs', // details missing for the declaration
  X60: 'in_customs',
  X62: 'in_customs',
  X67: 'in_customs', // import costs to be paid
  A20: 'in_customs', // payment of import costs requested
  Y25: 'in_customs',
  X04: 'customs_cleared',
  X61: 'customs_cleared',
  X65: 'customs_cleared',
  A21: 'customs_cleared', // import costs paid
  // Delivery changed, postponed or redirected.
  A08: 'rescheduled',
  A09: 'rescheduled',
  A11: 'rescheduled',
  A12: 'rescheduled',
  A13: 'rescheduled',
  A29: 'rescheduled',
  A30: 'rescheduled',
  A31: 'rescheduled',
  A32: 'rescheduled',
  A34: 'rescheduled',
  A35: 'rescheduled',
  A42: 'rescheduled',
  A94: 'rescheduled',
  J07: 'rescheduled',
  J17: 'rescheduled',
  J26: 'rescheduled',
  J39: 'rescheduled',
  J47: 'rescheduled', // locker pickup window closed, moved to a PostNL point
  J90: 'rescheduled',
  J95: 'rescheduled',
  K02: 'rescheduled', // forwarded: the recipient moved
  K03: 'rescheduled', // forwarded to an address the recipient chose
  Y23: 'rescheduled', // address corrected
  Y24: 'rescheduled',
  Y33: 'rescheduled',
  // PostNL's "delivery moment updated" and other delays.
  G01: 'delayed',
  G02: 'delayed',
  G03: 'delayed',
  G05: 'delayed',
  H32: 'delayed',
  J09: 'delayed',
  J14: 'delayed',
  J22: 'delayed', // waiting for the other parcels of the shipment
  J24: 'delayed',
  J36: 'delayed',
  J92: 'delayed',
  K01: 'delayed',
  K25: 'delayed',
  T02: 'delayed',
  V01: 'delayed',
  V02: 'delayed',
  V03: 'delayed',
  V04: 'delayed',
  V06: 'delayed',
  V11: 'delayed',
  V21: 'delayed',
  V31: 'delayed',
  Y07: 'delayed',
  Y08: 'delayed',
  Y35: 'delayed',
  Y43: 'delayed', // the recipient's location was closed
  Y46: 'delayed',
  Y60: 'delayed',
  Y61: 'delayed',
  Y62: 'delayed',
  Y64: 'delayed',
  Y65: 'delayed',
  // Out for delivery.
  J05: 'out_for_delivery',
  X55: 'out_for_delivery',
  X06: 'out_for_delivery',
  Y05: 'out_for_delivery',
  // Delivery attempts that failed (another attempt, or a PostNL point, follows).
  D08: 'delivery_attempt_failed',
  J08: 'delivery_attempt_failed',
  J16: 'delivery_attempt_failed',
  J29: 'delivery_attempt_failed', // did not fit the letterbox
  J41: 'delivery_attempt_failed', // not allowed in the parcel locker
  J42: 'delivery_attempt_failed', // no room in the parcel locker
  J48: 'delivery_attempt_failed',
  J94: 'delivery_attempt_failed',
  K14: 'delivery_attempt_failed',
  K16: 'delivery_attempt_failed',
  K41: 'delivery_attempt_failed', // cash on delivery not paid
  K70: 'delivery_attempt_failed',
  K71: 'delivery_attempt_failed',
  Y02: 'delivery_attempt_failed',
  Y10: 'delivery_attempt_failed',
  Y36: 'delivery_attempt_failed', // recipient's identification missing
  Y39: 'delivery_attempt_failed', // an appointment is to be made
  Y41: 'delivery_attempt_failed', // access code missing
  Y42: 'delivery_attempt_failed',
  // Address problems.
  H36: 'address_issue',
  J33: 'address_issue',
  Y01: 'address_issue',
  Y09: 'address_issue',
  Y12: 'address_issue',
  Y17: 'address_issue',
  Y22: 'address_issue', // the addressee moved
  Y30: 'address_issue',
  Y31: 'address_issue',
  Y32: 'address_issue',
  F06: 'address_issue', // collection postcode unknown
  F07: 'address_issue', // delivery postcode unknown
  // Refused, damaged, missing.
  H01: 'refused_by_recipient',
  H38: 'refused_by_recipient',
  Y03: 'refused_by_recipient',
  Y13: 'refused_by_recipient',
  Y44: 'refused_by_recipient',
  Y50: 'refused_by_recipient',
  H04: 'damaged',
  H35: 'damaged',
  Y04: 'damaged',
  Y11: 'damaged',
  Y14: 'damaged',
  Y18: 'damaged',
  Y71: 'lost',
  // Going back to the sender.
  H02: 'returning_to_sender',
  H03: 'returning_to_sender',
  H05: 'returning_to_sender',
  H07: 'returning_to_sender',
  H08: 'returning_to_sender',
  H09: 'returning_to_sender',
  H10: 'returning_to_sender',
  H12: 'returning_to_sender',
  H15: 'returning_to_sender',
  H16: 'returning_to_sender',
  H17: 'returning_to_sender',
  H18: 'returning_to_sender',
  H20: 'returning_to_sender',
  H22: 'returning_to_sender',
  H24: 'returning_to_sender',
  H25: 'returning_to_sender',
  H51: 'returning_to_sender',
  H52: 'returning_to_sender',
  K43: 'returning_to_sender',
  X22: 'returning_to_sender',
  Y16: 'returning_to_sender',
  Y19: 'returning_to_sender',
  Y20: 'returning_to_sender',
  Y21: 'returning_to_sender',
  Y37: 'returning_to_sender',
  Y40: 'returning_to_sender',
  Y47: 'returning_to_sender',
  // Back with the sender.
  I07: 'returned_to_sender',
  J63: 'returned_to_sender',
  X24: 'returned_to_sender',
  // Ready to be collected.
  I08: 'available_for_pickup',
  J02: 'available_for_pickup',
  J12: 'available_for_pickup',
  J23: 'available_for_pickup', // in a parcel locker
  J52: 'available_for_pickup',
  X05: 'available_for_pickup',
  Y26: 'available_for_pickup', // at a PO box
  // Delivered.
  I01: 'delivered',
  I03: 'delivered',
  I05: 'delivered', // in the letterbox
  I06: 'delivered',
  I09: 'delivered', // in the recipient's own parcel locker
  I11: 'delivered',
  I12: 'delivered', // at the agreed spot
  I23: 'delivered',
  J91: 'delivered',
  Z01: 'delivered',
  Z02: 'delivered',
  Z03: 'delivered',
  Z04: 'delivered',
  Z08: 'delivered',
  Z09: 'delivered',
  I10: 'delivered_to_neighbour',
  Z05: 'delivered_to_neighbour',
  I02: 'collected_by_recipient',
  I22: 'collected_by_recipient',
  Z06: 'collected_by_recipient',
};

/** One table for the SDK's `mapCode`: event codes and status codes never collide. */
export const POSTNL_CODES: CodeTable = { ...POSTNL_STATUS_CODES, ...POSTNL_EVENT_CODES };

/** Status codes PostNL documents that are deliberately left unmapped (no standard key fits). */
export const POSTNL_UNMAPPED_STATUS_CODES: readonly string[] = ['99'];

/** Status codes that mean the parcel reached its recipient: a signature may be asked for then. */
export const POSTNL_DELIVERED_STATUS_CODES: readonly string[] = ['11', '22'];
