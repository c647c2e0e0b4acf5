/**
 * The fields of InPost's ShipX tracking answer (`GET /v1/tracking/{tracking_number}`) that the adapter reads.
 * Every field is `unknown` until checked: the mapper must survive any JSON.
 *
 * Source: InPost ShipX documentation, "Shipment Tracking" (https://dokumentacja-inpost.atlassian.net/wiki/spaces/PL/pages/18153479,
 * and its [1.23.0] version, pages/28639244), "Points" for the shape of a point (pages/28639230) and the
 * error object of the ShipX documentation (pages/28639229); read 2026-11-28. See docs/carriers/inpost.md.
 */

/** The Tracking resource. */
export interface InpostTrackingBody {
  tracking_number?: unknown;
  /** Shipment type, e.g. `inpost_locker_standard`, `inpost_courier_standard`. */
  type?: unknown;
  /** Shipment service (the same values as `type`). */
  service?: unknown;
  /** Extra attributes of parcel locker shipments. */
  custom_attributes?: InpostCustomAttributes | unknown;
  /** The current status name (`ready_to_pickup`). */
  status?: unknown;
  created_at?: unknown;
  updated_at?: unknown;
  /** The status history, newest first. */
  tracking_details?: unknown;
  /** Statuses the shipment may still pass through (names only, no dates). */
  expected_flow?: unknown;
}

/** `custom_attributes` of a parcel locker shipment. */
export interface InpostCustomAttributes {
  /** Locker size `A`, `B` or `C`. */
  size?: unknown;
  /** The receiving locker's (or point's) name, e.g. `KRA01M`. */
  target_machine_id?: unknown;
  /** The receiving locker's details: a point as the Points resource describes one. */
  target_machine_detail?: InpostPoint | unknown;
  /** The sending locker's name. */
  dropoff_machine_id?: unknown;
  dropoff_machine_detail?: InpostPoint | unknown;
}

/** A point (parcel locker, ParcelPoint, branch) as far as the adapter reads it. */
export interface InpostPoint {
  name?: unknown;
  /** Point types, e.g. `parcel_locker`, `pop`. */
  type?: unknown;
  /** `{ latitude, longitude }` in decimal degrees. */
  location?: unknown;
  location_description?: unknown;
  opening_hours?: unknown;
  /** `{ line1: street and number, line2: postal code and city }`. */
  address?: unknown;
  /** `{ city, province, post_code, street, building_number, flat_number }` (the Points resource; optional here). */
  address_details?: unknown;
}

/** One entry of `tracking_details`. */
export interface InpostTrackingDetail {
  /** The status name. */
  status?: unknown;
  /** The status symbol InPost's own systems use. */
  origin_status?: unknown;
  /** The agency (branch) name. */
  agency?: unknown;
  /** When the status was set (ISO 8601). */
  datetime?: unknown;
}

/** A ShipX error answer (`{ status, error, message, details }`). */
export interface InpostError {
  status?: unknown;
  /** The error key, e.g. `resource_not_found`. */
  error?: unknown;
  message?: unknown;
  description?: unknown;
  details?: unknown;
}

/** A text field: trimmed, or null when absent, empty or not a string (finite numbers are read as text). */
export function textOf(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return null;
  const text = value.trim();
  return text === '' ? null : text;
}

/** An object field, or null. */
export function objectOf(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** A list field: its objects, or an empty list. */
export function listOf(value: unknown): Record<string, unknown>[] {
  if (!Array.isArray(value)) return [];
  return value.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null && !Array.isArray(item));
}
