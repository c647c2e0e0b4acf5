import { parseEventTime } from '../../core/event-time.js';
import type { CarrierEvent, CarrierEventLocation, TrackResult } from '../carrier.js';
import type { EventKey } from '../phases.js';
import { carrierEvent, mapCode } from '../sdk/codes.js';
import { placeOf } from '../sdk/places.js';
import { fromIsoLike } from '../sdk/times.js';
import { AT_TARGET_POINT, INPOST_CODES } from './inpost.codes.js';
import { listOf, objectOf, textOf } from './inpost.payload.js';

/**
 * InPost ShipX tracking answers → our results. Pure: no I/O, no clock; any JSON maps without throwing.
 */

/** The Polish ShipX instance's local time: times written without an offset are placed in it. */
export const INPOST_TIMEZONE = 'Europe/Warsaw';

export interface InpostMapOptions {
  /** Maps codes to an event key, most specific first (the carrier counts unmapped codes through it). */
  code?: (codes: ReadonlyArray<string | null | undefined>) => EventKey | null;
}

/** A ShipX time as the text `parseEventTime` reads (ISO 8601, with or without offset), or null. */
export function inpostTime(value: unknown): string | null {
  const time = fromIsoLike(textOf(value));
  return time && parseEventTime(time, { timezone: INPOST_TIMEZONE }).ok ? time : null;
}

/** `00-001 Warszawa` → postal code and city (the `line2` of a Polish point's address). */
function postalLine(line: string | null): { postal: string | null; city: string | null } {
  const match = line ? /^(\d{2}-\d{3})\s+(.+)$/.exec(line) : null;
  return match ? { postal: match[1], city: match[2] } : { postal: null, city: line };
}

function coordinate(value: unknown): string | null {
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : textOf(value);
}

/**
 * The receiving locker or point of a shipment (`target_machine_id` with `target_machine_detail`), as an event
 * place: `Kraków, PL`, with the point's name in `line1` (the facility, as `placeOf` places it) and `full`, and its
 * street in `line2`. Null without a point.
 */
export function targetPoint(custom: Record<string, unknown> | null): CarrierEventLocation | null {
  const id = textOf(custom?.target_machine_id);
  const detail = objectOf(custom?.target_machine_detail);
  const name = textOf(detail?.name) ?? id;
  if (!name) return null;
  const address = objectOf(detail?.address);
  const details = objectOf(detail?.address_details);
  const street = textOf(address?.line1);
  const line = postalLine(textOf(address?.line2));
  const location = objectOf(detail?.location);
  // The Polish ShipX instance lists Polish points only.
  const place = placeOf({
    facility: name,
    city: textOf(details?.city) ?? line.city,
    postal_code: textOf(details?.post_code) ?? line.postal,
    country_code: 'PL',
    latitude: coordinate(location?.latitude),
    longitude: coordinate(location?.longitude),
    location_type: 'pickup_point',
    timezone: INPOST_TIMEZONE,
  });
  if (!place) return null;
  const locality = [place.postal_code, place.city].filter(Boolean).join(' ');
  const formatted = [street, locality, place.country].filter(Boolean).join(', ');
  return { ...place, line2: street, full: [name, formatted].filter(Boolean).join(', '), formatted_address: formatted || null };
}

/** Whether the shipment goes to a parcel locker or a point (its `delivered` is then a collection). */
function toPoint(custom: Record<string, unknown> | null): boolean {
  return textOf(custom?.target_machine_id) !== null;
}

interface StatusEntry {
  status: string;
  time: string;
  originStatus: string | null;
  agency: string | null;
}

/** The history's entries that have a status and a readable time, in InPost's order (newest first). */
function entriesOf(body: Record<string, unknown>): StatusEntry[] {
  const entries: StatusEntry[] = [];
  for (const item of listOf(body.tracking_details)) {
    const status = textOf(item.status);
    const time = inpostTime(item.datetime);
    if (!status || !time) continue;
    entries.push({ status, time, originStatus: textOf(item.origin_status), agency: textOf(item.agency) });
  }
  if (entries.length > 0) return entries;
  // No history (not documented, but cheap to read): the current status at the last update is the one event.
  const status = textOf(body.status);
  const time = inpostTime(body.updated_at) ?? inpostTime(body.created_at);
  return status && time ? [{ status, time, originStatus: null, agency: null }] : [];
}

/** The events of one tracking answer, in InPost's order (the adapter base sorts them oldest first). */
export function mapEvents(body: Record<string, unknown>, code: NonNullable<InpostMapOptions['code']>): CarrierEvent[] {
  const custom = objectOf(body.custom_attributes);
  const lockerDelivery = toPoint(custom);
  const target = targetPoint(custom);
  const targetId = textOf(custom?.target_machine_id);
  return entriesOf(body).map((entry) => {
    const extra: Record<string, unknown> = {};
    if (entry.originStatus) extra.origin_status = entry.originStatus;
    if (entry.agency) extra.agency = entry.agency;
    let location: CarrierEventLocation | null = null;
    if (AT_TARGET_POINT.has(entry.status) && target) {
      location = target;
      if (targetId) extra.target_machine_id = targetId;
    } else if (entry.agency) {
      location = placeOf({ facility: entry.agency, timezone: INPOST_TIMEZONE });
    }
    return carrierEvent({
      key: code([lockerDelivery ? `locker:${entry.status}` : null, entry.status]),
      code: entry.status,
      // ShipX gives a status name only (its titles come from `GET /v1/statuses`): the name is the description.
      description: entry.status,
      time: entry.time,
      timezone: INPOST_TIMEZONE,
      location,
      extra,
    });
  });
}

/**
 * A `200` answer for one number → its result: the events of its status history, or an error for a body that is
 * no tracking answer. ShipX gives no expected delivery date and no proof of delivery.
 */
export function mapTrackingBody(trackingNumber: string, body: unknown, options: InpostMapOptions = {}): TrackResult {
  const root = objectOf(body);
  if (!root || !('tracking_details' in root || 'tracking_number' in root)) {
    const error = textOf(root?.error);
    if (error === 'resource_not_found') return { status: 'not_found', tracking_number: trackingNumber };
    return {
      status: 'error',
      tracking_number: trackingNumber,
      retryable: true,
      message: `InPost answer holds no tracking${error ? ` (${error.slice(0, 100)})` : ''}`,
    };
  }
  const code = options.code ?? ((codes) => mapCode(INPOST_CODES, codes));
  return { status: 'ok', tracking_number: trackingNumber, events: mapEvents(root, code) };
}

/** The error key and message of a ShipX error answer, as one line for messages (`resource_not_found: …`). */
export function errorText(body: unknown): string {
  const root = objectOf(body);
  return [textOf(root?.error), textOf(root?.message) ?? textOf(root?.description)].filter(Boolean).join(': ').slice(0, 200);
}
