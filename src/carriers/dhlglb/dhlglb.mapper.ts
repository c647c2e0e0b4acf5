import { parseEventTime } from '../../core/event-time.js';
import type { CarrierError, CarrierEvent, ProofOfDelivery, TrackResult } from '../carrier.js';
import type { EventKey } from '../phases.js';
import { carrierEvent, mapCode } from '../sdk/codes.js';
import { DHLGLB_CODES, DHLGLB_PHASE_ONLY, DHLGLB_RETURN_KEYS, DHLGLB_UNMAPPED } from './dhlglb.codes.js';
import {
  type DhlAddress,
  type DhlEvent,
  type DhlPlace,
  type DhlProblem,
  type DhlShipment,
  type DhlShipmentsBody,
  list,
  record,
  text,
} from './dhlglb.payload.js';
import { locationOf, zoneOf } from './dhlglb.places.js';
import { type DhlProofLink, proofLinkOf } from './dhlglb.pod.js';
import { eventTime, expectedDelivery } from './dhlglb.times.js';

/**
 * DHL Shipment Tracking – Unified answers → our results. Pure: no I/O, no clock; never throws, whatever
 * the JSON (DHL passes each division's record through, so every field is checked before use).
 */

export interface DhlMapOptions {
  /** The event key of a `statusCode` (the adapter passes one that counts unmapped codes). */
  eventKeyOf?: (statusCode: string) => EventKey | null;
  /** The proof-of-delivery handle of a link the answer gives, or null to leave it out. */
  proofOfDelivery?: (link: DhlProofLink, shipmentId: string) => ProofOfDelivery | null;
}

function normalize(number: string): string {
  return number.replace(/\s+/g, '').toUpperCase();
}

function idsOf(value: unknown): string[] {
  return list(value)
    .map((id) => text(id))
    .filter((id): id is string => id !== null)
    .map(normalize);
}

/**
 * The record of the asked number among those DHL found: the shipment whose `id` is the number, else the
 * one listing it among its pieces, else the first (DHL resolved the number to another division's id for
 * the same shipment). `piece` is true when the number is one piece of the shipment.
 */
export function pickShipment(shipments: unknown[], trackingNumber: string): { shipment: DhlShipment; piece: boolean } | null {
  const wanted = normalize(trackingNumber);
  const records = shipments.map((s) => record<DhlShipment>(s)).filter((s): s is DhlShipment => s !== null);
  const byId = records.find((s) => normalize(text(s.id) ?? '') === wanted);
  if (byId) return { shipment: byId, piece: false };
  const byPiece = records.find((s) => idsOf(record<{ pieceIds?: unknown }>(s.details)?.pieceIds).includes(wanted));
  if (byPiece) return { shipment: byPiece, piece: true };
  const first = records[0];
  if (!first) return null;
  const inEvents = list(first.events).some((e) => idsOf(record<DhlEvent>(e)?.pieceIds).includes(wanted));
  return { shipment: first, piece: inEvents };
}

function extraOf(event: DhlEvent, statusCode: string | null, service: string | null): Record<string, unknown> {
  const extra: Record<string, unknown> = {};
  const add = (name: string, value: unknown) => {
    if (value !== null && value !== undefined && !(Array.isArray(value) && value.length === 0)) extra[name] = value;
  };
  add('dhl_status_code', statusCode);
  add('dhl_status', text(event.status));
  add('dhl_status_detailed', text(event.statusDetailed));
  add('dhl_remark', text(event.remark));
  add('dhl_next_steps', text(event.nextSteps));
  add('dhl_piece_ids', idsOf(event.pieceIds).slice(0, 50));
  add('dhl_service', service);
  return extra;
}

/** One DHL event as ours, or null when its time cannot be read. */
export function mapEvent(
  event: DhlEvent,
  service: string | null,
  eventKeyOf: (statusCode: string) => EventKey | null,
  returning = false,
): CarrierEvent | null {
  const time = eventTime(event.timestamp);
  if (!time) return null;
  const location = locationOf(record<DhlPlace>(event.location) ?? undefined);
  const zone = location?.timezone ?? null;
  const statusCode = text(event.statusCode)?.toLowerCase() ?? null;
  const status = text(event.status);
  const description = text(event.description) ?? status ?? statusCode ?? 'DHL tracking event';
  let key: EventKey | null = null;
  if (statusCode && returning && DHLGLB_RETURN_KEYS[statusCode]) key = DHLGLB_RETURN_KEYS[statusCode];
  else if (statusCode && !DHLGLB_UNMAPPED.includes(statusCode) && !DHLGLB_PHASE_ONLY[statusCode]) key = eventKeyOf(statusCode);
  const mapped = carrierEvent({
    key,
    // The title keeps two events of one code at one moment apart; DHL rewords descriptions, not titles.
    code: [statusCode ?? 'none', status?.slice(0, 100)].filter(Boolean).join(':'),
    description,
    time,
    timezone: zone,
    location,
    extra: { ...extraOf(event, statusCode, service), ...(returning ? { dhl_return_flag: true } : {}) },
  });
  if (!key && statusCode && DHLGLB_PHASE_ONLY[statusCode]) mapped.phase_key = DHLGLB_PHASE_ONLY[statusCode];
  return mapped;
}

