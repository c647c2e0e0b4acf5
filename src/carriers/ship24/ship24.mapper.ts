import { parseEventTime } from '../../core/event-time.js';
import type { CarrierEvent, CarrierOfRecord, ExpectedDelivery, TrackResult } from '../carrier.js';
import { type EventKey, type PhaseKey, phaseOfEvent } from '../phases.js';
import type { PushUpdate } from '../push.js';
import { carrierEvent, mapCode } from '../sdk/codes.js';
import { countryAlpha2, placeOf } from '../sdk/places.js';
import { fromIsoLike, timezoneOf } from '../sdk/times.js';
import { AFTER_PICKUP, AFTER_RETURN, SHIP24_CODES, SHIP24_MILESTONE_ONLY, SHIP24_PHASE_ONLY } from './ship24.codes.js';
import { type CourierBook, carrierIdOf, TABLE_ONLY } from './ship24.couriers.js';
import {
  isObject,
  objects,
  type Ship24Event,
  type Ship24ResultsBody,
  type Ship24Shipment,
  type Ship24Tracking,
  type Ship24WebhookBody,
  text,
} from './ship24.payload.js';
import { clientTrackerId, normalizeNumber } from './ship24.trackers.js';

/**
 * Ship24 `tracking` objects (a results answer, or a webhook body) → our results. Pure: no I/O, no clock; any JSON
 * maps without throwing.
 */

/** Our event key of a list of codes, most specific first (the adapter counts codes its table lacks). */
export type CodeMapper = (codes: ReadonlyArray<string | null | undefined>) => EventKey | null;

export interface Ship24MapOptions {
  eventKeyOf?: CodeMapper;
  /** The couriers known by code: names for the carrier of record, countries for event times. */
  couriers?: CourierBook;
}

const plainMapper: CodeMapper = (codes) => mapCode(SHIP24_CODES, codes);

/** Webhook trackings read from one body, within reason. */
const MAX_PUSHED = 500;

function lower(value: unknown): string | null {
  return text(value)?.toLowerCase() ?? null;
}

interface Scan {
  event: Ship24Event;
  time: string;
  timezone: string | null;
  country: string | null;
  utc: string;
  order: number | null;
  /** Position in Ship24's list (newest first). */
  index: number;
}

/** Where the shipment's events happen when the answer says so: both ends in one country. */
function domesticCountry(shipment: Ship24Shipment | undefined): string | null {
  const origin = countryAlpha2(text(shipment?.originCountryCode));
  const destination = countryAlpha2(text(shipment?.destinationCountryCode));
  return origin && origin === destination ? origin : null;
}

/** A US location as couriers write it: `SAN RAFAEL, CA 94901`. */
const US_STATE = /(?:^|[\s,])([A-Z]{2})\s+\d{5}(?:-\d{4})?\s*$/;

/**
 * An event's country: the shipment's when it stays in one country, else the country of the postal operator that
 * reported it (a post reports what happens in its own country). Otherwise none: its time is kept as written.
 */
function readScan(event: Ship24Event, index: number, domestic: string | null, couriers: CourierBook): Scan | null {
  const time = fromIsoLike(text(event.occurrenceDatetime));
  if (time === null) return null;
  const code = text(event.courierCode);
  const courier = code ? couriers.find(code) : null;
  const country = domestic ?? (courier?.post ? courier.country : null);
  const state = country === 'US' ? US_STATE.exec(text(event.location) ?? '')?.[1] : undefined;
  const timezone = country ? timezoneOf(country, state, { mainland: true }) : null;
  const parsed = parseEventTime(time, { timezone });
  if (!parsed.ok) return null;
  const order = typeof event.order === 'number' && Number.isFinite(event.order) ? event.order : null;
  return { event, time, timezone, country, utc: parsed.time.utc, order, index };
}

/** Oldest first: by instant, then Ship24's `order` (lower is older), then the list's order reversed. */
function chronological(a: Scan, b: Scan): number {
  if (a.utc !== b.utc) return a.utc < b.utc ? -1 : 1;
  if (a.order !== null && b.order !== null && a.order !== b.order) return a.order - b.order;
  return b.index - a.index;
}

/** What the events before this one tell about it. */
interface Course {
  /** The parcel waits at a pick-up point (its delivery is a collection). */
  atPickup: boolean;
  /** A return to the sender has begun. */
  returning: boolean;
}

