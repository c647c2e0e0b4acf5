import { parseEventTime } from '../../core/event-time.js';
import type { CarrierError, CarrierEvent, CarrierEventLocation, ProofOfDelivery, TrackResult } from '../carrier.js';
import type { EventKey } from '../phases.js';
import { carrierEvent, mapCode } from '../sdk/codes.js';
import { eventTimeOf } from '../sdk/http-carrier.js';
import type { SameAnswer } from '../sdk/known-answers.js';
import { elementsAt, memberOf, stringOf } from '../sdk/raw-json.js';
import type { RawEntry } from '../sdk/split-answer.js';
import { FEDEX_CODES } from './fdxglb.codes.js';
import type { FedexCompleteTrackResult, FedexScanEvent, FedexTrackResponse, FedexTrackResult } from './fdxglb.payload.js';
import { scanPlace, scanTimezone } from './fdxglb.places.js';
import { dateOfType, expectedDeliveryOf, fedexTime } from './fdxglb.times.js';

/**
 * FedEx Track API answers → our results. Pure: no I/O, no clock; never throws, whatever the JSON.
 */

/** FedEx's per-number answer for a number it does not know (inside a 200). */
export const NOT_FOUND_CODE = 'TRACKING.TRACKINGNUMBER.NOTFOUND';

/** Per-number codes that will not change by asking again. */
const PERMANENT_CODES = new Set(['TRACKING.TRACKINGNUMBER.INVALID', 'TRACKING.TRACKINGNUMBER.EMPTY']);

/** What the carrier needs to ask for a delivered piece's signature proof of delivery. */
export interface FedexProofRequest {
  trackingNumber: string;
  trackingNumberUniqueId: string | null;
  carrierCode: string | null;
  signedBy: string | null;
}

