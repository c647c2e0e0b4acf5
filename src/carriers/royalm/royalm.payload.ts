/**
 * The fields of Royal Mail's Tracking API v2 answers that the adapter reads (events, summary, signature). Every
 * field is `unknown` until checked: the mapper must survive any JSON.
 *
 * Source: Royal Mail's Swagger document "Royal Mail Tracking (for Server-side app) v2 REST API" 1.0.36, as published
 * on the developer portal (https://developer.royalmail.net/) and kept in bricre/royalmail-tracking-v2-sdk
 * (`swagger.yaml`, read 2026-11); see docs/carriers/royalm.md.
 */

/** `GET /mailpieces/v2/{mailPieceId}/events` (200): one mail piece with its whole history. */
export interface RoyalmEventsBody {
  mailPieces?: unknown;
  /** Errors that accompany a success answer (`integrationFooter.errors`). */
  integrationFooter?: unknown;
}

/** The mail piece of an events answer (`eventsMailPiecesDef`). */
export interface RoyalmEventsMailPiece {
  /** The 1D or 2D barcode as asked. */
  mailPieceId?: unknown;
  carrierShortName?: unknown;
  carrierFullName?: unknown;
  summary?: unknown;
  /** Signature metadata, when one was captured: `recipientName`, `signatureDateTime`, `imageId`. */
  signature?: unknown;
  /** `date` (`YYYY-MM-DD`), `startOfEstimatedWindow` and `endOfEstimatedWindow` (`hh:mm:ss±hh:mm`). */
  estimatedDelivery?: unknown;
  /** The events (`eventCode`, `eventName`, `eventDateTime` ISO 8601 with offset, `locationName`). */
  events?: unknown;
  /** `summary`, `signature` and `redelivery` links (relative URLs). */
  links?: unknown;
}

/** The summary of a mail piece (`allSummaryDef`): its last event and where it goes. */
export interface RoyalmSummary {
  uniqueItemId?: unknown;
  oneDBarcode?: unknown;
  productId?: unknown;
  productName?: unknown;
  productCategory?: unknown;
  /** ISO 3166-1 alpha-3 (`GBR`). */
  destinationCountryCode?: unknown;
  originCountryCode?: unknown;
  lastEventCode?: unknown;
  lastEventName?: unknown;
  lastEventDateTime?: unknown;
  lastEventLocationName?: unknown;
  statusDescription?: unknown;
  statusCategory?: unknown;
  summaryLine?: unknown;
}

/** `GET /mailpieces/v2/summary?mailPieceId=a,b,…` (200): one entry per number asked, at most 30. */
export interface RoyalmSummaryBody {
  mailPieces?: unknown;
  /** Present in error answers (`summaryErrorResponse`), with `mailPieces` holding `mailPieceId` and `status` only. */
  httpCode?: unknown;
  errors?: unknown;
}

/** One entry of a summary answer (`summaryMailPiecesDef`). */
export interface RoyalmSummaryMailPiece {
  mailPieceId?: unknown;
  /** The HTTP status for this number: `"200"`, `"404"` … */
  status?: unknown;
  summary?: unknown;
  links?: unknown;
  /** Why this number has no summary (`errorCode`, `errorDescription`, `errorCause`, `errorResolution`). */
  error?: unknown;
}

/** Every error answer (`errorResponse`, and the 401, 405, 429 and 500 shapes). */
export interface RoyalmErrorBody {
  httpCode?: unknown;
  httpMessage?: unknown;
  moreInformation?: unknown;
  errors?: unknown;
}

/** `GET /mailpieces/v2/{mailPieceId}/signature` (200). */
export interface RoyalmSignatureBody {
  mailPieces?: { signature?: RoyalmSignature } | unknown;
}

/** The captured signature (`signatureSignatureDef`). */
export interface RoyalmSignature {
  recipientName?: unknown;
  signatureDateTime?: unknown;
  /** `image/svg+xml` or `image/png`. */
  imageFormat?: unknown;
  imageId?: unknown;
  height?: unknown;
  width?: unknown;
  /** An SVG document, or a base64 PNG. */
  image?: unknown;
}

/** Royal Mail's error code for a barcode it does not know ("Barcode reference … isn't recognised"). */
export const UNKNOWN_BARCODE = 'E1142';

export type Json = Record<string, unknown>;

/** An object field, or null. */
export function objectOf(value: unknown): Json | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : null;
}

/** The objects of a list field; anything else is an empty list. */
export function listOf(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter((item): item is Json => objectOf(item) !== null) : [];
}

/** A text field: white space collapsed, or null when absent, empty or not text (a finite number is read as text). */
export function textOf(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return null;
  const text = value.replace(/\s+/g, ' ').trim();
  return text === '' ? null : text;
}

/** The first error of an answer or of a summary entry: its code and a one-line text for messages. */
export function errorOf(body: unknown): { code: string | null; text: string } | null {
  const root = objectOf(body);
  const error = objectOf(root?.error) ?? listOf(root?.errors)[0] ?? listOf(objectOf(root?.integrationFooter)?.errors)[0] ?? null;
  if (!error) return null;
  const code = textOf(error.errorCode);
  const text = [code, textOf(error.errorDescription), textOf(error.errorCause)].filter(Boolean).join(': ').slice(0, 200);
  return { code, text };
}
