import countries from 'i18n-iso-countries';
import { parseEventTime } from '../../core/event-time.js';
import type { CarrierError, CarrierEvent, CarrierEventLocation, ExpectedDelivery, ProofOfDelivery, TrackResult } from '../carrier.js';
import type { EventKey } from '../phases.js';
import { carrierEvent, mapCode } from '../sdk/codes.js';
import { placeOf } from '../sdk/places.js';
import { composeDateTime, timezoneOf } from '../sdk/times.js';
import { CANPOS_CODES, codeKey } from './canpos.codes.js';
import { listOf, objectOf, textOf } from './canpos.payload.js';

/**
 * Canada Post Tracking answers (parsed XML, see canpos.payload.ts) → our results. Pure: no I/O and no clock; the
 * same body always maps to the same result, and no input makes it throw.
 */

export interface CanposMapOptions {
  /** Maps codes to an event key, most specific first (the carrier counts unmapped codes through it). */
  code?: (codes: ReadonlyArray<string | null | undefined>) => EventKey | null;
  /** Builds the delivery confirmation download for a delivered parcel; without it no proof of delivery is offered. */
  proofOfDelivery?: (pin: string) => ProofOfDelivery;
}

/** The message code Canada Post answers for a PIN it has no scans for ("No PIN History"). */
export const NO_PIN_HISTORY = '004';

/**
 * North American zone abbreviations as Canada Post writes `event-time-zone` (`EST` in its sample): each stands for
 * one offset. Other values (a place name, empty) give no offset.
 */
const ZONE_OFFSETS: Readonly<Record<string, string>> = {
  NST: '-03:30',
  NDT: '-02:30',
  AST: '-04:00',
  ADT: '-03:00',
  EST: '-05:00',
  EDT: '-04:00',
  CST: '-06:00',
  CDT: '-05:00',
  MST: '-07:00',
  MDT: '-06:00',
  PST: '-08:00',
  PDT: '-07:00',
};

/**
 * Provinces and territories wholly in one timezone, which places a scan whose zone is not given as an offset.
 * Ontario, Quebec, British Columbia, Saskatchewan, Newfoundland and Labrador and Nunavut each span more than one.
 */
const PROVINCE_ZONES: Readonly<Record<string, string>> = {
  AB: 'America/Edmonton',
  MB: 'America/Winnipeg',
  NB: 'America/Moncton',
  NS: 'America/Halifax',
  PE: 'America/Halifax',
  NT: 'America/Edmonton',
  YT: 'America/Whitehorse',
};

const PROVINCES = new Set(['AB', 'BC', 'MB', 'NB', 'NL', 'NS', 'NT', 'NU', 'ON', 'PE', 'QC', 'SK', 'YT']);

interface Scan {
  identifier: string;
  time: string;
  timezone: string | null;
  place: CarrierEventLocation | null;
  occurrence: Record<string, unknown>;
}

/**
 * The scan's time as `parseEventTime` reads it: with the offset its zone abbreviation names; else as written, with
 * the timezone of its province (where the province has one) or of its country (where the country has one).
 */
function scanTime(
  occurrence: Record<string, unknown>,
  place: CarrierEventLocation | null,
): { time: string; timezone: string | null } | null {
  const zone = textOf(occurrence['event-time-zone'])?.toUpperCase() ?? null;
  const offset = zone ? (ZONE_OFFSETS[zone] ?? null) : null;
  const time = composeDateTime(textOf(occurrence['event-date']), textOf(occurrence['event-time']), offset);
  if (!time) return null;
  const province = textOf(occurrence['event-province'])?.toUpperCase() ?? null;
  const timezone = offset
    ? null
    : (province && PROVINCE_ZONES[province]) || timezoneOf(place?.country_code ?? null, null, { mainland: true });
  if (!parseEventTime(time, { timezone }).ok) return null;
  return { time, timezone };
}

/**
 * Where a scan happened. Canadian scans give a city and a province; a scan at a post office also its name and
 * number (`event-retail-name`, `event-retail-location-id`); international scans an office or postal code and a
 * country's name (`ILTLVA,Israel`, `02650,Israel`).
 */
export function scanPlace(occurrence: Record<string, unknown>): CarrierEventLocation | null {
  const site = textOf(occurrence['event-site']);
  const province = textOf(occurrence['event-province'])?.toUpperCase() ?? null;
  const retail = textOf(occurrence['event-retail-name']);
  const facility = retail ? { facility: retail, location_type: 'post_office' } : {};
  if (province && PROVINCES.has(province)) {
    return placeOf({ ...facility, city: site, state_or_province: province, country_code: 'CA' });
  }
  const [first, ...rest] = (site ?? '').split(',').map((part) => part.trim());
  const country = rest.length > 0 ? (countries.getAlpha2Code(rest.join(','), 'en') ?? null) : null;
  if (country) {
    if (/^\d[\d\s-]*$/.test(first)) return placeOf({ ...facility, postal_code: first, country_code: country });
    if (/^[A-Z]{5,6}$/.test(first) && first.startsWith(country)) {
      return placeOf({ ...facility, code: first, country_code: country });
    }
    return placeOf({ ...facility, city: first || null, country_code: country });
  }
  return placeOf({ ...facility, city: site });
}