export interface FedexMapOptions {
  /** Maps codes, most specific first (the carrier counts unmapped codes); default: the table alone. */
  code?: (codes: ReadonlyArray<string | null | undefined>) => EventKey | null;
  /** The proof-of-delivery handle of a delivered piece whose signature proof FedEx lists; none without it. */
  proofOfDelivery?: (request: FedexProofRequest) => ProofOfDelivery;
  /** Whether a number's chosen piece is the data of the answer the caller stored (it is then not mapped). */
  unchanged?: SameAnswer;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.replace(/\s+/g, ' ').trim() : null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a value is a JSON object, without narrowing its declared type. */
function isPresent(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function normalize(trackingNumber: string): string {
  return trackingNumber.replace(/\s+/g, '').toUpperCase();
}

/** One scan → our event; null when its time cannot be read (the scan is then left out). `places` keeps the places of one piece's scans. */
export function mapScanEvent(
  scan: FedexScanEvent,
  options: FedexMapOptions = {},
  places?: Map<string, CarrierEventLocation | null>,
): CarrierEvent | null {
  if (!isPresent(scan)) return null;
  const time = fedexTime(scan.date);
  if (!time) return null;
  const timezone = scanTimezone(scan.scanLocation);
  const eventType = text(scan.eventType);
  const exceptionCode = text(scan.exceptionCode);
  const derived = text(scan.derivedStatusCode);
  const composite = eventType && exceptionCode ? `${eventType}:${exceptionCode}` : null;
  const codes = [composite, eventType, derived];
  const key = options.code ? options.code(codes) : mapCode(FEDEX_CODES, codes);
  const eventText = text(scan.eventDescription) ?? text(scan.derivedStatus);
  const exceptionText = text(scan.exceptionDescription);
  const description = [eventText, exceptionText && exceptionText !== eventText ? exceptionText : null].filter(Boolean).join(': ');
  const extra: Record<string, unknown> = {};
  if (derived) extra.derived_status_code = derived;
  if (exceptionCode) extra.exception_code = exceptionCode;
  if (text(scan.locationId)) extra.location_id = text(scan.locationId);
  if (text(scan.locationType)) extra.location_type = text(scan.locationType);
  const event = carrierEvent({
    key,
    code: composite ?? eventType ?? derived ?? 'unknown',
    description,
    time,
    timezone,
    location: placeOfScan(scan, places),
    extra,
  });
  // Parsed once here and kept with the event (ordering and storing read it again).
  return eventTimeOf(event).ok ? event : null;
}

/** A scan's place, made once per distinct address among one piece's scans (a facility appears at arrival and departure). */
function placeOfScan(scan: FedexScanEvent, places?: Map<string, CarrierEventLocation | null>): CarrierEventLocation | null {
  if (!places) return scanPlace(scan.scanLocation, scan.locationId);
  const address = isObject(scan.scanLocation) ? scan.scanLocation : {};
  const key = [address.city, address.stateOrProvinceCode, address.postalCode, address.countryCode, scan.locationId].join('\u0000');
  let place = places.get(key);
  if (place === undefined) {
    place = scanPlace(scan.scanLocation, scan.locationId);
    places.set(key, place);
  }
  return place;
}

function errorCodeOf(piece: FedexTrackResult): string | null {
  return isObject(piece.error) ? (text(piece.error.code) ?? 'unknown error') : null;
}

function pieceNumber(piece: FedexTrackResult): string | null {
  return isObject(piece.trackingNumberInfo) ? text(piece.trackingNumberInfo.trackingNumber) : null;
}

/** The instant of a piece's newest scan, for choosing among duplicates (older shipments reusing a number). */
function newestScan(piece: FedexTrackResult): string {
  let newest = '';
  if (!Array.isArray(piece.scanEvents)) return newest;
  for (const scan of piece.scanEvents as FedexScanEvent[]) {
    if (!isPresent(scan)) continue;
    const time = fedexTime(scan.date);
    const parsed = time ? parseEventTime(time, { timezone: scanTimezone(scan.scanLocation) }) : null;
    if (parsed?.ok && parsed.time.utc > newest) newest = parsed.time.utc;
  }
  return newest;
}

/**
 * The entry of `trackResults` that answers for `number`: among the pieces with that number (all of them when
 * none carries it), one without error, and of those the one scanned most recently (FedEx lists duplicate
 * shipments of a reused number side by side).
 */
export function pickPiece(pieces: readonly FedexTrackResult[], number: string): FedexTrackResult | null {
  const valid = pieces.filter(isObject) as FedexTrackResult[];
  if (valid.length === 0) return null;
  const matching = valid.filter((piece) => normalize(pieceNumber(piece) ?? '') === normalize(number));
  const candidates = matching.length > 0 ? matching : valid;
  const healthy = candidates.filter((piece) => errorCodeOf(piece) === null);
  if (healthy.length === 0) return candidates[0];
  if (healthy.length === 1) return healthy[0];
  let best = healthy[0];
  let bestTime = newestScan(best);
  for (const piece of healthy.slice(1)) {
    const time = newestScan(piece);
    if (time > bestTime) {
      best = piece;
      bestTime = time;
    }
  }
  return best;
}

function isDelivered(piece: FedexTrackResult, events: readonly CarrierEvent[]): boolean {
  const latest = isObject(piece.latestStatusDetail) ? piece.latestStatusDetail : {};
  if (text(latest.code) === 'DL' || text(latest.derivedCode) === 'DL') return true;
  if (dateOfType(piece, 'ACTUAL_DELIVERY')) return true;
  return events.some((event) => event.event_key === 'delivered');
}

function listsSignatureProof(piece: FedexTrackResult): boolean {
  return (
    Array.isArray(piece.availableImages) &&
    piece.availableImages.some((image) => isObject(image) && image.type === 'SIGNATURE_PROOF_OF_DELIVERY')
  );
}

/** One chosen piece → our result for the requested number. */
export function mapPiece(number: string, piece: FedexTrackResult, options: FedexMapOptions = {}): TrackResult {
  const error = errorCodeOf(piece);
  if (error === NOT_FOUND_CODE) return { status: 'not_found', tracking_number: number };
  if (error !== null) {
    const message = isObject(piece.error) ? text(piece.error.message) : null;
    return {
      status: 'error',
      tracking_number: number,
      retryable: !PERMANENT_CODES.has(error),
      message: `FedEx could not track this number (${error}${message ? `: ${message.slice(0, 200)}` : ''})`,
    };
  }
  const scans = Array.isArray(piece.scanEvents) ? (piece.scanEvents as FedexScanEvent[]) : [];
  const places = new Map<string, CarrierEventLocation | null>();
  const events = scans.map((scan) => mapScanEvent(scan, options, places)).filter((event): event is CarrierEvent => event !== null);
  const result: TrackResult = { status: 'ok', tracking_number: number, events };
  const delivered = isDelivered(piece, events);
  if (!delivered) {
    const expected = expectedDeliveryOf(piece);
    if (expected) result.expected_delivery = expected;
  }
  if (delivered && options.proofOfDelivery && listsSignatureProof(piece)) {
    const info = isObject(piece.trackingNumberInfo) ? piece.trackingNumberInfo : {};
    const details = isObject(piece.deliveryDetails) ? piece.deliveryDetails : {};
    result.proof_of_delivery = options.proofOfDelivery({
      trackingNumber: pieceNumber(piece) ?? number,
      trackingNumberUniqueId: text(info.trackingNumberUniqueId),
      carrierCode: text(info.carrierCode),
      signedBy: text(details.receivedByName) ?? text(details.signedByName),
    });
  }
  return result;
}

/** The complete result that answers for `number`: by its own number, else by a piece carrying it. */
function completeResultFor(results: readonly FedexCompleteTrackResult[], number: string): FedexCompleteTrackResult | null {
  const wanted = normalize(number);
  const direct = results.find((entry) => normalize(text(entry.trackingNumber) ?? '') === wanted);
  if (direct) return direct;
  return (
    results.find(
      (entry) =>
        Array.isArray(entry.trackResults) &&
        entry.trackResults.some((piece) => isObject(piece) && normalize(pieceNumber(piece as FedexTrackResult) ?? '') === wanted),
    ) ?? null
  );
}

/**
 * A `POST /track/v1/trackingnumbers` answer → one result per requested number FedEx answered for (numbers it
 * left out are left out here too), or null when the body is not a tracking answer at all.
 */
export function mapTrackingResponse(body: unknown, numbers: readonly string[], options: FedexMapOptions = {}): TrackResult[] | null {
  if (!isObject(body)) return null;
  const output = (body as FedexTrackResponse).output;
  if (!isObject(output) || !Array.isArray(output.completeTrackResults)) return null;
  const complete = output.completeTrackResults.filter(isObject) as FedexCompleteTrackResult[];
  const results: TrackResult[] = [];
  // By number once, not searched for each of up to 30 numbers.
  const byNumber = new Map<string, FedexCompleteTrackResult>();
  for (const entry of complete) {
    const own = normalize(text(entry.trackingNumber) ?? '');
    if (own !== '' && !byNumber.has(own)) byNumber.set(own, entry);
  }
  for (const number of numbers) {
    const entry = byNumber.get(normalize(number)) ?? completeResultFor(complete, number);
    if (!entry) continue;
    const piece = pickPiece(Array.isArray(entry.trackResults) ? (entry.trackResults as FedexTrackResult[]) : [], number);
    if (!piece) results.push({ status: 'not_found', tracking_number: number });
    else if (options.unchanged?.(number, piece)) results.push({ status: 'unchanged', tracking_number: number });
    else results.push(mapPiece(number, piece, options));
  }
  return results;
}

/**
 * The entries of a tracking answer as FedEx sent them (`output.completeTrackResults`), each with its own
 * `trackingNumber`, found in the text without parsing it; null when the text is not shaped so.
 */
export function completeResultEntries(text: string): RawEntry[] | null {
  return (
    elementsAt(text, ['output', 'completeTrackResults'])?.map((span) => ({
      number: stringOf(text, memberOf(text, span, 'trackingNumber')),
      span,
    })) ?? null
  );
}

/** A FedEx error answer's first code and message (`{"errors":[{"code":…,"message":…}]}`), for messages. */
export function errorSummary(body: unknown): string | null {
  if (!isObject(body) || !Array.isArray(body.errors)) return null;
  const first = body.errors.find(isObject);
  if (!first) return null;
  const code = text(first.code);
  const message = text(first.message);
  return [code, message].filter(Boolean).join(': ').slice(0, 200) || null;
}

/** A failure for a whole call, as data. */
export function fedexFailure(retryable: boolean, message: string): CarrierError {
  return { status: 'error', retryable, message };
}
