import { offsetAt, parseEventTime, toLocalDateTime } from '../../core/event-time.js';
import type { CarrierError, CarrierEvent, ExpectedDelivery, ProofOfDelivery, TrackResult } from '../carrier.js';
import type { EventKey } from '../phases.js';
import { carrierEvent, mapCode } from '../sdk/codes.js';
import { normalize } from '../sdk/known-answers.js';
import { placeOf } from '../sdk/places.js';
import { composeDateTime, fromIsoLike, normalizeOffset } from '../sdk/times.js';
import { ROYALM_CODES, ROYALM_PICKUP_CODES } from './royalm.codes.js';
import { errorOf, type Json, listOf, objectOf, textOf, UNKNOWN_BARCODE } from './royalm.payload.js';

/**
 * Royal Mail Tracking API v2 answers → our results. Pure: no I/O and no clock; the same body always maps to the
 * same result, and no JSON makes it throw.
 */

/** Royal Mail's home timezone: places a time without offset, and names the zone of UK events. */
export const ROYALM_TIMEZONE = 'Europe/London';

/** Maps codes to an event key (the carrier passes one that counts unmapped codes). */
export type CodeMapper = (codes: ReadonlyArray<string | null | undefined>) => EventKey | null;

/** Who signed for a mail piece, and the stable reference of that signature. */
export interface SignatureNotice {
  reference: string;
  signedBy: string | null;
}

export interface RoyalmMapOptions {
  code?: CodeMapper;
  /** Builds the signature download of a mail piece (asked by `mailPieceId`); without it no proof is offered. */
  proofOfDelivery?: (mailPieceId: string, notice: SignatureNotice) => ProofOfDelivery;
}

const defaultCode: CodeMapper = (codes) => mapCode(ROYALM_CODES, codes);

function failure(trackingNumber: string, retryable: boolean, message: string): CarrierError & { tracking_number: string } {
  return { status: 'error', tracking_number: trackingNumber, retryable, message };
}

/** A Royal Mail date-time (ISO 8601, `±hh:mm`, `±hhmm` or `Z`) as `parseEventTime` reads it; null otherwise. */
export function royalmTime(value: unknown): string | null {
  const text = textOf(value);
  return text ? fromIsoLike(text) : null;
}

/**
 * The zone to show beside an event time: London when the time has no offset (Royal Mail's times have one, but
 * a UK carrier's bare time is UK time) or when its offset is London's at that instant; none for times abroad.
 */
export function zoneOf(time: string): string | null {
  const parsed = parseEventTime(time, { timezone: ROYALM_TIMEZONE });
  if (!parsed.ok) return null;
  if (parsed.time.offset === null) return ROYALM_TIMEZONE;
  const written = parsed.time.offset === 'Z' ? 0 : offsetMinutes(parsed.time.offset);
  return written === offsetAt(Date.parse(parsed.time.utc), ROYALM_TIMEZONE) ? ROYALM_TIMEZONE : null;
}

function offsetMinutes(offset: string): number {
  const sign = offset.startsWith('-') ? -1 : 1;
  return sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)));
}

/** Whether the item travels inside the UK, so that every place it is scanned is in the UK. */
function isDomestic(summary: Json | null): boolean {
  const origin = textOf(summary?.originCountryCode)?.toUpperCase();
  const destination = textOf(summary?.destinationCountryCode)?.toUpperCase();
  return (origin === 'GBR' || origin === 'GB') && (destination === 'GBR' || destination === 'GB');
}