/** The scans of a detail answer, in Canada Post's order (newest first), those without a readable time left out. */
function scansOf(detail: Record<string, unknown>): Scan[] {
  const scans: Scan[] = [];
  for (const occurrence of listOf(objectOf(detail['significant-events'])?.occurrence)) {
    const identifier = textOf(occurrence['event-identifier']);
    const place = scanPlace(occurrence);
    const when = scanTime(occurrence, place);
    if (!identifier || !when) continue;
    scans.push({ identifier, ...when, place, occurrence });
  }
  return scans;
}

/** The events of a detail answer, oldest first (Canada Post lists them newest first; scans at one instant keep their order). */
export function mapEvents(detail: Record<string, unknown>, code: NonNullable<CanposMapOptions['code']>): CarrierEvent[] {
  return scansOf(detail)
    .reverse()
    .map((scan) => {
      const extra: Record<string, unknown> = {};
      const zone = textOf(scan.occurrence['event-time-zone']);
      if (zone) extra.event_time_zone = zone;
      const retailId = textOf(scan.occurrence['event-retail-location-id']);
      if (retailId) extra.retail_location_id = retailId;
      const signatory = textOf(scan.occurrence['signatory-name']);
      if (signatory) extra.signatory_name = signatory;
      return carrierEvent({
        key: code([codeKey(scan.identifier)]),
        code: scan.identifier,
        description: textOf(scan.occurrence['event-description']) ?? '',
        time: scan.time,
        timezone: scan.timezone,
        location: scan.place,
        extra,
      });
    });
}

/** The expected day: the changed date when Canada Post moved it, else the first expected date. */
export function mapExpectedDelivery(detail: Record<string, unknown>): ExpectedDelivery | undefined {
  for (const field of ['changed-expected-date', 'expected-delivery-date']) {
    const date = composeDateTime(textOf(detail[field]));
    if (date && date.length === 10 && parseEventTime(date).ok) return { from: date, to: date };
  }
  return undefined;
}

/** Who signed, from the newest scan that names a signatory. */
function signatoryOf(detail: Record<string, unknown>): string | null {
  for (const occurrence of listOf(objectOf(detail['significant-events'])?.occurrence)) {
    const name = textOf(occurrence['signatory-name']);
    if (name) return name;
  }
  return null;
}

/** The messages of an error answer (`<messages>`), each `code: description`. */
export function messagesOf(root: Record<string, unknown> | null): Array<{ code: string | null; description: string | null }> {
  return listOf(objectOf(root?.messages)?.message).map((m) => ({ code: textOf(m.code), description: textOf(m.description) }));
}

export function messagesText(root: Record<string, unknown> | null): string {
  return messagesOf(root)
    .map((m) => [m.code, m.description].filter(Boolean).join(': '))
    .filter(Boolean)
    .join('; ')
    .slice(0, 200);
}

function failure(message: string, retryable: boolean): CarrierError {
  return { status: 'error', retryable, message };
}

/**
 * A tracking detail answer → the result for one PIN: its scans, expected day and (delivered) proof of delivery;
 * `not_found` for Canada Post's "No PIN History" message; an error for other messages or a body that is neither.
 */
export function mapDetailBody(trackingNumber: string, body: unknown, options: CanposMapOptions = {}): TrackResult {
  const root = objectOf(body);
  const detail = objectOf(root?.['tracking-detail']);
  if (!detail) {
    const messages = messagesOf(root);
    if (messages.some((m) => m.code === NO_PIN_HISTORY)) return { status: 'not_found', tracking_number: trackingNumber };
    if (messages.length > 0) {
      return { tracking_number: trackingNumber, ...failure(`Canada Post answered ${messagesText(root)}`, false) };
    }
    return { tracking_number: trackingNumber, ...failure('Canada Post answer holds no tracking detail', true) };
  }
  const code = options.code ?? ((codes) => mapCode(CANPOS_CODES, codes));
  const events = mapEvents(detail, code);
  const result: TrackResult = { status: 'ok', tracking_number: trackingNumber, events };
  const expected = mapExpectedDelivery(detail);
  if (expected) result.expected_delivery = expected;
  if (options.proofOfDelivery && events.some((e) => e.phase_key === 'delivered')) {
    const proof = options.proofOfDelivery(textOf(detail.pin) ?? trackingNumber);
    const signedBy = signatoryOf(detail);
    if (signedBy) proof.signed_by = signedBy;
    result.proof_of_delivery = proof;
  }
  return result;
}
