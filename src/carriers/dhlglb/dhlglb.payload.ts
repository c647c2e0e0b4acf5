/**
 * The parts of DHL's Shipment Tracking – Unified answer (`GET /track/shipments`, OpenAPI 1.5.x) that the
 * mapper reads. Every field is optional and typed as DHL documents it, but the mapper checks each value's
 * type before use: DHL passes its divisions' records through without unifying them, so any field may be
 * missing or of another type.
 */

/** `address` of a place (`SecuredAddress`); detail may be withheld unless `recipientPostalCode` was sent. */
export interface DhlAddress {
  addressLocality?: unknown;
  /** ISO 3166-1 alpha-2 as documented; some divisions send `UK`. */
  countryCode?: unknown;
  postalCode?: unknown;
  addressRegion?: unknown;
  streetAddress?: unknown;
}

/** A place (`SecuredPlace`): an address and, for parcel shops and lockers, a service point. */
export interface DhlPlace {
  address?: DhlAddress;
  servicePoint?: { url?: unknown; label?: unknown };
}

/** One status (`TrackingShipmentStatus`) or event (`TrackingShipmentEvent`, which adds `pieceIds`). */
export interface DhlEvent {
  /** ISO 8601, with `Z`, with an offset, or local without one; sometimes a date alone. */
  timestamp?: unknown;
  location?: DhlPlace;
  /** `pre-transit`, `transit`, `delivered`, `failure` or `unknown`. */
  statusCode?: unknown;
  /** Short title; DHL says it is sometimes a code-like text with underscores, sometimes a sentence. */
  status?: unknown;
  statusDetailed?: unknown;
  description?: unknown;
  remark?: unknown;
  nextSteps?: unknown;
  pieceIds?: unknown;
}

/** A person or organisation (`PersonEntity`), e.g. who signed for the parcel. */
export interface DhlEntity {
  name?: unknown;
  givenName?: unknown;
  familyName?: unknown;
  organizationName?: unknown;
}

/** `details.proofOfDelivery`: links to DHL's electronic proof of delivery, when the division gives one. */
export interface DhlProofOfDelivery {
  documentUrl?: unknown;
  signatureUrl?: unknown;
  timestamp?: unknown;
  signed?: DhlEntity;
}

export interface DhlShipmentDetails {
  proofOfDelivery?: DhlProofOfDelivery;
  proofOfDeliverySignedAvailable?: unknown;
  totalNumberOfPieces?: unknown;
  pieceIds?: unknown;
}

/** One shipment record (`TrackingShipment`). */
export interface DhlShipment {
  id?: unknown;
  /** The service (division) that answered: `express`, `parcel-de`, `ecommerce`, … */
  service?: unknown;
  origin?: DhlPlace;
  destination?: DhlPlace;
  status?: DhlEvent;
  estimatedTimeOfDelivery?: unknown;
  estimatedDeliveryTimeFrame?: { estimatedFrom?: unknown; estimatedThrough?: unknown };
  estimatedTimeOfDeliveryRemark?: unknown;
  /** True when the shipment is being (or was) sent back to its sender (OpenAPI 1.5.2). */
  returnFlag?: unknown;
  details?: DhlShipmentDetails;
  events?: unknown;
}

/** The 200 answer (`TrackingShipments`): the records DHL found for one tracking number. */
export interface DhlShipmentsBody {
  shipments?: unknown;
  possibleAdditionalShipmentsUrl?: unknown;
}

/** DHL's error answers (RFC 7807 problem detail, `application/problem+json`). */
export interface DhlProblem {
  type?: unknown;
  title?: unknown;
  status?: unknown;
  detail?: unknown;
  instance?: unknown;
}

/** The text of a value when it is one (trimmed, not empty), else null. */
export function text(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return null;
  const trimmed = value.replace(/\s+/g, ' ').trim();
  return trimmed === '' ? null : trimmed;
}

/** The value as an object whose fields may be read, or null (arrays and other values are not). */
export function record<T extends object>(value: unknown): T | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as T) : null;
}

/** The value as a list, or an empty list. */
export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
