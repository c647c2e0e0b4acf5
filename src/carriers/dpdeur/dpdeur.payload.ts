import { xmlReader } from '../sdk/xml.js';

/**
 * The parts of the DPD Web Services' SOAP answers that the adapter reads: LoginService `getAuth` and
 * ParcelLifeCycleService 2.0 `getTrackingData`. Each element is read by its local name (namespace prefixes
 * dropped), every value as text; elements the schema lets repeat are lists even when one is present. Every field is
 * `unknown` until checked: the mapper survives any shape.
 *
 * Source: the ParcelLifeCycleService 2.0, LoginService and Authentication 2.0 schemas (the types of DPD's WSDLs,
 * `ParcelLifecycleServiceV20.wsdl`, `LoginServiceV21.wsdl`) and DPD's service pages (docs/carriers/dpdeur.md).
 */

/** `getTrackingDataResponse/trackingresult`. */
export interface DpdTrackingResult {
  shipmentInfo?: DpdShipmentInfo | unknown;
  /** The parcel's statuses (`StatusInfo`, unbounded). */
  statusInfo?: unknown;
  /** Up to three `ContentItem`s: whom to contact. Not read. */
  contactInfo?: unknown;
}

/** The shipment: its own `status` (`SHIPMENT` at DPD Germany), texts and properties. */
export interface DpdShipmentInfo {
  receiver?: unknown;
  /** A `ContentItem`: DPD Predict's announcement of the delivery day and window, as text lines. */
  predictInformation?: unknown;
  serviceDescription?: unknown;
  additionalServiceElements?: unknown;
  /** `key`/`value` pairs (unbounded); the keys are not documented. */
  trackingProperty?: unknown;
  status?: unknown;
  label?: unknown;
  description?: unknown;
}

/** One status of the parcel's life cycle. */
export interface DpdStatusInfo {
  /** `ACCEPTED`, `AT_SENDING_DEPOT`, … (dpdeur.codes.ts). */
  status?: unknown;
  /** A `ContentLine`: the status's heading as DPD shows it. */
  label?: unknown;
  /** A `ContentItem`: the status explained, as text lines. */
  description?: unknown;
  /** `true` once the parcel has reached this status; statuses still ahead are listed with `false`. */
  statusHasBeenReached?: unknown;
  isCurrentStatus?: unknown;
  showContactInfo?: unknown;
  /** A `ContentLine`: where, as text (`Leeds (GB)`). */
  location?: unknown;
  /** A `ContentLine`: when, as text in the message language's form; no offset. */
  date?: unknown;
  normalItems?: unknown;
  importantItems?: unknown;
  errorItems?: unknown;
}

/** `ContentItem`: an optional label line, text lines and a link. */
export interface DpdContentItem {
  label?: unknown;
  content?: unknown;
  linkTarget?: unknown;
}

/** `ContentLine`: one line of text with display hints. */
export interface DpdContentLine {
  content?: unknown;
  bold?: unknown;
  paragraph?: unknown;
}

/** LoginService `getAuthResponse/return`. */
export interface DpdLogin {
  delisId?: unknown;
  customerUid?: unknown;
  authToken?: unknown;
  depot?: unknown;
  /** `xs:dateTime` (LoginService 2.1; DPD Germany's 2.0 may leave it out). */
  authTokenExpires?: unknown;
}

/** Elements the schemas let repeat: read as lists even when one is present. */
const LISTS = new Set([
  'statusInfo',
  'contactInfo',
  'trackingProperty',
  'normalItems',
  'importantItems',
  'errorItems',
  // `ContentItem.content` repeats; `ContentLine.content` is text and stays text (see `linesOf`).
  'content',
]);

/** An XML answer as an object of element names, or null when the text is not well-formed XML. Values stay text. */
export const parseDpdXml = xmlReader(LISTS);

/** A text value: trimmed, or null when absent, empty, or not text (a number counts as its text). */
export function textOf(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return null;
  const text = value.trim();
  return text === '' ? null : text;
}

/** A list field that may be one object, a list, or nothing: always a list of objects. */
export function listOf(value: unknown): Record<string, unknown>[] {
  const items = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return items.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null && !Array.isArray(item));
}

/** An object field, or null. */
export function objectOf(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** The SOAP body of an envelope (`Envelope/Body`), or null. */
export function soapBodyOf(root: Record<string, unknown> | null): Record<string, unknown> | null {
  return objectOf(objectOf(root?.Envelope)?.Body);
}

/**
 * The text of a `ContentLine` (`{content: '…'}`, its `content` read as a list of one) or of a bare text; null
 * when it has none.
 */
export function lineOf(value: unknown): string | null {
  const direct = textOf(value);
  if (direct !== null) return direct;
  const line = objectOf(value);
  if (!line) return null;
  const content = Array.isArray(line.content) ? line.content[0] : line.content;
  return textOf(content);
}

/** The text lines of a `ContentItem`: its `content` lines, each a `ContentLine` or text. */
export function linesOf(value: unknown): string[] {
  const item = objectOf(value);
  if (!item) return textOf(value) ? [textOf(value) as string] : [];
  const content = Array.isArray(item.content) ? item.content : item.content === undefined ? [] : [item.content];
  return content.map((line) => lineOf(line)).filter((line): line is string => line !== null);
}

/** An `xs:boolean` as text: true, false, or null when absent or unreadable. */
export function booleanOf(value: unknown): boolean | null {
  const text = textOf(value)?.toLowerCase();
  if (text === 'true' || text === '1') return true;
  if (text === 'false' || text === '0') return false;
  return null;
}
