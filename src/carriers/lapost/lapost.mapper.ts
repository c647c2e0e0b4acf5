import { parseEventTime } from '../../core/event-time.js';
import type { CarrierEvent, ExpectedDelivery, TrackResult } from '../carrier.js';
import type { EventKey } from '../phases.js';
import { carrierEvent, mapCode } from '../sdk/codes.js';
import type { SameAnswer } from '../sdk/known-answers.js';
import { countryAlpha2, placeOf } from '../sdk/places.js';
import { elementsAt, memberOf, type Span, stringOf, wholeOf } from '../sdk/raw-json.js';
import type { RawEntry } from '../sdk/split-answer.js';
import { fromIsoLike, timezoneOf } from '../sdk/times.js';
import { COUNTRY_OF_CODE, LAPOSTE_CODES } from './lapost.codes.js';

/**
 * La Poste Suivi v2 answers → our results. Pure: no I/O, no clock; any JSON maps without throwing.
 */

/** Maps a code (composite first) to an event key; the carrier passes one that counts unmapped codes. */
export type CodeMapper = (codes: ReadonlyArray<string | null | undefined>) => EventKey | null;

/** La Poste's home timezone: places a time that comes without an offset when its country is not known. */
export const LAPOSTE_HOME_ZONE = 'Europe/Paris';

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.replace(/\s+/g, ' ').trim();
  return trimmed === '' ? null : trimmed;
}

function normalize(number: string): string {
  return number.replace(/\s+/g, '').toUpperCase();
}

/** `returnCode` as a number (La Poste sends an integer; a numeric string is read too). */
function returnCodeOf(envelope: Json): number | null {
  const value = envelope.returnCode;
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^\d{3}$/.test(value.trim())) return Number(value.trim());
  return null;
}

/** Whether a record is one of La Poste's envelopes (and not, say, the gateway's `{ code, message }`). */
function isEnvelope(value: unknown): value is Json {
  return isRecord(value) && (returnCodeOf(value) !== null || isRecord(value.shipment));
}

/**
 * The envelopes of a Suivi v2 body as La Poste sent them (an array, or one envelope), each with the `idShip` it
 * answers for (its shipment's, else its own), found in the text without parsing it; null when not shaped so.
 */
export function suiviEntries(text: string): RawEntry[] | null {
  const whole = wholeOf(text);
  const spans = whole && text.charCodeAt(whole.start) === 0x5b ? elementsAt(text, []) : whole && [whole];
  return (
    spans?.map((span) => {
      const shipment = memberOf(text, span, 'shipment');
      // What `isEnvelope` reads, as text: an entry the mapper would pass over answers for no number.
      const envelope =
        (shipment !== null && text.charCodeAt(shipment.start) === 0x7b) || isReturnCodeText(text, memberOf(text, span, 'returnCode'));
      const number = envelope
        ? (stringOf(text, memberOf(text, shipment, 'idShip')) ?? stringOf(text, memberOf(text, span, 'idShip')))
        : null;
      return { number, span };
    }) ?? null
  );
}

/** Whether a `returnCode` member's text is one `returnCodeOf` reads: an integer, or three digits as a string. */
function isReturnCodeText(text: string, span: Span | null): boolean {
  if (!span) return false;
  const raw = text.slice(span.start, span.end);
  if (/^-?\d+$/.test(raw)) return true;
  const value = stringOf(text, span);
  return value !== null && /^\d{3}$/.test(value.trim());
}

/**
 * Maps a Suivi v2 body (one envelope, or an array of them for a batch) to one result per number La Poste
 * answered for, matched by `idShip`. A single envelope without an `idShip` answers the only number asked.
 * Returns null when the body holds no envelope at all (the caller reports the answer as unreadable).
 */
export function mapSuiviBody(
  body: unknown,
  numbers: readonly string[],
  code: CodeMapper = defaultCodeMapper,
  unchanged?: SameAnswer,
): TrackResult[] | null {
  const envelopes = (Array.isArray(body) ? body : [body]).filter(isEnvelope);
  if (envelopes.length === 0) return null;
  const asked = new Map(numbers.map((n) => [normalize(n), n]));
  const answered = new Map<string, TrackResult>();
  for (const envelope of envelopes) {
    const shipment = isRecord(envelope.shipment) ? envelope.shipment : null;
    const id = text(shipment?.idShip) ?? text(envelope.idShip) ?? (envelopes.length === 1 && numbers.length === 1 ? numbers[0] : null);
    if (id === null) continue;
    const number = asked.get(normalize(id));
    if (number === undefined || answered.has(number)) continue;
    // A number's envelope is all that is read for it: the stored answer's envelope is that answer again.
    answered.set(
      number,
      unchanged?.(number, envelope) ? { status: 'unchanged', tracking_number: number } : resultOf(envelope, shipment, number, code),
    );
  }
  return [...answered.values()];
}