/** The events of a mail piece (Royal Mail lists them newest first; the adapter base orders them). */
export function mapEvents(piece: Json, code: CodeMapper = defaultCode): CarrierEvent[] {
  const domestic = isDomestic(objectOf(piece.summary));
  const events: CarrierEvent[] = [];
  for (const item of listOf(piece.events)) {
    const eventCode = textOf(item.eventCode)?.toUpperCase().slice(0, 20) ?? null;
    const time = royalmTime(item.eventDateTime);
    // An event without a code or a readable time cannot be keyed or de-duplicated: it is left out.
    if (!eventCode || !time || !parseEventTime(time, { timezone: ROYALM_TIMEZONE }).ok) continue;
    const locationName = textOf(item.locationName)?.slice(0, 200) ?? null;
    const pickup = ROYALM_PICKUP_CODES.includes(eventCode);
    const timezone = zoneOf(time);
    events.push(
      carrierEvent({
        key: code([eventCode]),
        code: eventCode,
        description: textOf(item.eventName) ?? eventCode,
        time,
        timezone,
        location: placeOf({
          facility: locationName,
          country_code: domestic && locationName ? 'GB' : null,
          timezone: domestic && locationName ? ROYALM_TIMEZONE : null,
          location_type: pickup && locationName ? 'pickup_point' : null,
        }),
        extra: locationName ? { location_name: locationName } : {},
      }),
    );
  }
  return events;
}

/** `hh:mm[:ss]` with an optional offset, or a whole ISO date-time: the window's end on `date`. */
function windowEnd(date: string, value: unknown): string | null {
  const text = textOf(value);
  if (!text) return null;
  if (/^\d{4}-\d{2}-\d{2}T/.test(text)) return fromIsoLike(text);
  const match = /^(\d{2}:\d{2}(?::\d{2})?)(Z|[+-]\d{2}:?\d{2})?$/.exec(text);
  if (!match) return null;
  const composed = composeDateTime(date, match[1], match[2] ? normalizeOffset(match[2]) : null);
  if (!composed || match[2]) return composed;
  // A window without offset is London time: written with London's offset then, as a window has no zone beside it.
  const parsed = parseEventTime(composed, { timezone: ROYALM_TIMEZONE });
  if (!parsed.ok) return null;
  const local = toLocalDateTime(Date.parse(parsed.time.utc), ROYALM_TIMEZONE);
  return `${local.date}T${local.time}${local.offset}`;
}

/** `estimatedDelivery`: its window when both ends read and are in order, else its day. */
export function mapExpectedDelivery(piece: Json): ExpectedDelivery | undefined {
  const estimate = objectOf(piece.estimatedDelivery);
  const date = royalmTime(estimate?.date)?.slice(0, 10) ?? null;
  if (!estimate || !date || !parseEventTime(date).ok) return undefined;
  const from = windowEnd(date, estimate.startOfEstimatedWindow);
  const to = windowEnd(date, estimate.endOfEstimatedWindow);
  if (from && to) {
    const start = parseEventTime(from, { timezone: ROYALM_TIMEZONE });
    const end = parseEventTime(to, { timezone: ROYALM_TIMEZONE });
    if (start.ok && end.ok && start.time.utc <= end.time.utc) return { from, to };
  }
  return { from: date, to: date };
}

/** The signature Royal Mail holds for the piece: its metadata in the events answer, or its link once delivered. */
export function signatureNotice(piece: Json, events: readonly CarrierEvent[], trackingNumber: string): SignatureNotice | null {
  const signature = objectOf(piece.signature);
  const imageId = textOf(signature?.imageId);
  const signedAt = textOf(signature?.signatureDateTime);
  const signedBy = textOf(signature?.recipientName)?.slice(0, 100) ?? null;
  const linked = textOf(objectOf(objectOf(piece.links)?.signature)?.href) !== null;
  const delivered = events.some((event) => event.phase_key === 'delivered');
  if (!imageId && !signedAt && !signedBy && !(linked && delivered)) return null;
  const id = textOf(piece.mailPieceId) ?? trackingNumber;
  return { reference: `signature:${normalize(id)}:${imageId ?? signedAt ?? 'linked'}`, signedBy };
}

