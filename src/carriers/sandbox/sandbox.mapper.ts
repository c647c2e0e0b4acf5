import { parseEventTime } from '../../core/event-time.js';
import type { CarrierError, CarrierEvent, CarrierEventLocation, ExpectedDelivery, ProofOfDelivery, TrackResult } from '../carrier.js';
import { type EventKey, eventDescription, phaseOfEvent } from '../phases.js';
import type {
  SandboxErrorBody,
  SandboxFileResponse,
  SandboxResponse,
  SandboxScan,
  SandboxScanLocation,
  SandboxShipmentPayload,
} from './sandbox.payload.js';

/**
 * The sandbox carrier's mapping: its payloads and codes → our records and standard keys. Pure: no
 * I/O, no clock; the same response always maps to the same result.
 */

/** Sandbox codes → standard event keys. Codes not listed keep the carrier's text and null keys. */
export const SANDBOX_EVENT_KEYS: Readonly<Record<string, EventKey>> = {
  LBL: 'label_created',
  EDI: 'info_received',
  PCK: 'picked_up',
  ARR: 'arrived_at_facility',
  DEP: 'departed_facility',
  LNH: 'in_transit',
  CUS: 'in_customs',
  CLR: 'customs_cleared',
  OFD: 'out_for_delivery',
  NDA: 'delivery_attempt_failed',
  PUP: 'available_for_pickup',
  DLV: 'delivered',
  DLN: 'delivered_to_neighbour',
  DSP: 'delivered_to_pickup_point',
  COL: 'collected_by_recipient',
  ADR: 'address_issue',
  DMG: 'damaged',
  LST: 'lost',
  DLY: 'delayed',
  REF: 'refused_by_recipient',
  RTS: 'returning_to_sender',
  RTD: 'returned_to_sender',
};

const LOCATION_TYPES: Record<SandboxScanLocation['type'], string> = {
  depot: 'depot',
  hub: 'hub',
  service_point: 'pickup_point',
  address: 'address',
};

/** Builds the proof-of-delivery handle for a document the payload announces. */
export type ProofOfDeliveryFactory = (documentId: string, format: 'PNG') => ProofOfDelivery;

export function mapLocation(location: SandboxScanLocation): CarrierEventLocation {
  const cityLine = location.countryCode === 'US' ? `${location.city}, ${location.state} ${location.postcode}` : undefined;
  const localityLine =
    cityLine ?? (location.countryCode === 'GB' ? `${location.city}, ${location.postcode}` : `${location.postcode} ${location.city}`);
  const formatted = [location.street, localityLine, location.country].filter((part) => part !== null).join(', ');
  return {
    place: `${location.city}, ${location.countryCode}`,
    full: [location.facility, formatted].filter((part) => part !== null).join(', '),
    formatted_address: formatted,
    location_type: LOCATION_TYPES[location.type] ?? null,
    line1: location.street,
    line2: null,
    line3: null,
    postal_code: location.postcode,
    city: location.city,
    state_or_province: location.state,
    region: null,
    country: location.country,
    country_code: location.countryCode,
    longitude: String(location.lon),
    latitude: String(location.lat),
    timezone: location.tz,
  };
}

/** The time text a scan states: a date, a local date-time, or a date-time with offset. */
export function scanTime(scan: SandboxScan): string {
  if (scan.time === null) return scan.date;
  return `${scan.date}T${scan.time}${scan.utcOffset ?? ''}`;
}

/** One scan → our event; null when its date or time is unusable (the scan is then left out). */
export function mapScan(scan: SandboxScan): CarrierEvent | null {
  const time = scanTime(scan);
  const timezone = scan.location?.tz ?? null;
  if (!parseEventTime(time, { timezone }).ok) return null;
  const eventKey = Object.hasOwn(SANDBOX_EVENT_KEYS, scan.code) ? SANDBOX_EVENT_KEYS[scan.code] : null;
  const event: CarrierEvent = {
    event: eventKey ? eventDescription(eventKey) : scan.text,
    event_key: eventKey,
    phase_key: eventKey ? phaseOfEvent(eventKey) : null,
    time,
    timezone,
    location: scan.location ? mapLocation(scan.location) : null,
    additional_info: { carrier_code: scan.code, carrier_description: scan.text },
  };
  if (scan.amends) event.correction = true;
  return event;
}

