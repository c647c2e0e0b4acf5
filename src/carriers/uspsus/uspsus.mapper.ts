import countries from 'i18n-iso-countries';
import type { CarrierEvent, CarrierEventLocation, TrackResult } from '../carrier.js';
import type { EventKey } from '../phases.js';
import { carrierEvent, mapCode } from '../sdk/codes.js';
import type { SameAnswer } from '../sdk/known-answers.js';
import { countryAlpha2, placeOf } from '../sdk/places.js';
import { timezoneOf } from '../sdk/times.js';
import { categoryKey, USPS_CATEGORIES, USPS_CODES, USPS_NOT_TRACKABLE, USPS_NOT_YET_KNOWN } from './uspsus.codes.js';
import type { UspsErrorEntry, UspsErrorMessage, UspsTrackingDetail, UspsTrackingEvent } from './uspsus.payload.js';
import { eventTime, expectedDelivery } from './uspsus.times.js';

/** Looks codes up, most specific first; the carrier passes one that also counts unmapped codes. */
export type CodeLookup = (codes: ReadonlyArray<string | null | undefined>) => EventKey | null;

export interface UspsMapOptions {
  code?: CodeLookup;
  /** Whether a number's chosen detail is the data of the answer the caller stored (it is then not mapped). */
  unchanged?: SameAnswer;
}

const TABLE = { ...USPS_CODES, ...USPS_CATEGORIES };
const plainLookup: CodeLookup = (codes) => mapCode(TABLE, codes);

