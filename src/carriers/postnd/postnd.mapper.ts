import { parseEventTime, toLocalDateTime } from '../../core/event-time.js';
import type { CarrierEvent, CarrierEventLocation, ExpectedDelivery, TrackResult } from '../carrier.js';
import type { EventKey } from '../phases.js';
import { carrierEvent, mapCode } from '../sdk/codes.js';
import { countryAlpha2, placeOf } from '../sdk/places.js';
import { fromIsoLike, timezoneOf } from '../sdk/times.js';
import { POSTNORD_CODES, POSTNORD_FINAL_STATUSES, POSTNORD_WAITING_STATUSES } from './postnd.codes.js';
import { listOf, objectOf, textOf } from './postnd.payload.js';

/**
 * PostNord Track and Trace v5 answers → our results. Pure: no I/O, no clock; any JSON maps without throwing.
 */

/** Maps codes (composite first) to an event key; the carrier passes one that counts unmapped codes. */
export type CodeMapper = (codes: ReadonlyArray<string | null | undefined>) => EventKey | null;

/**
 * The zone of an event time without offset when neither the event's place nor the recipient's country names
 * one: Sweden's. Denmark and Norway keep the same clock; only Finland's differs, and Finnish events name their
 * country.
 */
export const POSTNORD_HOME_ZONE = 'Europe/Stockholm';

type Json = Record<string, unknown>;

/** An identifier as PostNord takes it: letters and digits only ("Valid characters: A-Z, a-z, 0-9"). */
export function normalizeIdentifier(number: string): string {
  return number.replace(/[\s-]+/g, '').toUpperCase();
}

/** Whether PostNord's schema accepts the identifier: 10 to 35 letters and digits. */
export function isPostnordIdentifier(number: string): boolean {
  return /^[A-Z0-9]{10,35}$/.test(normalizeIdentifier(number));
}

function upper(value: unknown): string | null {
  return textOf(value)?.toUpperCase() ?? null;
}

/** The `TrackingInformationResponse` of an answer, or null when the body is no such answer. */
function responseOf(body: unknown): Json | null {
  return objectOf(objectOf(body)?.TrackingInformationResponse);
}

/** The faults PostNord gave (`compositeFault.faults`), as one line for messages; empty when none. */
export function faultsText(body: unknown): string {
  const response = responseOf(body) ?? objectOf(body);
  return listOf(objectOf(response?.compositeFault)?.faults)
    .map((fault) => [textOf(fault.faultCode), textOf(fault.explanationText)].filter(Boolean).join(': '))
    .filter(Boolean)
    .join('; ')
    .slice(0, 200);
}

interface Parcel {
  shipment: Json;
  /** The items the number stands for: the item asked for, or every item of the shipment asked for. */
  items: Json[];
}

/**
 * The parcel a number stands for in the answer's shipments: the item whose `itemId` it is; else the shipment
 * whose `shipmentId` it is (all its items); else the first shipment PostNord answered with for it.
 */
export function pickParcel(shipments: readonly Json[], trackingNumber: string): Parcel | null {
  const wanted = normalizeIdentifier(trackingNumber);
  const same = (value: unknown) => normalizeIdentifier(textOf(value) ?? '') === wanted;
  for (const shipment of shipments) {
    const item = listOf(shipment.items).find((candidate) => same(candidate.itemId));
    if (item) return { shipment, items: [item] };
  }
  const shipment = shipments.find((candidate) => same(candidate.shipmentId)) ?? shipments[0];
  return shipment ? { shipment, items: listOf(shipment.items) } : null;
}

/**
 * A findByIdentifier answer (HTTP 200) → the result for one number: its events and delivery estimate;
 * `not_found` when PostNord lists no shipment for it (its answer for identifiers it does not know); a retryable
 * error for a body that is no tracking answer.
 */
