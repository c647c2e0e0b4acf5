import type { ShapeVersion } from './shipment.presenter.js';

/**
 * A shipment in one shape, as the reader renders it for an answer: `json`, every field of the shape but those
 * made anew for each answer, and those fields' values. `json` is the rendering the reader keeps (see
 * `ShipmentJsonCache`), shared with other answers: read it, never write to it.
 */
export interface RenderedShipment {
  readonly version: ShapeVersion;
  /**
   * UTF-8 JSON, by shape:
   * - v5: the shipment's object;
   * - v5.2: the whole answer to the shipment's details with `pod_url` (the shape's last field) null,
   *   `{"api_response":"200","data":{…,"pod_url":null}}`. Most shipments have no proof of delivery: their details
   *   are then sent as kept, without a copy; a signed link takes the null's place in a copy (`shipmentParts`).
   */
  readonly json: Buffer;
  /** The v5.2 shape's last field, `pod_url`: a proof-of-delivery link signed for this answer (null in v5). */
  readonly podUrl: string | null;
}

/** One page of the shipment list (v5 shape), newest first. */
export interface ShipmentPage {
  shipments: RenderedShipment[];
  next_page: string | null;
}

/** What every successful answer with data begins with: the kept v5.2 form holds it, the other answers are joined to it. */
export const DETAILS_HEAD = '{"api_response":"200","data":';
const NULL_POD_URL = ',"pod_url":null}';
const envelopeBytes = Buffer.byteLength(DETAILS_HEAD);
const nullPodUrlBytes = Buffer.byteLength(NULL_POD_URL);

/**
 * A shipment's JSON object as its serializer writes it, in three pieces to be joined in order: everything up to
 * and including its events' opening bracket (`…,"all_events":[`), the events (`{…},{…}`, empty without events),
 * everything from the events' closing bracket on (`],…}`).
 */
export interface ShipmentJson {
  readonly head: string;
  readonly events: string;
  readonly tail: string;
}

/** A kept rendering (see `RenderedShipment.json`), and where in it its events' bytes lie: `[eventsStart, eventsEnd)`. */
export interface KeptRendering {
  readonly json: Buffer;
  readonly eventsStart: number;
  readonly eventsEnd: number;
}

/**
 * The kept form of a shipment rendered in `version` as `object`, one JSON object without `pod_url` (see `json`).
 * Each piece, as a serializer builds it, is a string of many joined pieces: it is encoded once, straight into the
 * kept bytes, the object's closing brace then overwritten by the member, the brace and the envelope's (slicing it
 * first and joining the envelope to it would copy it twice more). `events` may be given as the bytes of another
 * rendering's events (`ShipmentJsonCache.keptEvents`), written as they are, in place of `object.events`.
 */
export function keptRendering(version: ShapeVersion, object: ShipmentJson, events?: Uint8Array): KeptRendering {
  const headBytes = Buffer.byteLength(object.head);
  const eventsBytes = events ? events.length : Buffer.byteLength(object.events);
  const objectBytes = headBytes + eventsBytes + Buffer.byteLength(object.tail);
  const start = version === 'v5' ? 0 : envelopeBytes;
  const kept = Buffer.allocUnsafeSlow(version === 'v5' ? objectBytes : envelopeBytes + objectBytes - 1 + nullPodUrlBytes + 1);
  if (version !== 'v5') kept.write(DETAILS_HEAD, 0, 'latin1');
  kept.write(object.head, start, 'utf8');
  const eventsStart = start + headBytes;
  if (events) kept.set(events, eventsStart);
  else kept.write(object.events, eventsStart, 'utf8');
  kept.write(object.tail, eventsStart + eventsBytes, 'utf8');
  // The object's last byte, its closing brace ("}" is one byte in UTF-8), is where the member begins.
  if (version !== 'v5') kept.write(`${NULL_POD_URL}}`, start + objectBytes - 1, 'latin1');
  return { json: kept, eventsStart, eventsEnd: eventsStart + eventsBytes };
}

/**
 * The shipment's JSON object as parts to be written in order, with `pod_url` last in v5.2. Parts are views of the
 * kept bytes, not copies.
 */
export function shipmentParts(shipment: RenderedShipment): Uint8Array[] {
  const { json, podUrl } = shipment;
  if (shipment.version === 'v5') return [json];
  if (podUrl === null) return [json.subarray(envelopeBytes, json.length - 1)];
  return [json.subarray(envelopeBytes, json.length - nullPodUrlBytes - 1), Buffer.from(`,"pod_url":${JSON.stringify(podUrl)}}`)];
}

/** The whole answer to a v5.2 shipment's details when it is the kept bytes as they are (no proof of delivery). */
export function keptDetailsAnswer(shipment: RenderedShipment): Buffer | null {
  return shipment.version === 'v5.2' && shipment.podUrl === null ? shipment.json : null;
}

const utf8 = new TextDecoder();

/** The shipment as an object with every field of its shape, `pod_url` last in v5.2 (console pages, webhook bodies). */
export function shipmentObject(shipment: RenderedShipment): Record<string, unknown> {
  if (shipment.version === 'v5') return JSON.parse(utf8.decode(shipment.json)) as Record<string, unknown>;
  const object = (JSON.parse(utf8.decode(shipment.json)) as { data: Record<string, unknown> }).data;
  object.pod_url = shipment.podUrl;
  return object;
}
