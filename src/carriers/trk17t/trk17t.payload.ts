/**
 * The fields Waybill reads from 17TRACK's Tracking API v2.2 (`https://api.17track.net/track/v2.2`), as its
 * documentation (asset.17track.net/api/document/v2.2_en) and 17TRACK's help centre describe them;
 * docs/carriers/trk17t.md names the pages. Every field is optional and typed `unknown` where answers vary: the
 * mapper checks each one before use and never throws.
 */

/** Every answer: `code` 0 when the request as a whole was processed, the numbers split into accepted and rejected. */
export interface Trk17tEnvelope<Accepted = Trk17tAccepted> {
  code?: unknown;
  data?: { accepted?: Accepted[] | unknown; rejected?: Trk17tRejected[] | unknown } | unknown;
}

/** A number 17TRACK would not process, with its error (e.g. -18019902 "not registered yet"). */
export interface Trk17tRejected {
  number?: unknown;
  error?: { code?: unknown; message?: unknown } | unknown;
}

/**
 * A number of a `gettrackinfo` answer (and the `data` of a TRACKING_UPDATED push): the carrier it is tracked with
 * (17TRACK's numeric carrier key) and its tracking information. Of a `register` or `stoptrack` answer: the
 * number and its carrier alone.
 */
export interface Trk17tAccepted {
  number?: unknown;
  /** 17TRACK's numeric carrier key (e.g. 11031 Royal Mail). */
  carrier?: unknown;
  /** The extra parameter some carriers need (not sent by Waybill). */
  param?: unknown;
  tag?: unknown;
  /** `register` answers: where the carrier came from (detected or given). */
  origin?: unknown;
  track_info?: Trk17tTrackInfo | unknown;
}

export interface Trk17tTrackInfo {
  shipping_info?: { shipper_address?: Trk17tAddress | unknown; recipient_address?: Trk17tAddress | unknown } | unknown;
  /** The number's status now: one of 9 main statuses and one of 30 sub-statuses (trk17t.codes.ts). */
  latest_status?: { status?: unknown; sub_status?: unknown; sub_status_descr?: unknown } | unknown;
  latest_event?: Trk17tEvent | unknown;
  time_metrics?:
    | {
        days_after_order?: unknown;
        days_of_transit?: unknown;
        days_of_transit_done?: unknown;
        days_after_last_update?: unknown;
        /** `{ source, from, to }`: the expected delivery window, ISO 8601 texts. */
        estimated_delivery_date?: { source?: unknown; from?: unknown; to?: unknown } | unknown;
      }
    | unknown;
  milestone?: Array<{ key_stage?: unknown; time_iso?: unknown; time_utc?: unknown }> | unknown;
  misc_info?: unknown;
  tracking?: { providers_hash?: unknown; providers?: Trk17tProviderTrack[] | unknown } | unknown;
}

/** One carrier's part of the journey (an origin post and a destination post are two), newest events first. */
export interface Trk17tProviderTrack {
  provider?: Trk17tProvider | unknown;
  service_type?: unknown;
  latest_sync_status?: unknown;
  latest_sync_time?: unknown;
  events_hash?: unknown;
  events?: Trk17tEvent[] | unknown;
}

export interface Trk17tProvider {
  /** 17TRACK's numeric carrier key. */
  key?: unknown;
  name?: unknown;
  alias?: unknown;
  tel?: unknown;
  homepage?: unknown;
  /** ISO 3166-1 alpha-2 of the carrier's country. */
  country?: unknown;
}

export interface Trk17tEvent {
  /** Local time with its offset, ISO 8601 (`2026-11-20T09:12:00+00:00`). */
  time_iso?: unknown;
  /** The same instant in UTC (`2026-11-20T09:12:00Z`). */
  time_utc?: unknown;
  description?: unknown;
  /** The place as the carrier wrote it. */
  location?: unknown;
  /** The journey stage the event marks, when it marks one (`PickedUp`, `Delivered`, …). */
  stage?: unknown;
  /** 17TRACK's sub-status of the event (`InTransit_PickedUp`, …). */
  sub_status?: unknown;
  address?: Trk17tAddress | unknown;
}

export interface Trk17tAddress {
  country?: unknown;
  state?: unknown;
  city?: unknown;
  street?: unknown;
  postal_code?: unknown;
  coordinates?: { longitude?: unknown; latitude?: unknown } | unknown;
}

/** A push: `TRACKING_UPDATED` with a number's tracking information, `TRACKING_STOPPED` when 17TRACK stopped tracking it. */
export interface Trk17tPushBody {
  event?: unknown;
  data?: Trk17tAccepted | unknown;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The objects of a list (anything else left out). */
export function objects<T>(value: unknown): T[] {
  return Array.isArray(value) ? (value.filter(isObject) as T[]) : [];
}

/** A trimmed, single-spaced text, or null. Numbers are read as their decimal text (17TRACK's carrier keys). */
export function text(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return null;
  const trimmed = value.replace(/\s+/g, ' ').trim();
  return trimmed === '' ? null : trimmed;
}

/** An integer code (17TRACK's error codes and carrier keys are integers; a numeric string is read too). */
export function integer(value: unknown): number | null {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^-?\d{1,12}$/.test(value.trim())) return Number(value.trim());
  return null;
}

/** A number as 17TRACK is asked for it and as Waybill compares numbers: no spaces, upper case. */
export function normalizeNumber(trackingNumber: string): string {
  return trackingNumber.replace(/\s+/g, '').toUpperCase();
}