/** Scans arrive newest first; our events are oldest first. */
export function mapScans(scans: readonly SandboxScan[]): CarrierEvent[] {
  return [...scans]
    .reverse()
    .map(mapScan)
    .filter((event): event is CarrierEvent => event !== null);
}

export function mapExpectedDelivery(estimate: SandboxShipmentPayload['estimatedDelivery']): ExpectedDelivery | undefined {
  if (!estimate) return undefined;
  if (!parseEventTime(estimate.earliest).ok || !parseEventTime(estimate.latest).ok) return undefined;
  return { from: estimate.earliest, to: estimate.latest };
}

export function isShipmentPayload(body: unknown): body is SandboxShipmentPayload {
  const candidate = body as Partial<SandboxShipmentPayload> | null;
  return typeof candidate === 'object' && candidate !== null && Array.isArray(candidate.scans);
}

function errorCode(body: unknown): string | undefined {
  return (body as Partial<SandboxErrorBody> | null)?.error?.code;
}

function failure(retryable: boolean, message: string, retryAfterSeconds?: number): CarrierError {
  const error: CarrierError = { status: 'error', retryable, message };
  if (retryAfterSeconds !== undefined) error.retry_after_seconds = retryAfterSeconds;
  return error;
}

function retryAfter(headers: Record<string, string>): number | undefined {
  const value = Number(headers['retry-after']);
  return Number.isInteger(value) && value >= 0 ? value : undefined;
}

/** A scans response → our result for one tracking number. Carrier faults become error results. */
export function mapScansResponse(trackingNumber: string, response: SandboxResponse, proofOfDelivery?: ProofOfDeliveryFactory): TrackResult {
  if (response.outcome === 'timeout') {
    return { tracking_number: trackingNumber, ...failure(true, `Sandbox carrier did not answer within ${response.afterMs} ms`) };
  }
  const { status, headers, body } = response;
  if (status === 200) {
    if (!isShipmentPayload(body))
      return { tracking_number: trackingNumber, ...failure(false, 'Sandbox carrier sent an unexpected payload') };
    const result: TrackResult = { status: 'ok', tracking_number: trackingNumber, events: mapScans(body.scans) };
    const expected = mapExpectedDelivery(body.estimatedDelivery);
    if (expected) result.expected_delivery = expected;
    if (body.proofOfDelivery && proofOfDelivery) {
      result.proof_of_delivery = proofOfDelivery(body.proofOfDelivery.documentId, body.proofOfDelivery.format);
    }
    return result;
  }
  if (status === 404 && errorCode(body) === 'SHIPMENT_NOT_FOUND') return { status: 'not_found', tracking_number: trackingNumber };
  const code = errorCode(body) ?? 'no error code';
  if (status === 429) {
    return { tracking_number: trackingNumber, ...failure(true, `Sandbox carrier throttled the request (${code})`, retryAfter(headers)) };
  }
  if (status >= 500) return { tracking_number: trackingNumber, ...failure(true, `Sandbox carrier failed with HTTP ${status} (${code})`) };
  if (status === 401 || status === 403) {
    return { tracking_number: trackingNumber, ...failure(false, `Sandbox carrier rejected the credentials (HTTP ${status})`) };
  }
  return { tracking_number: trackingNumber, ...failure(false, `Sandbox carrier answered HTTP ${status} (${code})`) };
}

/** A proof-of-delivery download → its bytes, or the failure as data. */
export function mapFileResponse(response: SandboxFileResponse): { status: 'ok'; content: Buffer } | CarrierError {
  if (response.status === 200 && 'content' in response) return { status: 'ok', content: response.content };
  const code = 'body' in response ? response.body.error.code : 'no error code';
  return failure(
    response.status >= 500 || response.status === 429,
    `Sandbox carrier could not provide the document (HTTP ${response.status}, ${code})`,
  );
}
