/**
 * The fields of USPS Tracking 3.2 answers (`POST /tracking/v3r2/tracking`, OpenAPI "Package Tracking and
 * Notification" 3.2.2) that the mapper reads. Everything is optional and typed `unknown` where USPS may send
 * something else: the mapper checks each value before using it and never throws on arbitrary JSON.
 */

/** One scan event (`TrackingEvent`). USPS lists them newest first. */
export interface UspsTrackingEvent {
  /** Pub 199 Appendix G scan event code (`01`, `OF`, `07`…). */
  eventCode?: unknown;
  /** The event's description (`Delivered, Front Door/Porch`). */
  eventType?: unknown;
  /** A date (`2024-04-04`) or a date-time, normally with its offset (`2024-04-04T14:03:12-07:00`). */
  eventTimestamp?: unknown;
  /** The same instant in GMT (`2024-04-04T21:03:12Z`). */
  GMTTimestamp?: unknown;
  /** The local time's offset from GMT, unpadded (`-7:00`). */
  GMTOffset?: unknown;
  eventCity?: unknown;
  eventState?: unknown;
  /** 5-digit ZIP Code (Tracking 3.2). */
  eventZIPCode?: unknown;
  /** 5-digit ZIP Code as Tracking 3.0 named it. */
  eventZIP?: unknown;
  eventCountry?: unknown;
  /** A shipping partner's name, for partner events (`80`–`82`). */
  eventPartner?: unknown;
  actionCode?: unknown;
  reasonCode?: unknown;
}

/** `DeliveryDateExpectation`: when USPS expects to deliver. */
export interface UspsDeliveryDateExpectation {
  /** `YYYY-MM-DD`. */
  expectedDeliveryDate?: unknown;
  /** `YYYY-MM-DD`, from USPS's prediction. */
  predictedDeliveryDate?: unknown;
  /** Local clock text such as `12:15pm`. */
  predictedDeliveryWindowStartTime?: unknown;
  predictedDeliveryWindowEndTime?: unknown;
}

/** One item's tracking (`TrackingDetail`, or a `SuccessResponse` inside a 207 answer). */
export interface UspsTrackingDetail {
  /** In 207 answers: `"200"` for an item found, `"404"` (or another status) for one that failed. */
  statusCode?: unknown;
  trackingNumber?: unknown;
  associatedTrackingNumber?: unknown;
  /** Distinguishes two items that share a tracking number. */
  uniqueTrackingID?: unknown;
  mailingDate?: unknown;
  status?: unknown;
  /** The item's status category (`Delivered`, `In Transit`, `Delivery Attempt: Action Needed`…). */
  statusCategory?: unknown;
  statusSummary?: unknown;
  destinationState?: unknown;
  destinationCountry?: unknown;
  deliveryDateExpectation?: unknown;
  /** Tracking 3.0 gave the expected date at the top level. */
  expectedDeliveryDate?: unknown;
  trackingEvents?: unknown;
  /** In a failed 207 item (`FailureResponse`). */
  error?: unknown;
}

/** USPS's `ErrorMessage`: `{ apiVersion, error: { code, message, errors: [{ status, code, title, detail, source }] } }`. */
export interface UspsErrorMessage {
  apiVersion?: unknown;
  error?: {
    code?: unknown;
    message?: unknown;
    errors?: unknown;
  };
}

/** One entry of `error.errors`. `code` holds USPS's subordinate code (`150002`). */
export interface UspsErrorEntry {
  status?: unknown;
  code?: unknown;
  title?: unknown;
  detail?: unknown;
}
