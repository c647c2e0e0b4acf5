import { parseEventTime } from '../../core/event-time.js';
import type { CarrierEvent, CarrierOfRecord, ExpectedDelivery, TrackResult } from '../carrier.js';
import { type EventKey, type PhaseKey, phaseOfEvent } from '../phases.js';
import type { PushUpdate } from '../push.js';
import { carrierEvent, mapCode } from '../sdk/codes.js';
import type { SameAnswer } from '../sdk/known-answers.js';
import { countryAlpha2, placeOf } from '../sdk/places.js';
import { fromIsoLike, timezoneOf } from '../sdk/times.js';
import { AFTER_PICKUP, TRK17T_CODES, TRK17T_ERRORS, TRK17T_NO_MEANING, TRK17T_PHASE_ONLY } from './trk17t.codes.js';
import { carrierIdOf, TRK17T_COURIERS } from './trk17t.couriers.js';
import {
  integer,
  isObject,
  normalizeNumber,
  objects,
  type Trk17tAccepted,
  type Trk17tAddress,
  type Trk17tEnvelope,
  type Trk17tEvent,
  type Trk17tProvider,
  type Trk17tProviderTrack,
  type Trk17tPushBody,
  type Trk17tRejected,
  type Trk17tTrackInfo,
  text,
} from './trk17t.payload.js';

/**
 * 17TRACK Tracking API v2.2 answers and pushes → our results. Pure: no I/O, no clock; any JSON maps without
 * throwing.
 */

/** Our event key of a list of codes, most specific first (the adapter counts codes its table lacks). */
export type CodeMapper = (codes: ReadonlyArray<string | null | undefined>) => EventKey | null;

export interface Trk17tMapOptions {
  eventKeyOf?: CodeMapper;
}

const plainMapper: CodeMapper = (codes) => mapCode(TRK17T_CODES, codes);

/** Events read from one number's tracking, within reason. */
const MAX_EVENTS = 500;

/** A refusal of one number: 17TRACK's error code and its words. */
export interface Refusal {
  code: number | null;
  message: string | null;
}

/** An envelope as read: the request's `code`, and each number's entries or refusal, by number as asked. */
export interface Envelope {
  code: number | null;
  accepted: Map<string, Trk17tAccepted[]>;
  rejected: Map<string, Refusal>;
}

/** Reads `{ code, data: { accepted, rejected } }`, matching numbers to those asked; null when the body is not one. */
export function readEnvelope(body: unknown, numbers: readonly string[]): Envelope | null {
  if (!isObject(body)) return null;
  const envelope = body as Trk17tEnvelope;
  const code = integer(envelope.code);
  const data = isObject(envelope.data) ? envelope.data : null;
  if (code === null && !data) return null;
  const asked = new Map(numbers.map((n) => [normalizeNumber(n), n]));
  const accepted = new Map<string, Trk17tAccepted[]>();
  const rejected = new Map<string, Refusal>();
  for (const entry of objects<Trk17tAccepted>(data?.accepted)) {
    const number = asked.get(normalizeNumber(text(entry.number) ?? ''));
    if (number !== undefined) accepted.set(number, [...(accepted.get(number) ?? []), entry]);
  }
  for (const entry of objects<Trk17tRejected>(data?.rejected)) {
    const number = asked.get(normalizeNumber(text(entry.number) ?? ''));
    if (number === undefined || rejected.has(number)) continue;
    const error = isObject(entry.error) ? entry.error : {};
    rejected.set(number, { code: integer(error.code), message: text(error.message)?.slice(0, 200) ?? null });
  }
  return { code, accepted, rejected };
}

/** The entry that answers for a number: the one with the most events when 17TRACK tracks it with several carriers. */
export function chosenEntry(entries: readonly Trk17tAccepted[]): Trk17tAccepted | undefined {
  let best: Trk17tAccepted | undefined;
  let most = -1;
  for (const entry of entries) {
    const count = providersOf(entry).reduce((sum, track) => sum + objects(track.events).length, 0);
    if (count > most) {
      best = entry;
      most = count;
    }
  }
  return best;
}

function trackInfoOf(entry: Trk17tAccepted): Trk17tTrackInfo | null {
  return isObject(entry) && isObject(entry.track_info) ? (entry.track_info as Trk17tTrackInfo) : null;
}

function providersOf(entry: Trk17tAccepted): Trk17tProviderTrack[] {
  const tracking = trackInfoOf(entry)?.tracking;
  return isObject(tracking) ? objects<Trk17tProviderTrack>(tracking.providers) : [];
}

interface Scan {
  event: Trk17tEvent;
  time: string;
  timezone: string | null;
  utc: string;
  country: string | null;
  providerKey: string | null;
  /** Position across the providers' lists (each newest first). */
  index: number;
}

