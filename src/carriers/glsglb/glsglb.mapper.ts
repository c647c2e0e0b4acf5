import { parseEventTime } from '../../core/event-time.js';
import type { CarrierError, CarrierEvent, TrackResult } from '../carrier.js';
import type { EventKey } from '../phases.js';
import { carrierEvent, mapCode } from '../sdk/codes.js';
import type { SameAnswer } from '../sdk/known-answers.js';
import { placeOf } from '../sdk/places.js';
import { fromIsoLike, timezoneOf } from '../sdk/times.js';
import { AFTER_ATTEMPT, GLS_CODES, GLS_NOT_FOUND, PARCEL_SHOP_CODES } from './glsglb.codes.js';
import type { GlsEvent, GlsGatewayFault, GlsParcel, GlsParcelsResponse, GlsProblem } from './glsglb.payload.js';

/**
 * GLS Track And Trace V1 answers → our results. Pure: no I/O, no clock; any JSON maps without throwing.
 */

/** Our event key of a list of carrier codes, most specific first (the adapter counts unmapped codes). */
export type CodeMapper = (codes: ReadonlyArray<string | null | undefined>) => EventKey | null;

const plainMapper: CodeMapper = (codes) => mapCode(GLS_CODES, codes);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : typeof value === 'number' && Number.isFinite(value) ? String(value) : '';
}

/** Tracking numbers compared as the base compares them: spaces removed, upper case. */
export function normalizeNumber(value: string): string {
  return value.replace(/\s+/g, '').toUpperCase();
}

/** The UTC instant of a time text, '' when unreadable (sorts first). */
function instantOf(time: string, timezone: string | null): string {
  const parsed = parseEventTime(time, { timezone });
  return parsed.ok ? parsed.time.utc : '';
}

interface Scan {
  code: string;
  description: string;
  time: string;
  timezone: string | null;
  utc: string;
  event: GlsEvent;
}

function readScan(event: GlsEvent): Scan | null {
  const time = fromIsoLike(text(event.eventDateTime));
  if (time === null) return null;
  const country = text(event.country).toUpperCase();
  const timezone = timezoneOf(country, null, { mainland: true });
  const utc = instantOf(time, timezone);
  if (utc === '') return null;
  return { code: text(event.code).toUpperCase() || 'UNSPECIFIED', description: text(event.description), time, timezone, utc, event };
}

/** The codes to look up for one event, most specific first. */
function codesOf(code: string, attempted: boolean): string[] {
  const codes: string[] = [];
  if (attempted && PARCEL_SHOP_CODES.has(code)) codes.push(`${code}${AFTER_ATTEMPT}`);
  codes.push(code);
  const family = code.split('.')[0];
  if (family && family !== code) codes.push(family);
  return codes;
}

/**
 * The events of one parcel, oldest first. The parcel's `status` stands in for the newest event's code when GLS
 * gives it for that same moment (or without a time) and the event's own code is unknown; a parcel without any
 * event but with a status and its time becomes one event of that status.
 */
export function mapParcelEvents(parcel: GlsParcel, mapKey: CodeMapper = plainMapper, unitnoNote?: string): CarrierEvent[] {
  const raw = Array.isArray(parcel.events) ? parcel.events : [];
  const scans = raw
    .filter(isObject)
    .map((event) => readScan(event as GlsEvent))
    .filter((scan): scan is Scan => scan !== null)
    .map((scan, index) => ({ scan, index }))
    .sort((a, b) => (a.scan.utc === b.scan.utc ? b.index - a.index : a.scan.utc < b.scan.utc ? -1 : 1))
    .map(({ scan }) => scan);
  // GLS lists events newest first: for equal instants the later position is the older event, hence `b.index - a.index`.

  const status = text(parcel.status).toUpperCase();
  const statusTime = fromIsoLike(text(parcel.statusDateTime));
  const extra = unitnoNote ? { gls_unitno: unitnoNote } : undefined;

  if (scans.length === 0) {
    if (status === '' || statusTime === null || instantOf(statusTime, null) === '') return [];
    return [
      carrierEvent({
        key: mapKey(codesOf(status, false)),
        code: status,
        description: status,
        time: statusTime,
        timezone: null,
        location: null,
        extra: { ...extra, gls_status: status },
      }),
    ];
  }

  const newest = scans[scans.length - 1];
  const statusApplies = status !== '' && (statusTime === null || instantOf(statusTime, newest.timezone) === newest.utc);
  let attempted = false;
  return scans.map((scan) => {
    const codes = codesOf(scan.code, attempted);
    if (scan === newest && statusApplies) codes.push(...codesOf(status, attempted));
    const key = mapKey(codes);
    if (key === 'delivery_attempt_failed') attempted = true;
    const location = placeOf({
      city: text(scan.event.city),
      postal_code: text(scan.event.postalCode),
      country_code: text(scan.event.country),
      timezone: scan.timezone,
    });
    return carrierEvent({
      key,
      code: scan.code,
      description: scan.description,
      time: scan.time,
      timezone: scan.timezone,
      location,
      extra: scan === newest && status !== '' ? { ...extra, gls_status: status } : extra,
    });
  });
}