export function mapTrackingBody(trackingNumber: string, body: unknown, code: CodeMapper = defaultCodeMapper): TrackResult {
  const response = responseOf(body);
  if (!response) {
    return {
      status: 'error',
      tracking_number: trackingNumber,
      retryable: true,
      message: 'PostNord answer holds no TrackingInformationResponse',
    };
  }
  const parcel = pickParcel(listOf(response.shipments), trackingNumber);
  if (!parcel) return { status: 'not_found', tracking_number: trackingNumber };
  const homeZone = recipientZone(parcel.shipment) ?? POSTNORD_HOME_ZONE;
  const events = eventsOf(parcel, homeZone, code);
  const result: TrackResult = { status: 'ok', tracking_number: trackingNumber, events };
  const expected = expectedDeliveryOf(parcel, events, homeZone);
  if (expected) result.expected_delivery = expected;
  return result;
}

/** The zone of the recipient's country (`consignee.address.countryCode`), when it has one. */
function recipientZone(shipment: Json): string | null {
  const country = countryAlpha2(textOf(objectOf(objectOf(shipment.consignee)?.address)?.countryCode));
  return country ? timezoneOf(country) : null;
}

interface Reading {
  event: Json;
  location: Json;
  eventCode: string | null;
  status: string | null;
  time: string;
  zone: string | null;
  /** The zone the time is placed in (its own offset aside). */
  placing: string;
  utc: string;
}

/** An item's events that can be stored: a code (event code or status) and a readable time. */
function readingsOf(item: Json, homeZone: string): Reading[] {
  const readings: Reading[] = [];
  for (const event of listOf(item.events)) {
    const eventCode = textOf(event.eventCode)?.slice(0, 40) ?? null;
    const status = upper(event.status)?.slice(0, 40) ?? null;
    const time = fromIsoLike(textOf(event.eventTime));
    if ((eventCode === null && status === null) || time === null) continue;
    const location = objectOf(event.location) ?? {};
    const country = countryAlpha2(textOf(location.countryCode));
    const zone = country ? timezoneOf(country) : null;
    const placing = zone ?? homeZone;
    const parsed = parseEventTime(time, { timezone: placing });
    if (!parsed.ok) continue;
    readings.push({ event, location, eventCode, status, time, zone, placing, utc: parsed.time.utc });
  }
  return readings;
}

/** Every event of the parcel's items; with several items, each event names its item. */
function eventsOf(parcel: Parcel, homeZone: string, code: CodeMapper): CarrierEvent[] {
  const several = parcel.items.length > 1;
  const events: CarrierEvent[] = [];
  for (const item of parcel.items) {
    const readings = readingsOf(item, homeZone);
    const waited = readings.filter((r) => r.status !== null && POSTNORD_WAITING_STATUSES.includes(r.status)).map((r) => r.utc);
    const itemId = several ? textOf(item.itemId)?.slice(0, 40) : null;
    for (const reading of readings) {
      const { status, eventCode } = reading;
      const collected = status === 'DELIVERED' && waited.some((at) => at < reading.utc);
      const key = code(status ? [collected ? 'DELIVERED:AVAILABLE_FOR_DELIVERY' : null, status] : [eventCode]);
      const extra: Json = {};
      if (status) extra.status = status;
      if (itemId) extra.item_id = itemId;
      const locationId = textOf(reading.location.locationId);
      const locationType = upper(reading.location.locationType);
      if (locationId) extra.location_id = locationId.slice(0, 40);
      if (locationType) extra.location_type = locationType.slice(0, 40);
      let location = placeOfLocation(reading.location, objectOf(reading.event.geoLocation), reading.zone);
      if (key === 'available_for_pickup' && locationType !== 'SERVICE_POINT') {
        // Waiting somewhere the event does not name as a service point: the shipment's delivery point is the place.
        const point = deliveryPointOf(parcel.shipment, reading.zone ?? homeZone, extra);
        if (point) location = point;
      }
      const hasOffset = /(?:Z|[+-]\d{2}:\d{2})$/.test(reading.time);
      events.push(
        carrierEvent({
          key,
          code: (eventCode ?? status) as string,
          description: textOf(reading.event.eventDescription) ?? status ?? (eventCode as string),
          time: reading.time,
          // A time with its offset keeps it (and its place's zone beside it); one without is placed in its zone.
          timezone: hasOffset ? reading.zone : reading.placing,
          location,
          extra,
        }),
      );
    }
  }
  return events;
}

