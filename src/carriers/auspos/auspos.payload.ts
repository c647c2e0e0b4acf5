/**
 * The fields Waybill reads from Australia Post's Shipping and Tracking API, "Track items"
 * (`GET /shipping/v1/track?tracking_ids=…`), as the Developer Centre's reference describes them (see
 * docs/carriers/auspos.md for the pages and dates). Every field is optional and typed `unknown` where answers
 * may vary: the mapper checks each one before use and never throws.
 */

/** One tracking event. Australia Post lists them newest first; events carry no code, only their text. */
export interface AusPostEvent {
  /** Where it happened: `SUBURB STATE` in Australia (`ALEXANDRIA NSW`), `PLACE (CC)` abroad; often absent. */
  location?: unknown;
  /** The event's text, e.g. `Processed through Australia Post facility`. */
  description?: unknown;
  /** ISO 8601 with its offset, e.g. `2026-11-18T14:43:09+11:00`. */
  date?: unknown;
}

/** An article inside a trackable item (a StarTrack consignment lists its articles so). */
export interface AusPostItem {
  article_id?: unknown;
  product_type?: unknown;
  events?: AusPostEvent[] | unknown;
  /** One of the documented statuses (see auspos.codes.ts). */
  status?: unknown;
}

/** An article (or a consignment's article) the tracking id names. */
export interface AusPostTrackableItem extends AusPostItem {
  consignment_id?: unknown;
  number_of_items?: unknown;
  items?: AusPostItem[] | unknown;
}

/** StarTrack only: the consignment's own events and status. */
export interface AusPostConsignment {
  events?: AusPostEvent[] | unknown;
  status?: unknown;
}

/** A per-id error inside a 200 (`ESB-10001` invalid tracking id, `ESB-10002` not trackable, `ESB-200x0` system error). */
export interface AusPostError {
  code?: unknown;
  name?: unknown;
  message?: unknown;
}

/** The answer for one tracking id: either its items or its errors. */
export interface AusPostTrackingResult {
  tracking_id?: unknown;
  /** The shipment-level status; `Track items for detailed delivery information` when the items differ. */
  status?: unknown;
  trackable_items?: AusPostTrackableItem[] | unknown;
  consignment?: AusPostConsignment | unknown;
  errors?: AusPostError[] | unknown;
}

/** HTTP 200: one result per id asked. */
export interface AusPostTrackingAnswer {
  tracking_results?: AusPostTrackingResult[] | unknown;
}

/**
 * A refused request (HTTP 400: `51100` no id, `51101`/`51102` more than ten ids, `51103` Australia Post and
 * StarTrack ids mixed, `51104` ids not found) or the gateway's 429 (`error_code` `API_002`).
 */
export interface AusPostErrorAnswer {
  errors?: Array<AusPostError & { error_code?: unknown; error_name?: unknown }> | unknown;
}