/** The index of the newest event (the first of equal instants, as DHL lists newest first), or -1. */
function newestIndex(events: DhlEvent[]): number {
  let best = -1;
  let bestUtc = '';
  events.forEach((event, index) => {
    const time = eventTime(event.timestamp);
    if (!time) return;
    const zone = zoneOf(record<DhlAddress>(record<{ address?: unknown }>(event.location)?.address));
    const parsed = parseEventTime(time, { timezone: zone });
    if (parsed.ok && (best < 0 || parsed.time.utc > bestUtc)) {
      best = index;
      bestUtc = parsed.time.utc;
    }
  });
  return best;
}

/** A 200 answer whose body is not DHL's shipments object. */
function unreadable(trackingNumber: string, why: string): TrackResult {
  return { status: 'error', tracking_number: trackingNumber, retryable: true, message: `DHL answer could not be read: ${why}` };
}

/**
 * The result for one tracking number from DHL's 200 answer: its events (any order; the adapter's base
 * sorts them), the expected delivery and the proof of delivery; not found when DHL lists no shipment.
 */
export function mapShipmentsBody(trackingNumber: string, body: unknown, options: DhlMapOptions = {}): TrackResult {
  const eventKeyOf = options.eventKeyOf ?? ((code: string) => mapCode(DHLGLB_CODES, [code]));
  const answer = record<DhlShipmentsBody>(body);
  if (!answer) return unreadable(trackingNumber, 'not a JSON object');
  if (!Array.isArray(answer.shipments)) return unreadable(trackingNumber, '"shipments" is missing or not a list');
  if (answer.shipments.length === 0) return { status: 'not_found', tracking_number: trackingNumber };
  const picked = pickShipment(answer.shipments, trackingNumber);
  if (!picked) return unreadable(trackingNumber, 'no shipment record in "shipments"');
  const { shipment, piece } = picked;
  const service = text(shipment.service);
  const wanted = normalize(trackingNumber);

  let raw = list(shipment.events)
    .map((e) => record<DhlEvent>(e))
    .filter((e): e is DhlEvent => e !== null);
  // A piece of a multi-piece shipment: its own events and those of the whole shipment (no piece list).
  if (piece) raw = raw.filter((e) => e.pieceIds === undefined || idsOf(e.pieceIds).includes(wanted));
  const status = record<DhlEvent>(shipment.status);
  if (raw.length === 0 && status) raw = [status];

  const returning = shipment.returnFlag === true ? newestIndex(raw) : -1;
  const events = raw
    .map((event, index) => mapEvent(event, service, eventKeyOf, index === returning))
    .filter((e): e is CarrierEvent => e !== null);

  const destination = record<DhlAddress>(record<{ address?: unknown }>(shipment.destination)?.address);
  const expected = expectedDelivery(shipment, zoneOf(destination));
  const shipmentId = text(shipment.id) ?? trackingNumber;
  const link = proofLinkOf(shipment, shipmentId);
  const proof = link && options.proofOfDelivery ? options.proofOfDelivery(link, shipmentId) : null;
  return {
    status: 'ok',
    tracking_number: trackingNumber,
    events,
    ...(expected ? { expected_delivery: expected } : {}),
    ...(proof ? { proof_of_delivery: proof } : {}),
  };
}

/** DHL's problem detail as one line (`title: detail`), or null when the body is not one. */
export function problemText(body: unknown): string | null {
  const problem = record<DhlProblem>(body);
  if (!problem) return null;
  const parts = [text(problem.title), text(problem.detail)].filter((part): part is string => part !== null);
  return parts.length > 0 ? parts.join(': ').slice(0, 300) : null;
}

/** A refused request (HTTP 400 and the like): DHL's own words, not retried. */
export function refused(status: number, body: unknown): CarrierError {
  const why = problemText(body);
  return { status: 'error', retryable: false, message: `DHL refused the tracking request (HTTP ${status})${why ? `: ${why}` : ''}` };
}