/** A coordinate when it is a finite number within `limit` degrees. */
function degrees(value: unknown, limit: number): number | null {
  const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  return Number.isFinite(number) && Math.abs(number) <= limit ? number : null;
}

/** The event's place: its named location (service point, terminal, depot), its city and country, its coordinates. */
function placeOfLocation(location: Json, geo: Json | null, zone: string | null): CarrierEventLocation | null {
  // Coordinates are read only when PostNord says they are WGS 84 latitude (northing) and longitude (easting).
  const wgs84 = /^WGS\s*-?\s*84$/i.test(textOf(geo?.geoReferenceSystem) ?? '');
  const latitude = wgs84 ? degrees(geo?.geoNorthing, 90) : null;
  const longitude = wgs84 ? degrees(geo?.geoEasting, 180) : null;
  const both = latitude !== null && longitude !== null;
  return placeOf({
    facility: textOf(location.displayName) ?? textOf(location.name),
    city: textOf(location.city),
    postal_code: textOf(location.postcode),
    country_code: textOf(location.countryCode),
    code: textOf(location.locationId),
    location_type: upper(location.locationType),
    timezone: zone,
    latitude: both ? latitude : null,
    longitude: both ? longitude : null,
  });
}

/** The shipment's delivery point (service point or locker) as a place; what it adds goes to `extra`. */
function deliveryPointOf(shipment: Json, zone: string, extra: Json): CarrierEventLocation | null {
  const point = objectOf(shipment.deliveryPoint);
  if (!point) return null;
  const address = objectOf(point.address) ?? {};
  const place = placeOf({
    facility: textOf(point.displayName) ?? textOf(point.name),
    city: textOf(address.city),
    postal_code: textOf(address.postCode),
    country_code: textOf(address.countryCode),
    code: textOf(point.locationId),
    location_type: 'SERVICE_POINT',
    timezone: timezoneOf(countryAlpha2(textOf(address.countryCode))) ?? zone,
  });
  if (!place) return null;
  const id = textOf(point.locationId);
  const type = textOf(point.servicePointType);
  const street = textOf(address.street1);
  if (id) extra.service_point_id = id.slice(0, 40);
  if (type) extra.service_point_type = type.slice(0, 40);
  if (street) extra.service_point_street = street.slice(0, 200);
  return place;
}

/**
 * The delivery estimate as a day: the item's `estimatedTimeOfArrival`, else the shipment's, else the
 * statistical `publicTimeOfArrival` (item, then shipment). None once the parcel is delivered or returned.
 */
function expectedDeliveryOf(parcel: Parcel, events: readonly CarrierEvent[], zone: string): ExpectedDelivery | undefined {
  const { shipment, items } = parcel;
  const item = items.length === 1 ? items[0] : null;
  const statuses = [upper(item?.status), upper(shipment.status)];
  if (statuses.some((s) => s !== null && POSTNORD_FINAL_STATUSES.includes(s))) return undefined;
  if (events.some((e) => e.phase_key === 'delivered' || e.phase_key === 'return_to_sender')) return undefined;
  const candidates = [
    item?.estimatedTimeOfArrival,
    shipment.estimatedTimeOfArrival,
    item?.publicTimeOfArrival,
    shipment.publicTimeOfArrival,
  ];
  for (const candidate of candidates) {
    const day = localDay(fromIsoLike(textOf(candidate)), zone);
    if (day) return { from: day, to: day };
  }
  return undefined;
}

/** The local day of a time: its own date when it has no offset, else the date in `zone` at that instant. */
function localDay(time: string | null, zone: string): string | null {
  if (time === null) return null;
  const parsed = parseEventTime(time, { timezone: zone });
  if (!parsed.ok) return null;
  if (parsed.time.offset === null) return time.slice(0, 10);
  return toLocalDateTime(Date.parse(parsed.time.utc), zone).date;
}

function defaultCodeMapper(codes: ReadonlyArray<string | null | undefined>): EventKey | null {
  return mapCode(POSTNORD_CODES, codes);
}