function composites(code: string, course: Course): string[] {
  const codes: string[] = [];
  if (course.returning && code === 'delivery_delivered') codes.push(`${code}${AFTER_RETURN}`);
  if (course.atPickup && (code === 'delivery_delivered' || code === 'delivered')) codes.push(`${code}${AFTER_PICKUP}`);
  return codes;
}

/**
 * An event's key and phase: its status code first (composites before it), else its milestone. Codes that name a
 * phase but no key of ours give the phase alone; documented codes without a meaning of their own give way to the
 * milestone.
 */
function classify(
  statusCode: string | null,
  milestone: string | null,
  course: Course,
  eventKeyOf: CodeMapper,
): { key: EventKey | null; phase: PhaseKey | null } {
  const own = statusCode && !SHIP24_MILESTONE_ONLY.includes(statusCode) ? statusCode : null;
  if (own && SHIP24_PHASE_ONLY[own]) return { key: null, phase: SHIP24_PHASE_ONLY[own] };
  const general = milestone && !SHIP24_MILESTONE_ONLY.includes(milestone) ? milestone : null;
  const generalPhase = general ? SHIP24_PHASE_ONLY[general] : undefined;
  const codes: string[] = [];
  if (own) codes.push(...composites(own, course), own);
  if (general && !generalPhase) codes.push(...composites(general, course), general);
  const key = codes.length > 0 ? eventKeyOf(codes) : null;
  if (key) return { key, phase: phaseOfEvent(key) };
  return { key: null, phase: generalPhase ?? null };
}

/** The events of one tracking, oldest first. */
export function mapEvents(tracking: Ship24Tracking, trackingNumber: string, options: Ship24MapOptions = {}): CarrierEvent[] {
  const couriers = options.couriers ?? TABLE_ONLY;
  const eventKeyOf = options.eventKeyOf ?? plainMapper;
  const domestic = domesticCountry(isObject(tracking.shipment) ? tracking.shipment : undefined);
  const scans = objects<Ship24Event>(tracking.events)
    .map((event, index) => readScan(event, index, domestic, couriers))
    .filter((scan): scan is Scan => scan !== null)
    .sort(chronological);
  const course: Course = { atPickup: false, returning: false };
  const wanted = normalizeNumber(trackingNumber);
  return scans.map((scan) => {
    const statusCode = lower(scan.event.statusCode);
    const milestone = lower(scan.event.statusMilestone);
    const { key, phase } = classify(statusCode, milestone, course, eventKeyOf);
    if (key === 'available_for_pickup') course.atPickup = true;
    if (key === 'out_for_delivery') course.atPickup = false;
    if (key === 'returning_to_sender') course.returning = true;
    const courierCode = text(scan.event.courierCode);
    const found = text(scan.event.eventTrackingNumber);
    const category = lower(scan.event.statusCategory);
    const event = carrierEvent({
      key,
      code: statusCode ?? milestone ?? 'unspecified',
      description: text(scan.event.status) ?? '',
      time: scan.time,
      timezone: scan.timezone,
      location: placeOf({ facility: text(scan.event.location), country_code: scan.country, timezone: scan.timezone }),
      extra: {
        ...(courierCode ? { courier_code: courierCode.slice(0, 100) } : {}),
        ...(milestone ? { status_milestone: milestone } : {}),
        ...(category ? { status_category: category } : {}),
        ...(found && normalizeNumber(found) !== wanted ? { event_tracking_number: found.slice(0, 60) } : {}),
      },
    });
    if (!key && phase) event.phase_key = phase;
    return event;
  });
}

/** A time Ship24 documents as UTC but writes without an offset. */
function asUtc(time: string): string {
  return /T\d{2}:\d{2}:\d{2}(\.\d+)?$/.test(time) ? `${time}Z` : time;
}

/** The courier's window (as the courier wrote it), else Ship24's estimate ("Date and Time in UTC"). */
export function mapExpectedDelivery(shipment: Ship24Shipment | undefined): ExpectedDelivery | undefined {
  const delivery = isObject(shipment?.delivery) ? shipment.delivery : null;
  if (!delivery) return undefined;
  const window = isObject(delivery.courierEstimatedDeliveryDate) ? delivery.courierEstimatedDeliveryDate : null;
  const from = fromIsoLike(text(window?.from));
  const to = fromIsoLike(text(window?.to));
  if (from || to) return { from: (from ?? to) as string, to: (to ?? from) as string };
  const estimate = fromIsoLike(text(delivery.estimatedDeliveryDate));
  return estimate ? { from: asUtc(estimate), to: asUtc(estimate) } : undefined;
}