function record(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function text(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value.replace(/\s+/g, ' ').trim() : null;
}

/** Tracking numbers as USPS and our requests may write them: no spaces or dashes, upper case. */
export function normalizeNumber(value: string): string {
  return value.replace(/[\s-]+/g, '').toUpperCase();
}

/** Whether an answer's item is the one asked for: the same number, the IMpb inside a `420`+ZIP number, or the associated number. */
function answers(detail: UspsTrackingDetail, asked: string): boolean {
  const wanted = normalizeNumber(asked);
  for (const value of [detail.trackingNumber, detail.associatedTrackingNumber]) {
    const given = text(value);
    if (!given) continue;
    const number = normalizeNumber(given);
    if (number === wanted) return true;
    // A label's full barcode may carry the `420` + ZIP routing prefix USPS's answer leaves out.
    if (wanted.startsWith('420') && number.length >= 20 && wanted.endsWith(number)) return true;
  }
  return false;
}

/** USPS's description with its markup removed (`Priority Mail<SUP>&reg;</SUP>`). */
function plain(value: unknown): string | null {
  const raw = text(value);
  if (!raw) return null;
  return raw
    .replace(/<[^>]*>/g, '')
    .replace(/&(reg|#174);/gi, '®')
    .replace(/&(trade|#8482);/gi, '™')
    .replace(/&amp;/gi, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

function countryOf(event: UspsTrackingEvent): string | null {
  const raw = text(event.eventCountry);
  if (raw) {
    const code = countryAlpha2(raw) ?? countries.getAlpha2Code(raw, 'en') ?? null;
    if (code) return code;
    // USPS writes some names its own way.
    if (/^(united states|usa|u\.s\.a?\.?)$/i.test(raw)) return 'US';
    return null;
  }
  // Domestic scans leave the country out: a US state or territory code (or a ZIP Code alone) places them in the US.
  return text(event.eventState) || text(event.eventZIPCode ?? event.eventZIP) ? 'US' : null;
}

function locationOf(event: UspsTrackingEvent, country: string | null, timezone: string | null): CarrierEventLocation | null {
  const city = text(event.eventCity);
  const zip = text(event.eventZIPCode) ?? text(event.eventZIP);
  const partner = text(event.eventPartner);
  const location = placeOf({
    city,
    state_or_province: text(event.eventState),
    postal_code: zip,
    country_code: country,
    // A country USPS names in words that we cannot code is kept as the place's text.
    code: country ? null : text(event.eventCountry),
    facility: city ? null : partner,
    timezone,
  });
  // A scan with only a ZIP Code reads best as that ZIP Code.
  if (location && !city && !partner && zip) location.place = [zip, location.country_code].filter(Boolean).join(', ');
  return location;
}

/**
 * One USPS scan as our event. `category` is the item's status category, offered only for the newest scan and
 * used only when its code is not known.
 */
function mapEvent(raw: unknown, lookup: CodeLookup, category: string | null): CarrierEvent | null {
  const event = record(raw) as UspsTrackingEvent | null;
  if (!event) return null;
  const country = countryOf(event);
  const timezone = timezoneOf(country, text(event.eventState));
  const when = eventTime(event, timezone);
  if (!when) return null;
  const code = text(event.eventCode)?.toUpperCase() ?? null;
  const description = plain(event.eventType) ?? '';
  const key = lookup([code, category ? categoryKey(category) : null]);
  const extra: Record<string, unknown> = {};
  for (const [name, value] of [
    ['action_code', text(event.actionCode)],
    ['reason_code', text(event.reasonCode)],
    ['zip_code', text(event.eventZIPCode) ?? text(event.eventZIP)],
    ['partner', text(event.eventPartner)],
    ['country', text(event.eventCountry)],
    ['gmt_offset', text(event.GMTOffset)],
  ] as const) {
    if (value) extra[name] = value;
  }
  return carrierEvent({
    key,
    code: code ?? 'NONE',
    description,
    time: when.time,
    timezone: when.timezone,
    location: locationOf(event, country, when.timezone),
    extra,
  });
}

/** The tracking of one item found. */
function mapDetail(detail: UspsTrackingDetail, asked: string, lookup: CodeLookup): TrackResult {
  const list = Array.isArray(detail.trackingEvents) ? detail.trackingEvents : [];
  const category = text(detail.statusCategory);
  const events: CarrierEvent[] = [];
  list.forEach((raw, index) => {
    // USPS lists scans newest first; the item's category speaks for the newest only.
    const event = mapEvent(raw, lookup, index === 0 ? category : null);
    if (event) events.push(event);
  });
  const destinationCountry = countryAlpha2(text(detail.destinationCountry)) ?? (text(detail.destinationState) ? 'US' : null);
  const window = expectedDelivery(detail, timezoneOf(destinationCountry, text(detail.destinationState)));
  return { status: 'ok', tracking_number: asked, events, ...(window ? { expected_delivery: window } : {}) };
}

/**
 * Of several items that answer one number (USPS reuses numbers; an item with its associated number), the one
 * mailed last, then the one with the most scans.
 */
function pick(candidates: UspsTrackingDetail[]): UspsTrackingDetail {
  const scans = (d: UspsTrackingDetail) => (Array.isArray(d.trackingEvents) ? d.trackingEvents.length : 0);
  const mailed = (d: UspsTrackingDetail) => text(d.mailingDate) ?? '';
  return candidates.reduce((best, d) => (mailed(d) > mailed(best) || (mailed(d) === mailed(best) && scans(d) > scans(best)) ? d : best));
}

/** The entries of USPS's `error.errors`. */
function errorEntries(error: unknown): UspsErrorEntry[] {
  const list = record(error)?.errors;
  return Array.isArray(list) ? (list.filter((e) => record(e) !== null) as UspsErrorEntry[]) : [];
}

/** USPS's words for a failure, short. */
function errorText(error: unknown, status: string): string {
  const top = record(error);
  const parts = [text(top?.message), ...errorEntries(error).map((e) => text(e.detail) ?? text(e.title))].filter(
    (part): part is string => part !== null,
  );
  const unique = [...new Set(parts)].join(' ');
  return (plain(unique) ?? '').slice(0, 300) || `HTTP ${status}`;
}

/**
 * What a USPS failure means for a number: not known yet (`404`, or the "not yet available / may be incorrect"
 * codes), never trackable here (a non-retryable error), or a fault that may pass.
 */
export function failureResult(asked: string, status: string, error: unknown): TrackResult {
  const codes = errorEntries(error).map((e) => text(e.code));
  if (codes.some((code) => code !== null && USPS_NOT_TRACKABLE.has(code))) {
    return {
      status: 'error',
      tracking_number: asked,
      retryable: false,
      message: `USPS cannot track this number: ${errorText(error, status)}`,
    };
  }
  if (status === '404' || codes.some((code) => code !== null && USPS_NOT_YET_KNOWN.has(code))) {
    return { status: 'not_found', tracking_number: asked };
  }
  const number = Number(status);
  const retryable = !Number.isFinite(number) || number >= 500 || number === 429 || number === 408;
  return {
    status: 'error',
    tracking_number: asked,
    retryable,
    message: `USPS refused this number (${status}): ${errorText(error, status)}`,
  };
}

/**
 * Maps a USPS tracking answer (200: an array of `TrackingDetail`; 207: an array of `SuccessResponse` and
 * `FailureResponse`; Tracking 3.0's single object is read too) to one result per number asked, in that order.
 * Never throws: what cannot be read becomes a retryable error for the numbers it concerns.
 */
export function mapTrackingAnswer(body: unknown, numbers: readonly string[], options: UspsMapOptions = {}): TrackResult[] {
  const lookup = options.code ?? plainLookup;
  const items = (Array.isArray(body) ? body : record(body) ? [body] : []).map(record).filter((i) => i !== null) as UspsTrackingDetail[];
  return numbers.map((asked) => {
    const mine = items.filter((item) => answers(item, asked));
    const found = mine.filter((item) => {
      const status = text(item.statusCode);
      return (status === null || status.startsWith('2')) && item.error === undefined;
    });
    if (found.length > 0) {
      const detail = pick(found);
      return options.unchanged?.(asked, detail) ? { status: 'unchanged', tracking_number: asked } : mapDetail(detail, asked, lookup);
    }
    const failed = mine[0];
    if (failed) return failureResult(asked, text(failed.statusCode) ?? '404', failed.error);
    return { status: 'error', tracking_number: asked, retryable: true, message: 'USPS gave no answer for this number' };
  });
}

/**
 * Maps a whole-request failure USPS answered with its `ErrorMessage` (HTTP 400 or 404) to a result per number;
 * null when the body is not USPS's error shape (the caller reports it as unreadable).
 */
export function mapErrorAnswer(status: number, body: unknown, numbers: readonly string[]): TrackResult[] | null {
  const error = record((record(body) as UspsErrorMessage | null)?.error);
  if (!error) return null;
  return numbers.map((asked) => failureResult(asked, String(status), error));
}
