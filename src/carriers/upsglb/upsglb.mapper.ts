import type { CarrierError, CarrierEvent, TrackResult } from '../carrier.js';
import type { EventKey } from '../phases.js';
import { carrierEvent, mapCode } from '../sdk/codes.js';
import { countryAlpha2, placeOf } from '../sdk/places.js';
import { timezoneOf } from '../sdk/times.js';
import { UPS_CODES, UPS_DESCRIBED_ONLY } from './upsglb.codes.js';
import type { UpsActivity, UpsMessage, UpsPackage, UpsShipment } from './upsglb.payload.js';
import { proofOfDelivery } from './upsglb.pod.js';
import { activityTime, expectedDelivery } from './upsglb.times.js';

/**
 * UPS's Track API answers → our results. Pure: no I/O, no clock, and never a throw, whatever the JSON
 * (every value is checked before use).
 */

/** The event key of the first code the table knows (the carrier passes one that also counts unmapped codes). */
export type CodeLookup = (codes: ReadonlyArray<string | null | undefined>) => EventKey | null;

const plainLookup: CodeLookup = (codes) => mapCode(UPS_CODES, codes);

/** UPS's warning for a number it has no tracking information for. */
export const NOT_FOUND_WARNING = 'TW0001';

type Json = Record<string, unknown>;

function object(value: unknown): Json | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null;
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.replace(/\s+/g, ' ').trim() : null;
}

function normalize(trackingNumber: unknown): string {
  return typeof trackingNumber === 'string' ? trackingNumber.replace(/[\s-]+/g, '').toUpperCase() : '';
}

/** A three-digit status code as UPS writes it (`011`); `11` is padded. */
function statusCodeOf(value: unknown): string | null {
  const code = text(value);
  if (code === null) return null;
  return /^\d{1,3}$/.test(code) ? code.padStart(3, '0') : code;
}

/** The `{ code, message }` pairs of a failure body (`response.errors`) or of a shipment's `warnings`. */
export function upsMessages(value: unknown): UpsMessage[] {
  return list(value)
    .map(object)
    .filter((m): m is Json => m !== null)
    .map((m) => ({ code: text(m.code) ?? undefined, message: text(m.message) ?? undefined }))
    .filter((m) => m.code !== undefined || m.message !== undefined);
}

/** The errors of a non-200 answer (`{ response: { errors: [...] } }`); empty when the body is not that. */
export function errorsOf(body: unknown): UpsMessage[] {
  return upsMessages(object(object(body)?.response)?.errors);
}

/** `CODE: message; CODE: message`, at most 200 characters, for error messages. */
export function describeMessages(messages: UpsMessage[]): string {
  const line = messages.map((m) => [m.code, m.message].filter(Boolean).join(': ')).join('; ');
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/** The shipment answering `inquiryNumber` (UPS sends one; any other is a fallback). */
function shipmentFor(shipments: unknown[], inquiryNumber: string): UpsShipment | null {
  const candidates = shipments.map(object).filter((s): s is Json => s !== null);
  const wanted = normalize(inquiryNumber);
  return (candidates.find((s) => normalize(s.inquiryNumber) === wanted) ?? candidates[0] ?? null) as UpsShipment | null;
}

/** The piece whose number was asked for: by its tracking number, then its alternate numbers, else the first. */
function packageFor(shipment: UpsShipment, inquiryNumber: string): UpsPackage | null {
  const packages = list(shipment.package)
    .map(object)
    .filter((p): p is Json => p !== null) as UpsPackage[];
  const wanted = normalize(inquiryNumber);
  return (
    packages.find((p) => normalize(p.trackingNumber) === wanted) ??
    packages.find((p) => list(p.alternateTrackingNumber).some((alt) => normalize(object(alt)?.number) === wanted)) ??
    packages[0] ??
    null
  );
}

/** One UPS activity as our event; null when it has no readable date. */
export function mapActivity(activity: UpsActivity, lookup: CodeLookup = plainLookup): CarrierEvent | null {
  const status = object(activity.status) ?? {};
  const statusCode = statusCodeOf(status.statusCode);
  const type = text(status.type)?.toUpperCase() ?? null;
  const activityCode = text(status.code);
  const location = object(activity.location);
  const address = object(location?.address) ?? {};
  const slic = text(location?.slic);
  const country = countryAlpha2(text(address.countryCode) ?? text(address.country));
  const state = text(address.stateProvince);
  const zone = timezoneOf(country, state);
  const time = activityTime(activity, zone);
  if (time === null) return null;

  const key = statusCode !== null && UPS_DESCRIBED_ONLY.has(statusCode) ? null : lookup([statusCode, type]);
  const code = [statusCode, activityCode].filter(Boolean).join(':') || type || 'unknown';
  const extra: Record<string, unknown> = {};
  if (type) extra.status_type = type;
  if (activityCode) extra.activity_code = activityCode;
  if (statusCode) extra.status_code = statusCode;
  if (slic) extra.slic = slic;
  if (typeof activity.logicalScan === 'boolean') extra.logical_scan = activity.logicalScan;
  return carrierEvent({
    key,
    code,
    description: text(status.description) ?? text(status.simplifiedTextDescription) ?? code,
    time: time.time,
    timezone: time.timezone,
    location: placeOf({
      city: text(address.city),
      state_or_province: state,
      postal_code: text(address.postalCode),
      country_code: country,
      code: slic ? `SLIC ${slic}` : null,
      timezone: zone,
    }),
    extra,
  });
}

/**
 * A `200` answer for one inquiry number: the matching piece's events (in UPS's order; the base sorts
 * them), its expected delivery and proof of delivery; `not_found` when UPS has nothing (the `TW0001`
 * warning, or no piece at all); an error when the body is not a Track API answer.
 */
export function mapTrackResponse(body: unknown, inquiryNumber: string, lookup: CodeLookup = plainLookup): TrackResult | CarrierError {
  const trackResponse = object(object(body)?.trackResponse);
  if (!trackResponse || !Array.isArray(trackResponse.shipment)) {
    return { status: 'error', retryable: true, message: 'UPS answer could not be read: it holds no trackResponse.shipment' };
  }
  const shipment = shipmentFor(trackResponse.shipment, inquiryNumber);
  const pkg = shipment ? packageFor(shipment, inquiryNumber) : null;
  if (!shipment || !pkg) return { status: 'not_found', tracking_number: inquiryNumber };

  const events = list(pkg.activity)
    .map(object)
    .filter((a): a is Json => a !== null)
    .map((activity) => mapActivity(activity as UpsActivity, lookup))
    .filter((event): event is CarrierEvent => event !== null);
  const result: TrackResult = { status: 'ok', tracking_number: inquiryNumber, events };
  const expected = expectedDelivery(pkg);
  if (expected) result.expected_delivery = expected;
  const proof = proofOfDelivery(inquiryNumber, object(pkg.deliveryInformation) ?? undefined);
  if (proof) result.proof_of_delivery = proof;
  return result;
}
