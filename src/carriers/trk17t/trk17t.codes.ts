import type { PhaseKey } from '../phases.js';
import type { CodeTable } from '../sdk/codes.js';

/**
 * 17TRACK's tracking vocabulary → our event keys. The 9 main statuses and 30 sub-statuses are those of 17TRACK's
 * help centre page "Understanding Tracking Status (Main Status & Substatus)"
 * (help.17track.net/hc/en-us/articles/37471096573337), read on 2026-11-28, with the meanings of the exception
 * sub-statuses from 17TRACK's own "Learn about 17TRACK sub-status" page (help-shopify.17track.net); the journey
 * stages an event may mark are the `stage` values of the v2.2 answers. docs/carriers/trk17t.md has the table.
 *
 * An event is looked up by its composite code first (a delivery after the parcel waited at a pick-up point), then
 * its sub-status, then its stage.
 */
export const TRK17T_CODES: CodeTable = {
  // Sub-statuses.
  InfoReceived: 'info_received',
  InTransit_PickedUp: 'picked_up',
  InTransit_Other: 'in_transit',
  // "The package has left the port of the originating country/region."
  InTransit_Departure: 'departed_facility',
  // "The package has arrived at the port of the destination country/region."
  InTransit_Arrival: 'arrived_at_facility',
  InTransit_CustomsProcessing: 'in_customs',
  InTransit_CustomsReleased: 'customs_cleared',
  // "Additional information is needed for clearance": still in customs.
  InTransit_CustomsRequiringInformation: 'in_customs',
  AvailableForPickup_Other: 'available_for_pickup',
  OutForDelivery_Other: 'out_for_delivery',
  DeliveryFailure_Other: 'delivery_attempt_failed',
  // "Unable to contact the recipient temporarily".
  DeliveryFailure_NoBody: 'delivery_attempt_failed',
  // "Issues with security, customs clearance, or fees": the attempt failed, the parcel stays for another.
  DeliveryFailure_Security: 'delivery_attempt_failed',
  DeliveryFailure_Rejected: 'refused_by_recipient',
  DeliveryFailure_InvalidAddress: 'address_issue',
  Delivered_Other: 'delivered',
  // A delivery after the parcel waited at a pick-up point is the recipient collecting it (our composite).
  'Delivered_Other:after_pickup': 'collected_by_recipient',
  'Delivered:after_pickup': 'collected_by_recipient',
  Exception_Returning: 'returning_to_sender',
  Exception_Returned: 'returned_to_sender',
  Exception_Damage: 'damaged',
  Exception_Rejected: 'refused_by_recipient',
  Exception_Delayed: 'delayed',
  Exception_Lost: 'lost',
  Exception_Cancel: 'cancelled',

  // Main statuses, for events 17TRACK gives no sub-status of their own.
  InTransit: 'in_transit',
  AvailableForPickup: 'available_for_pickup',
  OutForDelivery: 'out_for_delivery',
  DeliveryFailure: 'delivery_attempt_failed',
  Delivered: 'delivered',

  // Stages an event marks, for events with neither.
  PickedUp: 'picked_up',
  Departure: 'departed_facility',
  Arrival: 'arrived_at_facility',
  Returning: 'returning_to_sender',
  Returned: 'returned_to_sender',
};

/**
 * Codes that place the parcel in a phase without an event key of ours naming what happened: the event keeps the
 * courier's own text. The recipient not found, a security or customs hold, the parcel destroyed, or "other
 * circumstances" of an exception.
 */
export const TRK17T_PHASE_ONLY: Readonly<Record<string, PhaseKey>> = {
  Exception: 'exception',
  Exception_Other: 'exception',
  Exception_NoBody: 'exception',
  Exception_Security: 'exception',
  Exception_Destroyed: 'exception',
};

/**
 * Documented codes that say nothing about the event itself: no event is placed by them. `NotFound_*` are
 * 17TRACK's own verdicts on a number without information, `Expired*` its verdict on a journey that has lasted
 * long (not something that happened to the parcel).
 */
export const TRK17T_NO_MEANING: readonly string[] = ['NotFound', 'NotFound_Other', 'NotFound_InvalidCode', 'Expired', 'Expired_Other'];

/** Our composite suffix: the event follows one that left the parcel at a pick-up point. */
export const AFTER_PICKUP = ':after_pickup';

/** Every status the help centre page lists, for the test that each is handled. */
export const TRK17T_DOCUMENTED = {
  statuses: [
    'NotFound',
    'InfoReceived',
    'InTransit',
    'Expired',
    'AvailableForPickup',
    'OutForDelivery',
    'DeliveryFailure',
    'Delivered',
    'Exception',
  ],
  subStatuses: [
    'NotFound_Other',
    'NotFound_InvalidCode',
    'InfoReceived',
    'InTransit_PickedUp',
    'InTransit_Other',
    'InTransit_Departure',
    'InTransit_Arrival',
    'InTransit_CustomsProcessing',
    'InTransit_CustomsReleased',
    'InTransit_CustomsRequiringInformation',
    'Expired_Other',
    'AvailableForPickup_Other',
    'OutForDelivery_Other',
    'DeliveryFailure_Other',
    'DeliveryFailure_NoBody',
    'DeliveryFailure_Security',
    'DeliveryFailure_Rejected',
    'DeliveryFailure_InvalidAddress',
    'Delivered_Other',
    'Exception_Other',
    'Exception_Returning',
    'Exception_Returned',
    'Exception_NoBody',
    'Exception_Security',
    'Exception_Damage',
    'Exception_Rejected',
    'Exception_Delayed',
    'Exception_Lost',
    'Exception_Destroyed',
    'Exception_Cancel',
  ],
} as const;

/**
 * The error codes the adapter acts on, from 17TRACK's "Error Codes and Troubleshooting" page
 * (help.17track.net/hc/en-us/articles/37570440168473), read on 2026-11-28.
 */
export const TRK17T_ERRORS = {
  /** -18010001 IP not in the whitelist, -18010002 invalid security key, -18010004 account disabled, -18010005 unauthorized. */
  credentials: [-18010001, -18010002, -18010004, -18010005],
  /** Internal service error, try again later. */
  internal: -18010003,
  /** -18010010 … -18010015: data missing, invalid or malformed (the number itself among them). */
  invalidData: [-18010010, -18010011, -18010012, -18010013, -18010014, -18010015],
  alreadyRegistered: -18019901,
  notRegistered: -18019902,
  /** The carrier cannot be detected from the number. */
  carrierNotDetected: -18019903,
  /** Only stopped numbers can be re-tracked (this one is being tracked). */
  notStopped: -18019904,
  /** Each number can be re-tracked once only (this one was). */
  retrackedOnce: -18019905,
  /** Only numbers being tracked can be stopped (this one is stopped already). */
  notBeingTracked: -18019906,
  /** "Tracking amount exceeds your daily limit" (the account's own daily limit). */
  dailyLimit: -18019907,
  /** "Your quotas have ran out". */
  quotaSpent: -18019908,
  /** No tracking information at the moment. */
  noInfoYet: -18019909,
  /** The carrier's numbers cannot be registered at the moment. */
  carrierUnavailable: -18019911,
} as const;
