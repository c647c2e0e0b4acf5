import { parseEventTime, toLocalDateTime } from '../../core/event-time.js';
import type { CarrierError, CarrierEvent, ExpectedDelivery, ProofOfDelivery, TrackResult } from '../carrier.js';
import type { EventKey } from '../phases.js';
import { carrierEvent, mapCode } from '../sdk/codes.js';
import { placeOf } from '../sdk/places.js';
import { fromDayFirst, fromIsoLike } from '../sdk/times.js';
import { POSTNL_CODES, POSTNL_DELIVERED_STATUS_CODES } from './postnl.codes.js';
import { listOf, objectOf, textOf } from './postnl.payload.js';

/**
 * PostNL Shippingstatus answers → our results. Pure: no I/O and no clock; the same body always maps to the
 * same result, and no JSON makes it throw.
 */

/** PostNL writes Dutch local times without offset (`dd-MM-yyyy HH:mm:ss`). */
export const POSTNL_TIMEZONE = 'Europe/Amsterdam';

export interface PostnlMapOptions {
  /** Maps codes to an event key, most specific first (the carrier counts unmapped codes through it). */
  code?: (codes: ReadonlyArray<string | null | undefined>) => EventKey | null;
  /** Builds the signature download for a delivered parcel; without it no proof of delivery is offered. */
  proofOfDelivery?: (barcode: string) => ProofOfDelivery;
}

const normalize = (number: string) => number.replace(/\s+/g, '').toUpperCase();

/**
 * A PostNL time as the text `parseEventTime` reads: `dd-MM-yyyy HH:mm:ss` (the documented form) or ISO 8601
 * (the change feed's form); null when unreadable. Slashed dates are refused: `11/07/2022` is ambiguous.
 */
export function postnlTime(value: unknown): string | null {
  const text = textOf(value);
  if (!text || text.includes('/')) return null;
  return fromDayFirst(text) ?? fromIsoLike(text);
}

/** The shipment of a status answer, or null when the answer holds none. */
function shipmentsOf(body: Record<string, unknown>): Record<string, unknown>[] {
  const complete = objectOf(body.CompleteStatus);
  const current = objectOf(body.CurrentStatus);
  return listOf(complete?.Shipment ?? current?.Shipment);
}

/**
 * The parcel this number stands for: the piece whose barcode is the number, else (asked by the main
 * barcode) the main piece, else the only piece.
 */
export function pickShipment(shipments: readonly Record<string, unknown>[], trackingNumber: string): Record<string, unknown> | null {
  const wanted = normalize(trackingNumber);
  const barcode = (s: Record<string, unknown>) => normalize(textOf(s.Barcode) ?? '');
  const main = (s: Record<string, unknown>) => normalize(textOf(s.MainBarcode) ?? '');
  return (
    shipments.find((s) => barcode(s) === wanted) ??
    shipments.find((s) => main(s) === wanted && (barcode(s) === '' || barcode(s) === main(s))) ??
    shipments.find((s) => main(s) === wanted) ??
    (shipments.length === 1 ? shipments[0] : null)
  );
}

interface StatusRecord {
  time: string;
  phase: string | null;
  status: string;
  code: string;
  description: string;
  phaseDescription: string | null;
}

/** Current and earlier statuses, each once (the current one may be repeated among the earlier ones). */
function statusesOf(shipment: Record<string, unknown>): StatusRecord[] {
  const seen = new Set<string>();
  const records: StatusRecord[] = [];
  for (const item of [...listOf(shipment.OldStatus), ...listOf(shipment.Status)]) {
    const time = postnlTime(item.TimeStamp);
    const status = textOf(item.StatusCode);
    if (!time || !status) continue;
    const phase = textOf(item.PhaseCode);
    const code = phase ? `${phase}:${status}` : status;
    if (seen.has(`${time}|${code}`)) continue;
    seen.add(`${time}|${code}`);
    records.push({
      time,
      phase,
      status,
      code,
      description: textOf(item.StatusDescription) ?? '',
      phaseDescription: textOf(item.PhaseDescription),
    });
  }
  return records;
}

/**
 * The shipment's events: every scan (`Event`), keyed by its event code and else by the status PostNL recorded
 * at the same moment; and every status no scan accounts for (a CurrentStatus answer has only those).
 */
