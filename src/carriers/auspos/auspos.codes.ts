import type { CodeTable } from '../sdk/codes.js';

/**
 * Australia Post's tracking statuses → standard event keys.
 *
 * Source: "Australia Post Article Status" on the Shipping and Tracking API's status reference,
 * https://developers.auspost.com.au/content/apis/shipping-and-tracking/reference-statuses.html, read on 2026-11-28
 * (the statuses and their descriptions; see docs/carriers/auspos.md). A status belongs to an item or a shipment, not
 * to an event: the mapper gives it to the newest event (see auspos.mapper.ts).
 *
 * Keys are the statuses as the page spells them; answers are matched to them whatever their case.
 * `Delivered:Awaiting collection` is our composite, not Australia Post's: delivered after waiting at a Post
 * Office or a Parcel Locker is the recipient collecting it. The stored carrier code stays the event's own.
 */
export const AUSPOST_STATUSES: CodeTable = {
  Created: 'label_created', // created, not yet finalised in an order
  Sealed: 'label_created', // the shipment was added to an order
  Initiated: 'info_received', // finalised in an order: delivered once Australia Post receives the parcels
  'In transit': 'in_transit',
  Delivered: 'delivered',
  'Delivered:Awaiting collection': 'collected_by_recipient',
  'Awaiting collection': 'available_for_pickup', // at a Post Office or a Parcel Locker
  'Possible delay': 'delayed', // "a delay … is highly likely"
  'Unsuccessful pickup': 'pickup_failed', // could not be collected by Australia Post for delivery
  'Article damaged': 'damaged',
  Cancelled: 'cancelled',
  'Held by courier': 'delayed', // no cause given: "delayed" is the exception key that claims none
  'Cannot be delivered': 'address_issue', // "cannot be delivered as addressed"
};

/**
 * Every status the page lists, mapped or not. `Track items for detailed delivery information` is a shipment's
 * summary when its items differ: it says nothing of where the parcel is and maps to no key.
 */
export const AUSPOST_DOCUMENTED_STATUSES = [
  'Created',
  'Sealed',
  'Initiated',
  'In transit',
  'Delivered',
  'Awaiting collection',
  'Possible delay',
  'Unsuccessful pickup',
  'Article damaged',
  'Cancelled',
  'Held by courier',
  'Cannot be delivered',
  'Track items for detailed delivery information',
] as const;

/**
 * Event texts → standard event keys, for the texts the "Track items" reference's own example answer shows (as two
 * independent public transcriptions of that page quote it, read on 2026-11-28; docs/carriers/auspos.md), and for
 * texts that are exactly one of the statuses above. Australia Post publishes no list of event texts: any
 * other text keeps Australia Post's words and no key (the newest event still takes the item's status).
 * Matched whole, whatever the case and spacing.
 */
export const AUSPOST_EVENT_TEXTS: CodeTable = {
  'Shipping information approved by Australia Post': 'info_received',
  'Processed through Australia Post facility': 'in_transit',
  'Departed facility': 'departed_facility',
  'Arrived at facility in destination country': 'arrived_at_facility',
  'With Australia Post for delivery today': 'out_for_delivery',
};

/** Per-id errors of a 200 answer and what they mean for the number. */
export const AUSPOST_NOT_FOUND = 'ESB-10001'; // Invalid tracking ID: "could not be found"
export const AUSPOST_NOT_TRACKABLE = 'ESB-10002'; // the article or consignment is not trackable

/** Whole-request errors (HTTP 400) that say something about the numbers rather than about the request. */
export const AUSPOST_IDS_NOT_FOUND = '51104'; // INVALID_TRACKING_ID: one or more ids could not be found
export const AUSPOST_IDS_MIXED = '51103'; // TRACKING_IDS_MIX_OF_AP_AND_ST: Australia Post and StarTrack ids together