/** The mail piece of an events answer → the result for the number asked. */
export function mapMailPiece(trackingNumber: string, piece: Json, options: RoyalmMapOptions = {}): TrackResult {
  const events = mapEvents(piece, options.code ?? defaultCode);
  const result: TrackResult = { status: 'ok', tracking_number: trackingNumber, events };
  const expected = mapExpectedDelivery(piece);
  if (expected) result.expected_delivery = expected;
  const notice = options.proofOfDelivery ? signatureNotice(piece, events, trackingNumber) : null;
  if (notice && options.proofOfDelivery) {
    const proof = options.proofOfDelivery(trackingNumber, notice);
    if (notice.signedBy) proof.signed_by = notice.signedBy;
    result.proof_of_delivery = proof;
  }
  return result;
}

/**
 * An events answer → the result for one number: its history for a 200 with a mail piece; `not_found` for
 * Royal Mail's unknown barcode (`E1142`, answered with 400 or 404) and any 404; an error otherwise, retryable
 * only for a 200 that holds no mail piece (a proxy's page, a truncated body).
 */
export function mapEventsAnswer(trackingNumber: string, status: number, body: unknown, options: RoyalmMapOptions = {}): TrackResult {
  const piece = objectOf(objectOf(body)?.mailPieces);
  const error = errorOf(body);
  if (status >= 200 && status < 300 && piece) return mapMailPiece(trackingNumber, piece, options);
  if (status === 404 || error?.code === UNKNOWN_BARCODE) return { status: 'not_found', tracking_number: trackingNumber };
  if (status >= 200 && status < 300) return failure(trackingNumber, true, 'Royal Mail answer holds no mail piece');
  const said = error?.text ?? textOf(objectOf(body)?.moreInformation) ?? textOf(objectOf(body)?.httpMessage);
  return failure(trackingNumber, status >= 500, `Royal Mail refused the request (HTTP ${status})${said ? `: ${said.slice(0, 200)}` : ''}`);
}

/** What a summary answer says of one number. */
export type SummaryVerdict =
  /** Royal Mail has a summary: its entry decides whether the history is fetched again. */
  | { kind: 'found'; entry: Json }
  /** Royal Mail answered for the number without a summary (unknown barcode, an error for it). */
  | { kind: 'answered'; result: TrackResult }
  /** No entry for the number: its history is asked for directly. */
  | { kind: 'missing' };

/** The numbers an entry answers for: the one asked, and its 1D and 2D barcodes. */
function entryNumbers(entry: Json): string[] {
  const summary = objectOf(entry.summary);
  return [entry.mailPieceId, summary?.oneDBarcode, summary?.uniqueItemId].map(textOf).filter((n): n is string => n !== null);
}

/**
 * A summary answer (any status; an error answer lists `mailPieceId` and `status` per number too) → a verdict
 * per number asked. Null when the body lists no mail pieces at all: the caller reports the answer.
 */
export function readSummary(body: unknown, numbers: readonly string[]): Map<string, SummaryVerdict> | null {
  const root = objectOf(body);
  if (!root || !Array.isArray(root.mailPieces)) return null;
  const entries = listOf(root.mailPieces);
  const verdicts = new Map<string, SummaryVerdict>();
  for (const number of numbers) {
    const wanted = normalize(number);
    const entry = entries.find((e) => entryNumbers(e).some((n) => normalize(n) === wanted));
    verdicts.set(number, entry ? verdictOf(number, entry) : { kind: 'missing' });
  }
  return verdicts;
}

function verdictOf(trackingNumber: string, entry: Json): SummaryVerdict {
  const statusText = textOf(entry.status);
  const status = statusText && /^\d{3}$/.test(statusText) ? Number(statusText) : null;
  const error = errorOf(entry);
  if (status === 404 || error?.code === UNKNOWN_BARCODE)
    return { kind: 'answered', result: { status: 'not_found', tracking_number: trackingNumber } };
  if ((status === null || (status >= 200 && status < 300)) && objectOf(entry.summary) && !error) return { kind: 'found', entry };
  if (status !== null && status >= 400) {
    const said = error ? `: ${error.text}` : '';
    return { kind: 'answered', result: failure(trackingNumber, status >= 500, `Royal Mail answered ${status} for this number${said}`) };
  }
  return { kind: 'missing' };
}