/** An event's time: its local time with offset, else its UTC time; with the timezone of its country where known. */
function readScan(event: Trk17tEvent, index: number, provider: Trk17tProvider | null): Scan | null {
  const address = isObject(event.address) ? (event.address as Trk17tAddress) : null;
  // The event's own country only: a courier's country says nothing of where an express parcel is.
  const country = countryAlpha2(text(address?.country));
  const zone = country ? timezoneOf(country, text(address?.state), { mainland: true }) : null;
  const local = fromIsoLike(text(event.time_iso));
  const utc = fromIsoLike(text(event.time_utc));
  const withOffset = (time: string | null) => time !== null && /(?:Z|[+-]\d{2}:\d{2})$/.test(time);
  let time: string | null = null;
  if (withOffset(local)) time = local;
  else if (utc && utc.length > 10) time = withOffset(utc) ? utc : `${utc}Z`;
  else time = local;
  if (time === null) return null;
  const parsed = parseEventTime(time, { timezone: zone });
  if (!parsed.ok) return null;
  return { event, time, timezone: zone, utc: parsed.time.utc, country, providerKey: text(provider?.key), index };
}

/** What the events before this one tell about it: the parcel waits at a pick-up point (its delivery is a collection). */
interface Course {
  atPickup: boolean;
}

/** An event's key and phase: its composite, sub-status and stage codes in turn; phase-only codes give the phase alone. */
function classify(
  subStatus: string | null,
  stage: string | null,
  course: Course,
  eventKeyOf: CodeMapper,
): { key: EventKey | null; phase: PhaseKey | null } {
  const own = subStatus && !TRK17T_NO_MEANING.includes(subStatus) ? subStatus : null;
  if (own && TRK17T_PHASE_ONLY[own]) return { key: null, phase: TRK17T_PHASE_ONLY[own] };
  const codes: string[] = [];
  for (const code of [own, stage]) {
    if (!code) continue;
    if (course.atPickup && (code === 'Delivered_Other' || code === 'Delivered')) codes.push(`${code}${AFTER_PICKUP}`);
    codes.push(code);
  }
  const key = codes.length > 0 ? eventKeyOf(codes) : null;
  if (key) return { key, phase: phaseOfEvent(key) };
  return { key: null, phase: stage ? (TRK17T_PHASE_ONLY[stage] ?? null) : null };
}

/** The events of one number, every carrier's of its journey merged, oldest first. */
export function mapEvents(entry: Trk17tAccepted, options: Trk17tMapOptions = {}): CarrierEvent[] {
  const eventKeyOf = options.eventKeyOf ?? plainMapper;
  const providers = providersOf(entry);
  const scans: Scan[] = [];
  let index = 0;
  for (const track of providers) {
    const provider = isObject(track.provider) ? (track.provider as Trk17tProvider) : null;
    for (const event of objects<Trk17tEvent>(track.events)) {
      if (index >= MAX_EVENTS) break;
      const scan = readScan(event, index++, provider);
      if (scan) scans.push(scan);
    }
  }
  // Oldest first; at one instant, the list's order reversed (17TRACK lists newest first).
  scans.sort((a, b) => (a.utc !== b.utc ? (a.utc < b.utc ? -1 : 1) : b.index - a.index));
  const several = new Set(scans.map((scan) => scan.providerKey)).size > 1;
  const course: Course = { atPickup: false };
  return scans.map((scan) => {
    const subStatus = text(scan.event.sub_status)?.slice(0, 60) ?? null;
    const stage = text(scan.event.stage)?.slice(0, 60) ?? null;
    const { key, phase } = classify(subStatus, stage, course, eventKeyOf);
    if (key === 'available_for_pickup') course.atPickup = true;
    if (key === 'out_for_delivery' || key === 'collected_by_recipient') course.atPickup = false;
    const address = isObject(scan.event.address) ? (scan.event.address as Trk17tAddress) : {};
    const coordinates = isObject(address.coordinates) ? address.coordinates : {};
    const city = text(address.city);
    const location = text(scan.event.location);
    const event = carrierEvent({
      key,
      code: subStatus ?? stage ?? 'unspecified',
      description: text(scan.event.description) ?? '',
      time: scan.time,
      timezone: scan.timezone,
      location: placeOf({
        city,
        facility: city ? null : location,
        state_or_province: text(address.state),
        postal_code: text(address.postal_code),
        country_code: scan.country,
        timezone: scan.timezone,
        latitude: typeof coordinates.latitude === 'number' ? coordinates.latitude : null,
        longitude: typeof coordinates.longitude === 'number' ? coordinates.longitude : null,
        location_type: key === 'available_for_pickup' ? 'pickup_point' : null,
      }),
      extra: {
        ...(stage ? { stage } : {}),
        ...(several && scan.providerKey ? { courier_code: scan.providerKey.slice(0, 20) } : {}),
        ...(location && city ? { carrier_location: location.slice(0, 200) } : {}),
      },
    });
    if (!key && phase) event.phase_key = phase;
    return event;
  });
}