/** Among several parcels answering one id (a multi-piece shipment), the one whose number is the id, else the latest. */
function pickParcel(parcels: GlsParcel[], wanted: string): GlsParcel {
  const exact = parcels.find((parcel) => normalizeNumber(text(parcel.unitno)) === wanted);
  if (exact) return exact;
  let best = parcels[0];
  let bestAt = instantOf(fromIsoLike(text(best.statusDateTime)) ?? '', null);
  for (const parcel of parcels.slice(1)) {
    const at = instantOf(fromIsoLike(text(parcel.statusDateTime)) ?? '', null);
    if (at > bestAt) {
      best = parcel;
      bestAt = at;
    }
  }
  return best;
}

/**
 * The results of one `tracking/simple/trackids` answer, one per requested number that the answer mentions
 * (found, `not_found` for `E_404_01`, an error for other per-id errors); numbers it does not mention are
 * left out (the adapter base reports them). A body that is not a parcels list is one error for the batch.
 */
export function mapGlsResponse(
  body: unknown,
  numbers: readonly string[],
  mapKey: CodeMapper = plainMapper,
  unchanged?: SameAnswer,
): TrackResult[] | CarrierError {
  const parcels = isObject(body) ? (body as GlsParcelsResponse).parcels : undefined;
  if (!Array.isArray(parcels)) {
    return { status: 'error', retryable: true, message: 'GLS answer could not be read: it holds no parcels list' };
  }
  const entries = parcels.filter(isObject) as GlsParcel[];
  const results: TrackResult[] = [];
  for (const number of numbers) {
    const wanted = normalizeNumber(number);
    const mentions = entries.filter(
      (entry) => normalizeNumber(text(entry.requested)) === wanted || normalizeNumber(text(entry.unitno)) === wanted,
    );
    if (mentions.length === 0) continue;
    const found = mentions.filter((entry) => text(entry.errorCode) === '');
    if (found.length > 0) {
      const parcel = pickParcel(found, wanted);
      // The chosen parcel is all that is read for the number: the stored answer's parcel is that answer again.
      if (unchanged?.(number, parcel)) {
        results.push({ status: 'unchanged', tracking_number: number });
        continue;
      }
      const unitno = text(parcel.unitno);
      const note = unitno !== '' && normalizeNumber(unitno) !== wanted ? unitno : undefined;
      results.push({ status: 'ok', tracking_number: number, events: mapParcelEvents(parcel, mapKey, note) });
      continue;
    }
    const codes = mentions.map((entry) => text(entry.errorCode));
    if (codes.includes(GLS_NOT_FOUND)) {
      results.push({ status: 'not_found', tracking_number: number });
      continue;
    }
    const first = mentions[0];
    const detail = [text(first.errorCode), text(first.errorMessage)].filter(Boolean).join(': ').slice(0, 200);
    results.push({
      status: 'error',
      tracking_number: number,
      retryable: true,
      message: `GLS could not answer for this number (${detail})`,
    });
  }
  return results;
}

/** The gateway's error code (`policies.ratelimit.QuotaViolation`, …) of an error body, or ''. */
export function gatewayErrorCode(body: unknown): string {
  const fault = isObject(body) ? (body as GlsGatewayFault).fault : undefined;
  if (!isObject(fault)) return '';
  const detail = fault.detail;
  return isObject(detail) ? text(detail.errorcode) : '';
}

/** The gateway's message of an error body, or ''. */
export function gatewayMessage(body: unknown): string {
  const fault = isObject(body) ? (body as GlsGatewayFault).fault : undefined;
  return isObject(fault) ? text(fault.faultstring) : '';
}

/** True for the gateway's daily-quota answer (not for its per-second spike arrest, which is a rate limit). */
export function isQuotaFault(body: unknown): boolean {
  const code = gatewayErrorCode(body);
  if (code !== '') return /QuotaViolation$/i.test(code);
  return /quota/i.test(gatewayMessage(body));
}

/** A short description of the API's own error body (title and detail), or ''. */
export function problemText(body: unknown): string {
  if (!isObject(body)) return '';
  const problem = body as GlsProblem;
  return [text(problem.title), text(problem.detail)].filter(Boolean).join(': ').slice(0, 200);
}
