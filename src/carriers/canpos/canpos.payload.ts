import { xmlReader } from '../sdk/xml.js';

/**
 * The parts of Canada Post's Tracking web service answers (REST, XML, `application/vnd.cpc.track-v2+xml`) that the
 * adapter reads. Each element is read by its local name (the namespace is dropped), every value as text; a list
 * element with one child is still a list. Every field is `unknown` until checked: the mapper survives any shape.
 *
 * Source: Canada Post Developer Program, "Get Tracking Details – REST", "Get Delivery Confirmation Certificate –
 * REST" and "Messages and Code Tables" (canadapost-postescanada.ca/info/mc/business/productsservices/developers/,
 * read 2026-11), and the Tracking REST schema `track.xsd` Canada Post publishes with its code samples (see
 * docs/carriers/canpos.md).
 */

/** `GET /vis/track/pin/{pin}/detail`: the parcel and all its scans (`significant-events`), newest first. */
export interface CanposTrackingDetail {
  pin?: unknown;
  /** `YYYY-MM-DD`, or empty. */
  'expected-delivery-date'?: unknown;
  /** A later expected date, when Canada Post changed it (`YYYY-MM-DD`, or empty). */
  'changed-expected-date'?: unknown;
  'changed-expected-delivery-reason'?: unknown;
  'destination-postal-id'?: unknown;
  'service-name'?: unknown;
  'signature-image-exists'?: unknown;
  'suppress-signature'?: unknown;
  'significant-events'?: { occurrence?: unknown } | unknown;
}

/** One scan. */
export interface CanposOccurrence {
  /** Canada Post's numeric event code (`1496`, sometimes zero-padded: `0174`). */
  'event-identifier'?: unknown;
  /** `YYYY-MM-DD`. */
  'event-date'?: unknown;
  /** `HH:mm:ss`, local to the scan. */
  'event-time'?: unknown;
  /** The scan's zone as an abbreviation (`EST`), a place name, or empty. */
  'event-time-zone'?: unknown;
  'event-description'?: unknown;
  'signatory-name'?: unknown;
  /** The city, or for international scans an office code or postal code and a country name (`ILTLVA,Israel`). */
  'event-site'?: unknown;
  /** Two-letter province code for Canadian scans. */
  'event-province'?: unknown;
  /** The post office's number and name, for scans at a retail counter (a parcel held for pickup). */
  'event-retail-location-id'?: unknown;
  'event-retail-name'?: unknown;
}

/** An error answer: `<messages><message><code/><description/></message></messages>`. */
export interface CanposMessage {
  code?: unknown;
  description?: unknown;
}

/** `GET /vis/certificate/{pin}`: the delivery confirmation certificate, a PDF in base64. */
export interface CanposCertificate {
  filename?: unknown;
  image?: unknown;
  'mime-type'?: unknown;
}

/** Elements Canada Post repeats: read as lists even when one is present. */
const LISTS = new Set(['occurrence', 'message', 'item']);

/**
 * An XML answer as an object of element names, or null when the text is not well-formed XML (a proxy's page, a
 * truncated body). Text values stay text: `0174` keeps its zero.
 */
export const parseCanposXml = xmlReader(LISTS);

/** A text value: trimmed, or null when absent, empty, or not text. */
export function textOf(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return null;
  const text = value.trim();
  return text === '' ? null : text;
}

/** A list element as a list of objects, whatever came (one object, a list, nothing). */
export function listOf(value: unknown): Record<string, unknown>[] {
  const items = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return items.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null && !Array.isArray(item));
}

/** An object element, or null. */
export function objectOf(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}