/** 17TRACK's delivery estimate (`time_metrics.estimated_delivery_date`), until the number is delivered. */
export function mapExpectedDelivery(info: Trk17tTrackInfo): ExpectedDelivery | undefined {
  const latest = isObject(info.latest_status) ? info.latest_status : {};
  if (text(latest.status) === 'Delivered') return undefined;
  const metrics = isObject(info.time_metrics) ? info.time_metrics : {};
  const window = isObject(metrics.estimated_delivery_date) ? metrics.estimated_delivery_date : {};
  const from = fromIsoLike(text(window.from));
  const to = fromIsoLike(text(window.to));
  if (!from && !to) return undefined;
  const start = (from ?? to) as string;
  const end = (to ?? from) as string;
  const a = parseEventTime(start);
  const b = parseEventTime(end);
  if (!a.ok || !b.ok || a.time.utc > b.time.utc) return undefined;
  return { from: start, to: end };
}

/**
 * The carrier 17TRACK tracks the number with (the entry's `carrier`, else its first provider's): named as the
 * answer names it, else as 17TRACK's carrier list does, with Waybill's id where Waybill has the carrier.
 */
export function carrierOfRecord(entry: Trk17tAccepted): CarrierOfRecord | undefined {
  const providers = providersOf(entry)
    .map((track) => (isObject(track.provider) ? (track.provider as Trk17tProvider) : null))
    .filter((provider): provider is Trk17tProvider => provider !== null);
  const key = text(integer(isObject(entry) ? entry.carrier : null) ?? undefined) ?? text(integer(providers[0]?.key) ?? undefined);
  if (!key || key === '0') return undefined;
  const named = providers.find((provider) => text(provider.key) === key);
  const name = text(named?.name)?.slice(0, 150) ?? TRK17T_COURIERS[key]?.name ?? null;
  return name ? { name, courier_code: key, carrier_id: carrierIdOf(key) } : undefined;
}

/** One number's entry → its result: `not_found` while 17TRACK has no event for it. */
export function mapEntry(trackingNumber: string, entry: Trk17tAccepted, options: Trk17tMapOptions = {}): TrackResult {
  const info = trackInfoOf(entry);
  const events = info ? mapEvents(entry, options) : [];
  if (!info || events.length === 0) return { status: 'not_found', tracking_number: trackingNumber };
  const result: TrackResult = { status: 'ok', tracking_number: trackingNumber, events };
  const expected = mapExpectedDelivery(info);
  if (expected) result.expected_delivery = expected;
  const courier = carrierOfRecord(entry);
  if (courier) result.carrier_of_record = courier;
  return result;
}

/**
 * A `gettrackinfo` answer → the result of each number it answers, with the numbers 17TRACK does not know
 * (`-18019902`) left for the adapter to register; null when the body is not 17TRACK's envelope.
 */
export function mapTrackInfo(
  body: unknown,
  numbers: readonly string[],
  options: Trk17tMapOptions & { unchanged?: SameAnswer } = {},
): { results: TrackResult[]; unregistered: string[]; refused: Map<string, Refusal>; code: number | null } | null {
  const envelope = readEnvelope(body, numbers);
  if (!envelope) return null;
  const results: TrackResult[] = [];
  const unregistered: string[] = [];
  const refused = new Map<string, Refusal>();
  for (const number of numbers) {
    const entry = chosenEntry(envelope.accepted.get(number) ?? []);
    if (entry) {
      results.push(
        options.unchanged?.(number, entry) ? { status: 'unchanged', tracking_number: number } : mapEntry(number, entry, options),
      );
      continue;
    }
    const refusal = envelope.rejected.get(number);
    if (!refusal) continue;
    if (refusal.code === TRK17T_ERRORS.notRegistered) unregistered.push(number);
    else if (refusal.code === TRK17T_ERRORS.noInfoYet) results.push({ status: 'not_found', tracking_number: number });
    else refused.set(number, refusal);
  }
  return { results, unregistered, refused, code: envelope.code };
}

/**
 * A push → its updates. `TRACKING_UPDATED` carries one number's tracking information, mapped like a
 * `gettrackinfo` entry; `TRACKING_STOPPED` (17TRACK stopped tracking the number) and events 17TRACK may add are
 * acknowledged with no update. A body without an event is refused.
 */
export function parseTrk17tPush(
  body: unknown,
  options: Trk17tMapOptions = {},
): { ok: true; updates: PushUpdate[] } | { ok: false; message: string } {
  const push = isObject(body) ? (body as Trk17tPushBody) : null;
  const event = text(push?.event);
  if (!push || !event) return { ok: false, message: 'The body is not a 17TRACK push: it has no "event".' };
  if (event !== 'TRACKING_UPDATED') return { ok: true, updates: [] };
  const entries = Array.isArray(push.data) ? objects<Trk17tAccepted>(push.data) : isObject(push.data) ? [push.data as Trk17tAccepted] : [];
  if (entries.length === 0) return { ok: false, message: 'A TRACKING_UPDATED push needs its "data".' };
  if (entries.length > 100) return { ok: false, message: 'Send at most 100 numbers per push.' };
  const updates: PushUpdate[] = [];
  for (const entry of entries) {
    const number = text(entry.number);
    if (!number || number.length > 60) continue;
    const result = mapEntry(normalizeNumber(number), entry, options);
    if (result.status === 'ok') updates.push({ tracking_number: result.tracking_number, result });
  }
  return { ok: true, updates };
}
