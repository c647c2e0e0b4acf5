import type { CodeTable } from '../sdk/codes.js';

/**
 * Royal Mail's tracking event codes (`eventCode`, five letters) → our event keys.
 *
 * Royal Mail's public API documentation (its Swagger document and the 2019 Technical User Guide) names no event
 * codes beyond the example `EVNMI`; the table Royal Mail hands to account customers is not public. The meanings
 * below come from public transcriptions of it and from integrators' notes (docs/carriers/royalm.md, "Sources"),
 * read 2026-11. Only codes with a meaning for us are typed in; the comments are ours. Codes left out (system
 * notifications `EVZ…` and `N…`, internal housekeeping, restricted goods, machine rejections whose outcome the
 * sources disagree on) keep Royal Mail's own text and are counted as unmapped.
 */
export const ROYALM_CODES: CodeTable = {
  // The sender announced the item.
  EVAIE: 'info_received',
  EVAIP: 'info_received',
  EVAPA: 'info_received',
  EVPPB: 'info_received', // expected at a Post Office branch
  // Handed over to Royal Mail.
  EVPPA: 'picked_up', // accepted at a Post Office branch
  EVNPB: 'picked_up', // accepted at a Royal Mail Customer Service Point
  EVOAC: 'picked_up',
  EVOBC: 'picked_up', // accepted from a bulk posting
  EVHAC: 'picked_up', // collected by the international hub
  // Arrived at a mail centre, a regional distribution centre or a delivery office.
  EVBAH: 'arrived_at_facility',
  EVBAV: 'arrived_at_facility',
  EVBPM: 'arrived_at_facility',
  EVBPR: 'arrived_at_facility',
  EVBSM: 'arrived_at_facility',
  EVBSR: 'arrived_at_facility',
  EVCAH: 'arrived_at_facility',
  EVCAV: 'arrived_at_facility',
  EVDAC: 'arrived_at_facility',
  EVDAV: 'arrived_at_facility',
  EVDPL: 'arrived_at_facility',
  EVDPM: 'arrived_at_facility',
  EVDPR: 'arrived_at_facility',
  EVDSL: 'arrived_at_facility',
  EVDSM: 'arrived_at_facility',
  EVDSR: 'arrived_at_facility',
  EVIAV: 'arrived_at_facility',
  EVIMC: 'arrived_at_facility',
  EVIPR: 'arrived_at_facility',
  EVGDO: 'arrived_at_facility', // received at a delivery office from another one
  EVORC: 'arrived_at_facility',
  EVORI: 'arrived_at_facility',
  EVOLB: 'arrived_at_facility',
  EVOOC: 'arrived_at_facility',
  EVORW: 'arrived_at_facility',
  EVOVB: 'arrived_at_facility',
  EVJOE: 'arrived_at_facility', // arrived at the office of exchange of the destination country
  // Left a facility.
  EVODO: 'departed_facility',
  EVHOE: 'departed_facility', // leaving the UK
  EVJDU: 'departed_facility', // left the destination's office of exchange
  EVJJV: 'departed_facility',
  EVJLV: 'departed_facility',
  EVJMV: 'departed_facility',
  // On the move, re-routed after a mis-sort, or sorted by machine past a reject.
  EVILC: 'in_transit',
  EVNDO: 'in_transit', // forwarded to a delivery office
  EVNMC: 'in_transit', // forwarded to a mail centre
  EVNWA: 'in_transit', // wrong address corrected, forwarded
  EVNMI: 'in_transit',
  EVGMI: 'in_transit',
  EVDMI: 'in_transit',
  EVBMI: 'in_transit',
  EVCMI: 'in_transit',
  EVCPI: 'in_transit',
  EVIMI: 'in_transit',
  EVIPI: 'in_transit',
  EVOMI: 'in_transit',
  EVBOF: 'in_transit',
  EVCOF: 'in_transit',
  EVDOF: 'in_transit',
  EVIOF: 'in_transit',
  EVDAA: 'in_transit',
  EVDAW: 'in_transit',
  EVDRO: 'in_transit',
  EVDRS: 'in_transit',
  EVDSS: 'in_transit',
  EVBSS: 'in_transit',
  EVBSW: 'in_transit',
  EVCPS: 'in_transit',
  EVCPW: 'in_transit',
  EVIMS: 'in_transit',
  EVIPS: 'in_transit',
  EVIPW: 'in_transit',
  EVIRM: 'in_transit',
  EVIRO: 'in_transit',
  // Damaged in handling (Royal Mail's scan says so; the item usually travels on).
  EVBDM: 'damaged',
  EVBSD: 'damaged',
  EVCDM: 'damaged',
  EVCPD: 'damaged',
  EVDDM: 'damaged',
  EVDSD: 'damaged',
  EVGDM: 'damaged',
  EVIDM: 'damaged',
  EVIPD: 'damaged',
  // Import customs of the destination country.
  EVJIC: 'in_customs',
  EVJAP: 'in_customs',
  EVJBA: 'in_customs',
  EVJCA: 'in_customs',
  EVJCC: 'in_customs',
  EVJCD: 'in_customs',
  EVJCO: 'in_customs',
  EVJEM: 'in_customs',
  EVJES: 'in_customs',
  EVJIN: 'in_customs',
  EVJML: 'in_customs',
  EVJPA: 'in_customs',
  EVJSR: 'in_customs',
  EVJDP: 'customs_cleared',
  EVJEA: 'customs_cleared',
  EVJFC: 'customs_cleared',
  EVJIA: 'customs_cleared',
  EVJNT: 'customs_cleared',
  // Export held up, or called off.
  EVHAP: 'delayed', // awaiting payment of charges
  EVHFM: 'delayed', // force majeure
  EVHNC: 'delayed', // the sender cannot be reached for information
  EVHAR: 'cancelled', // not exported at the addressee's request
  EVHSR: 'cancelled', // not exported at the sender's request
  // Out for delivery: sorted at the delivery office, due today.
  EVGPD: 'out_for_delivery',
  // Delivery changed: redelivery and redirection requests, holds asked for.
  EVNSR: 'rescheduled',
  EVNRC: 'rescheduled', // to be redelivered to a Local Collect Post Office
  EVNAR: 'rescheduled',
  EVNRD: 'rescheduled', // redirected to the recipient's new address
  EVNRT: 'rescheduled', // held: a request not to deliver to the address today
  EVNKS: 'rescheduled', // held under Keepsafe while the recipient is away
  RSRXS: 'rescheduled',
  RORXS: 'rescheduled',
  RFRXS: 'rescheduled',
  RNRXS: 'rescheduled',
  RPRXS: 'rescheduled',
  ASRXS: 'rescheduled',
  EVNDN: 'delayed', // not attempted today, next working day
  EVNCF: 'delayed', // held until a fee (postage or customs) is paid
  // Delivery attempted and failed.
  EVKNA: 'delivery_attempt_failed', // no answer
  EVKNR: 'delivery_attempt_failed',
  EVKAA: 'delivery_attempt_failed', // address inaccessible
  EVKSU: 'delivery_attempt_failed', // the Safeplace could not be used
  EVNAA: 'delivery_attempt_failed',
  EVNBA: 'delivery_attempt_failed',
  EVNSA: 'delivery_attempt_failed',
  EVNIL: 'delivery_attempt_failed',
  EVNIO: 'delivery_attempt_failed',
  EVPOA: 'delivery_attempt_failed',
  EVPON: 'delivery_attempt_failed',
  EVPXA: 'delivery_attempt_failed',
  EVPXN: 'delivery_attempt_failed',
  // Waiting to be collected: at a Post Office (Local Collect) or at the delivery office after a card.
  EVPLA: 'available_for_pickup',
  EVKLC: 'available_for_pickup',
  EVKLS: 'available_for_pickup',
  EVNLC: 'available_for_pickup',
  EVNDA: 'available_for_pickup',
  EVNAE: 'available_for_pickup',
  // Collected by the recipient.
  EVPLC: 'collected_by_recipient',
  EVPLF: 'collected_by_recipient',
  EVNOC: 'collected_by_recipient',
  EVNCO: 'collected_by_recipient',
  EVNSC: 'collected_by_recipient',
  EVNCE: 'collected_by_recipient',
  // Delivered.
  EVKSP: 'delivered', // signed for
  EVKOP: 'delivered',
  EVKSF: 'delivered', // left in the recipient's Safeplace
  EVNFS: 'delivered', // delivery recorded at the delivery office
  EVNLP: 'delivered',
  EVNPO: 'delivered', // to a PO Box
  EVKDN: 'delivered_to_neighbour',
  EVKNS: 'delivered_to_neighbour', // signed for by the neighbour
  // Refused, or the address would not do.
  EVKRF: 'refused_by_recipient',
  EVNRO: 'refused_by_recipient',
  EVNRR: 'refused_by_recipient',
  EVPOR: 'refused_by_recipient',
  EVPXR: 'refused_by_recipient',
  EVKAI: 'address_issue', // incomplete or incorrect address
  EVKGA: 'address_issue', // recipient gone away
  EVNUL: 'address_issue', // addressee unknown
  EVNUO: 'address_issue',
  EVPOU: 'address_issue',
  EVPXU: 'address_issue',
  // On the way back to the sender (refused, gone away, unclaimed, unaddressable, unexportable).
  EVBRA: 'returning_to_sender',
  EVBRB: 'returning_to_sender',
  EVBRT: 'returning_to_sender',
  EVBSA: 'returning_to_sender',
  EVCPA: 'returning_to_sender',
  EVCRA: 'returning_to_sender',
  EVCRB: 'returning_to_sender',
  EVDRA: 'returning_to_sender',
  EVDRB: 'returning_to_sender',
  EVDRW: 'returning_to_sender',
  EVDSA: 'returning_to_sender',
  EVDSW: 'returning_to_sender',
  EVIPA: 'returning_to_sender',
  EVHCA: 'returning_to_sender',
  EVHCR: 'returning_to_sender',
  EVHDI: 'returning_to_sender',
  EVHID: 'returning_to_sender',
  EVNAB: 'returning_to_sender',
  EVNAC: 'returning_to_sender',
  EVNAD: 'returning_to_sender',
  EVNAI: 'returning_to_sender',
  EVNGA: 'returning_to_sender',
  EVNGL: 'returning_to_sender',
  EVNHE: 'returning_to_sender',
  EVNHR: 'returning_to_sender',
  EVNLA: 'returning_to_sender',
  EVNLG: 'returning_to_sender',
  EVNLI: 'returning_to_sender',
  EVNLR: 'returning_to_sender',
  EVNRE: 'returning_to_sender',
  EVNRF: 'returning_to_sender',
  EVNRL: 'returning_to_sender',
  EVNRN: 'returning_to_sender', // sent to the National Returns Centre
  EVNRS: 'returning_to_sender',
  EVNSI: 'returning_to_sender',
  EVNUK: 'returning_to_sender',
  EVORR: 'returning_to_sender',
  EVORT: 'returning_to_sender',
  EVPLI: 'returning_to_sender',
  EVPLN: 'returning_to_sender', // Local Collect item not collected
  EVPLR: 'returning_to_sender',
  EVPLU: 'returning_to_sender',
  EVPLX: 'returning_to_sender',
  EVPOG: 'returning_to_sender',
  EVPOI: 'returning_to_sender',
  EVPUX: 'returning_to_sender',
  EVPXG: 'returning_to_sender',
  EVPXI: 'returning_to_sender',
  // Back with the sender.
  EVRTS: 'returned_to_sender',
};

/** Events at a place where the recipient collects the item: their location is the pick-up place. */
export const ROYALM_PICKUP_CODES: readonly string[] = ['EVPLA', 'EVKLC', 'EVKLS', 'EVNLC', 'EVNDA', 'EVNAE'];