export function mapEvents(shipment: Record<string, unknown>, code: NonNullable<PostnlMapOptions['code']>): CarrierEvent[] {
  const statuses = statusesOf(shipment);
  const explained = new Set<StatusRecord>();
  const events: CarrierEvent[] = [];
  for (const scan of listOf(shipment.Event)) {
    const time = postnlTime(scan.TimeStamp);
    if (!time || !parseEventTime(time, { timezone: POSTNL_TIMEZONE }).ok) continue;
    const status = statuses.find((s) => s.time === time);
    const eventCode = textOf(scan.Code);
    const carrierCode = eventCode ?? status?.code;
    if (!carrierCode) continue;
    if (status) explained.add(status);
    const locationCode = textOf(scan.LocationCode);
    const extra: Record<string, unknown> = {};
    if (locationCode) extra.location_code = locationCode;
    const destination = textOf(scan.DestinationLocationCode);
    if (destination) extra.destination_location_code = destination;
    const routeCode = textOf(scan.RouteCode);
    if (routeCode) extra.route_code = routeCode;
    const route = textOf(scan.RouteName) ?? textOf(scan.RouteNumber);
    if (route) extra.route = route;
    if (status) extra.status_code = status.code;
    events.push(
      carrierEvent({
        key: code([eventCode, status?.code, status?.status]),
        code: carrierCode,
        description: textOf(scan.Description) ?? status?.description ?? '',
        time,
        timezone: POSTNL_TIMEZONE,
        // PostNL names its depots only by number: the number is the place when nothing else is given.
        location: locationCode ? placeOf({ code: locationCode }) : null,
        extra,
      }),
    );
  }
  for (const status of statuses) {
    if (explained.has(status) || !parseEventTime(status.time, { timezone: POSTNL_TIMEZONE }).ok) continue;
    const extra: Record<string, unknown> = { status_code: status.status };
    if (status.phase) extra.phase_code = status.phase;
    if (status.phaseDescription) extra.phase_description = status.phaseDescription;
    events.push(
      carrierEvent({
        key: code([status.code, status.status]),
        code: status.code,
        description: status.description,
        time: status.time,
        timezone: POSTNL_TIMEZONE,
        location: null,
        extra,
      }),
    );
  }
  return events;
}

/** A local Dutch date-time written with the offset in force then (the window has no timezone field). */
function withOffset(time: string): string | null {
  const parsed = parseEventTime(time, { timezone: POSTNL_TIMEZONE });
  if (!parsed.ok) return null;
  if (parsed.time.precision === 'date' || parsed.time.offset !== null) return parsed.time.text;
  const local = toLocalDateTime(Date.parse(parsed.time.utc), POSTNL_TIMEZONE);
  return `${local.date}T${local.time}${local.offset}`;
}

/** The delivery window (`Expectation`), else the expected day (`DeliveryDate`). */
export function mapExpectedDelivery(shipment: Record<string, unknown>): ExpectedDelivery | undefined {
  const expectation = objectOf(shipment.Expectation);
  const fromText = postnlTime(expectation?.ETAFrom);
  const toText = postnlTime(expectation?.ETATo);
  const from = fromText ? withOffset(fromText) : null;
  const to = toText ? withOffset(toText) : null;
  if (from && to) {
    const start = parseEventTime(from);
    const end = parseEventTime(to);
    if (start.ok && end.ok && start.time.utc <= end.time.utc) return { from, to };
  }
  const date = postnlTime(shipment.DeliveryDate)?.slice(0, 10);
  if (date && parseEventTime(date).ok) return { from: date, to: date };
  return undefined;
}

function isDelivered(shipment: Record<string, unknown>, events: readonly CarrierEvent[]): boolean {
  const current = listOf(shipment.Status)[0];
  const status = current ? textOf(current.StatusCode) : null;
  return (status !== null && POSTNL_DELIVERED_STATUS_CODES.includes(status)) || events.some((e) => e.phase_key === 'delivered');
}

function unreadable(message: string): CarrierError {
  return { status: 'error', retryable: true, message };
}

/**
 * A status answer (HTTP 200) → the result for one number: its events and window, `not_found` when PostNL
 * holds no shipment for it (it answers with `Warnings` instead), an error for a body that is no status answer.
 */
export function mapStatusBody(trackingNumber: string, body: unknown, options: PostnlMapOptions = {}): TrackResult {
  const root = objectOf(body);
  if (!root || !('CompleteStatus' in root || 'CurrentStatus' in root || 'Warnings' in root)) {
    return { tracking_number: trackingNumber, ...unreadable('PostNL answer holds no shipment status') };
  }
  const shipment = pickShipment(shipmentsOf(root), trackingNumber);
  if (!shipment) return { status: 'not_found', tracking_number: trackingNumber };
  const code = options.code ?? ((codes) => mapCode(POSTNL_CODES, codes));
  const events = mapEvents(shipment, code);
  const result: TrackResult = { status: 'ok', tracking_number: trackingNumber, events };
  const expected = mapExpectedDelivery(shipment);
  if (expected) result.expected_delivery = expected;
  if (options.proofOfDelivery && isDelivered(shipment, events)) {
    result.proof_of_delivery = options.proofOfDelivery(textOf(shipment.Barcode) ?? trackingNumber);
  }
  return result;
}

/** The warnings of an answer as one line, for messages (`code: message; …`). */
export function warningsText(body: unknown): string {
  return listOf(objectOf(body)?.Warnings)
    .map((w) => [textOf(w.Code), textOf(w.Message)].filter(Boolean).join(': '))
    .filter(Boolean)
    .join('; ')
    .slice(0, 200);
}