/**
 * The courier carrying the parcel now: that of the newest event naming one, else the tracker's first courier.
 * Named from Ship24's courier list (or the adapter's table); left out while the list is unknown and the table
 * has no name, rather than showing a bare code that the list would later rename.
 */
export function carrierOfRecord(
  tracking: Ship24Tracking,
  events: readonly CarrierEvent[],
  couriers: CourierBook,
): CarrierOfRecord | undefined {
  const newest = [...events].reverse().find((event) => typeof event.additional_info.courier_code === 'string');
  let code = newest ? (newest.additional_info.courier_code as string) : null;
  if (!code && isObject(tracking.tracker)) {
    const given = tracking.tracker.courierCode;
    code = Array.isArray(given) ? (given.map(text).find((c) => c !== null) ?? null) : text(given);
  }
  if (!code || code.length > 100) return undefined;
  const name = couriers.find(code)?.name ?? (couriers.listed ? code : null);
  return name ? { name, courier_code: code, carrier_id: carrierIdOf(code) } : undefined;
}

/** One tracking → the number's result: `not_found` while Ship24 has no event for it (milestone `pending`). */
export function mapTracking(trackingNumber: string, tracking: Ship24Tracking, options: Ship24MapOptions = {}): TrackResult {
  const events = mapEvents(tracking, trackingNumber, options);
  if (events.length === 0) return { status: 'not_found', tracking_number: trackingNumber };
  const result: TrackResult = { status: 'ok', tracking_number: trackingNumber, events };
  const shipment = isObject(tracking.shipment) ? tracking.shipment : undefined;
  const expected = mapExpectedDelivery(shipment);
  if (expected) result.expected_delivery = expected;
  const courier = carrierOfRecord(tracking, events, options.couriers ?? TABLE_ONLY);
  if (courier) result.carrier_of_record = courier;
  return result;
}

/** The tracking of a results answer that is Waybill's tracker of the number (the only one, asked by its id). */
export function trackingOf(body: unknown, trackingNumber: string): Ship24Tracking | 'none' | null {
  const data = isObject(body) ? (body as Ship24ResultsBody).data : undefined;
  const list = isObject(data) ? data.trackings : undefined;
  if (!Array.isArray(list)) return null;
  const trackings = objects<Ship24Tracking>(list);
  if (trackings.length === 0) return 'none';
  const id = clientTrackerId(trackingNumber);
  return trackings.find((tracking) => isObject(tracking.tracker) && text(tracking.tracker.clientTrackerId) === id) ?? trackings[0];
}

/**
 * A results answer (`GET /trackers/{id}/results`) → the number's result; null when the body holds no trackings
 * list (the adapter reports it as unreadable).
 */
export function mapResultsBody(trackingNumber: string, body: unknown, options: Ship24MapOptions = {}): TrackResult | null {
  const tracking = trackingOf(body, trackingNumber);
  if (tracking === null) return null;
  if (tracking === 'none') return { status: 'not_found', tracking_number: trackingNumber };
  return mapTracking(trackingNumber, tracking, options);
}

/**
 * A webhook body → one update per tracking of Waybill's trackers (`clientTrackerId` made from the number), each
 * mapped like a results answer: its events are those found since the last push. Proof-of-delivery messages
 * (`tracking/pod`), trackers made outside Waybill and trackings without a readable event are acknowledged with
 * no update. A body that is not a `trackings` list is refused.
 */
export function parseShip24Push(
  body: unknown,
  options: Ship24MapOptions = {},
): { ok: true; updates: PushUpdate[] } | { ok: false; message: string } {
  const trackings = isObject(body) ? (body as Ship24WebhookBody).trackings : undefined;
  if (!Array.isArray(trackings)) return { ok: false, message: 'The body has no "trackings" list.' };
  if (trackings.length > MAX_PUSHED) return { ok: false, message: `Send at most ${MAX_PUSHED} trackings per push.` };
  const updates: PushUpdate[] = [];
  for (const tracking of objects<Ship24Tracking>(trackings)) {
    if (isObject(tracking.metadata) && text(tracking.metadata.topic) === 'tracking/pod') continue;
    const tracker = isObject(tracking.tracker) ? tracking.tracker : null;
    const number = text(tracker?.trackingNumber);
    if (!number || number.length > 60 || text(tracker?.clientTrackerId) !== clientTrackerId(number)) continue;
    const result = mapTracking(normalizeNumber(number), tracking, options);
    if (result.status === 'ok') updates.push({ tracking_number: result.tracking_number, result });
  }
  return { ok: true, updates };
}
