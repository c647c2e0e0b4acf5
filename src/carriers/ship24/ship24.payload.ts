/**
 * The fields of Ship24 Tracking API answers and webhook bodies that the adapter reads (the `tracking`, `tracker`,
 * `shipment`, `event`, bulk-creation and error objects of the OpenAPI 3.1 document). Everything is optional and
 * `unknown`: the mapper checks each value before using it, so any JSON is safe to hand it.
 * docs/carriers/ship24.md names the sources.
 */

/** `GET /public/v1/trackers/{id}/results`: `data.trackings`, one item for a tracker asked by its id. */
export interface Ship24ResultsBody {
  data?: { trackings?: unknown } | null;
  errors?: unknown;
}

/** A webhook body: the same `tracking` objects at the root, each with one event discovered since the last push. */
export interface Ship24WebhookBody {
  trackings?: unknown;
}

/** One `tracking`: the tracker it comes from, the shipment, its events (newest first) and statistics. */
export interface Ship24Tracking {
  tracker?: Ship24Tracker;
  shipment?: Ship24Shipment;
  events?: unknown;
  /** Webhooks only: `topic` is `tracking/events`, or `tracking/pod` for the Proof of Delivery add-on. */
  metadata?: { topic?: unknown; messageId?: unknown; generatedAt?: unknown };
  /** `tracking/pod` webhooks: the proof of delivery (not read, see docs/carriers/ship24.md). */
  data?: unknown;
}

export interface Ship24Tracker {
  trackerId?: unknown;
  trackingNumber?: unknown;
  clientTrackerId?: unknown;
  /** A string or a list of up to three codes. */
  courierCode?: unknown;
  isSubscribed?: unknown;
  isTracked?: unknown;
}

export interface Ship24Shipment {
  statusCode?: unknown;
  statusCategory?: unknown;
  /** pending, info_received, in_transit, out_for_delivery, failed_attempt, available_for_pickup, delivered, exception. */
  statusMilestone?: unknown;
  /** ISO 3166-1 alpha-2 as detected by Ship24. */
  originCountryCode?: unknown;
  destinationCountryCode?: unknown;
  delivery?: {
    /** "Date and Time in UTC", written without an offset. */
    estimatedDeliveryDate?: unknown;
    /** Logistics date-times as the courier wrote them. */
    courierEstimatedDeliveryDate?: { from?: unknown; to?: unknown } | null;
    service?: unknown;
    signedBy?: unknown;
  } | null;
}

export interface Ship24Event {
  eventId?: unknown;
  /** The number the event was found on (a shipment may have several). */
  eventTrackingNumber?: unknown;
  /** The courier's raw text. */
  status?: unknown;
  /** A logistics date-time: `2021-03-04T17:12:57` (local, no offset), `…Z`, `…+02:00`, or a date alone. */
  occurrenceDatetime?: unknown;
  /** Lower is older, for events at the same time. */
  order?: unknown;
  /** The courier's raw location text. */
  location?: unknown;
  courierCode?: unknown;
  statusCode?: unknown;
  statusCategory?: unknown;
  statusMilestone?: unknown;
}

/** `POST /public/v1/trackers/bulk`: an envelope for 201, 207, 400 and 403 alike. */
export interface Ship24BulkBody {
  /** success, partial or error. */
  status?: unknown;
  data?: unknown;
  error?: { code?: unknown; message?: unknown } | null;
}

export interface Ship24BulkItem {
  /** created, existing or error. */
  itemStatus?: unknown;
  inputData?: { trackingNumber?: unknown; clientTrackerId?: unknown } | null;
  tracker?: Ship24Tracker | null;
  errors?: unknown;
}

/** `GET /public/v1/couriers`. */
export interface Ship24CouriersBody {
  data?: { couriers?: unknown } | null;
}

export interface Ship24Courier {
  courierCode?: unknown;
  courierName?: unknown;
  isPost?: unknown;
  /** The courier's main country, ISO 3166-1 alpha-2, or null. */
  countryCode?: unknown;
  isDeprecated?: unknown;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A trimmed, non-empty text (numbers as their decimal text), else null. */
export function text(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/** The objects of a list (anything else in it, or a value that is not a list, left out). */
export function objects<T>(value: unknown): T[] {
  return Array.isArray(value) ? (value.filter(isObject) as T[]) : [];
}