/** One number's result from its envelope, by `returnCode` (documented: 200 found, 104 not yet, 400 invalid, 404 unknown). */
function resultOf(envelope: Json, shipment: Json | null, trackingNumber: string, code: CodeMapper): TrackResult {
  const returnCode = returnCodeOf(envelope);
  if (shipment && (returnCode === null || (returnCode >= 200 && returnCode < 300))) return mapShipment(shipment, trackingNumber, code);
  const said = text(envelope.returnMessage);
  const quoted = said ? `: ${said.slice(0, 200)}` : '';
  // 1xx are per-number answers of a batch (104: "tracking not available yet"); 404: unknown number.
  if (returnCode === 404 || (returnCode !== null && returnCode >= 100 && returnCode < 200)) {
    return { status: 'not_found', tracking_number: trackingNumber };
  }
  if (returnCode === 400) {
    return {
      status: 'error',
      tracking_number: trackingNumber,
      retryable: false,
      message: `La Poste refused the number as invalid (returnCode 400)${quoted}`,
    };
  }
  const what = returnCode === null ? 'no tracking data' : `returnCode ${returnCode}`;
  return {
    status: 'error',
    tracking_number: trackingNumber,
    retryable: true,
    message: `La Poste answered ${what} for this number${quoted}`,
  };
}

/** A found shipment: its events (newest first as La Poste lists them; the base sorts) and its delivery estimate. */
export function mapShipment(shipment: Json, trackingNumber: string, code: CodeMapper = defaultCodeMapper): TrackResult {
  const result: TrackResult = { status: 'ok', tracking_number: trackingNumber, events: eventsOf(shipment, code) };
  const expected = expectedDeliveryOf(shipment);
  if (expected) result.expected_delivery = expected;
  return result;
}

function eventsOf(shipment: Json, code: CodeMapper): CarrierEvent[] {
  const raw = (Array.isArray(shipment.event) ? shipment.event : []).filter(isRecord);
  const codes = raw.map((event) => text(event.code)?.toUpperCase().slice(0, 40) ?? null);
  const waitedForCollection = codes.includes('AG1');
  const context = isRecord(shipment.contextData) ? shipment.contextData : {};
  const countries = { origin: countryAlpha2(text(context.originCountry)), arrival: countryAlpha2(text(context.arrivalCountry)) };
  const removalPoint = isRecord(context.removalPoint) ? context.removalPoint : null;
  const events: CarrierEvent[] = [];
  raw.forEach((event, index) => {
    const eventCode = codes[index];
    const time = fromIsoLike(text(event.date));
    // An event without a code or a readable time cannot be stored or de-duplicated: it is left out.
    if (eventCode === null || time === null) return;
    const side = COUNTRY_OF_CODE[eventCode];
    const country = side ? countries[side] : null;
    const zone = country ? timezoneOf(country, null, { mainland: true }) : null;
    const hasOffset = /(?:Z|[+-]\d{2}:\d{2})$/.test(time);
    const extra: Record<string, unknown> = {};
    if (typeof event.order === 'number' && Number.isFinite(event.order)) extra.order = event.order;
    if (eventCode === 'AG1' && removalPoint) {
      const name = text(removalPoint.name);
      const type = text(removalPoint.type);
      if (name) extra.removal_point_name = name.slice(0, 200);
      if (type) extra.removal_point_type = type.slice(0, 20);
    }
    events.push(
      carrierEvent({
        key: code(eventCode === 'DI1' && waitedForCollection ? ['DI1:AG1', 'DI1'] : [eventCode]),
        code: eventCode,
        description: text(event.label) ?? eventCode,
        time,
        // La Poste gives offsets; a time without one is placed in its country's zone, else in La Poste's.
        timezone: hasOffset ? zone : (zone ?? LAPOSTE_HOME_ZONE),
        location: country ? placeOf({ country_code: country, timezone: zone }) : null,
        extra,
      }),
    );
  });
  return events;
}

/**
 * The delivery estimate: the window `estimHourMin`–`estimHourMax` when both are given, else the day of
 * `estimDate`. None once La Poste marks the item final (`isFinal`): an estimate of a finished journey is stale.
 */
function expectedDeliveryOf(shipment: Json): ExpectedDelivery | undefined {
  if (shipment.isFinal === true) return undefined;
  const from = fromIsoLike(text(shipment.estimHourMin));
  const to = fromIsoLike(text(shipment.estimHourMax));
  if (from && to && from.length > 10 && to.length > 10) {
    const start = parseEventTime(from, { timezone: LAPOSTE_HOME_ZONE });
    const end = parseEventTime(to, { timezone: LAPOSTE_HOME_ZONE });
    if (start.ok && end.ok && start.time.utc <= end.time.utc) return { from, to };
  }
  const estimate = fromIsoLike(text(shipment.estimDate));
  if (estimate) {
    const day = estimate.slice(0, 10);
    return { from: day, to: day };
  }
  return undefined;
}

function defaultCodeMapper(codes: ReadonlyArray<string | null | undefined>): EventKey | null {
  return mapCode(LAPOSTE_CODES, codes);
}
