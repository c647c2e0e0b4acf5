/**
 * The fields of PostNL's Shippingstatus API v2 answers that the adapter reads (Get Status by Barcode and
 * Get Shipment Signature). Every field is `unknown` until checked: PostNL writes empty values as `{}` objects,
 * a single shipment, event or address as an object instead of a one-element list, and leaves fields out.
 *
 * Source: the ShippingStatus API's OpenAPI document (https://api-sandbox.postnl.nl/shipment/v2/status/swagger.json)
 * and the model pages of PostNL's e-commerce SDKs (read 2026-11; see docs/carriers/postnl.md).
 */

/** `GET /shipment/v2/status/barcode/{barcode}`: the current status, or with `detail=true` the complete one. */
export interface PostnlStatusBody {
  CurrentStatus?: { Shipment?: unknown } | unknown;
  CompleteStatus?: { Shipment?: unknown } | unknown;
  /** For numbers PostNL cannot answer for, instead of a shipment. */
  Warnings?: unknown;
}

/** One parcel of a shipment (a multi-collo shipment has one per parcel, `ShipmentCounter` of `ShipmentAmount`). */
export interface PostnlShipment {
  MainBarcode?: unknown;
  Barcode?: unknown;
  ShipmentAmount?: unknown;
  ShipmentCounter?: unknown;
  ProductCode?: unknown;
  ProductDescription?: unknown;
  /** The expected delivery date (`YYYY-MM-DD`). */
  DeliveryDate?: unknown;
  /** The expected delivery window. */
  Expectation?: { ETAFrom?: unknown; ETATo?: unknown } | unknown;
  /** `AddressType` `01` receiver, `02` sender (others for collection and return addresses). */
  Address?: unknown;
  /** The scans, each with an event code (CompleteStatus only). */
  Event?: unknown;
  /** The current status. */
  Status?: unknown;
  /** Earlier statuses (CompleteStatus only). */
  OldStatus?: unknown;
}

/** A status: a phase (`1` collection, `2` sorting, `3` distribution, `4` delivered, `99` not applicable) and a status code. */
export interface PostnlStatus {
  /** `dd-MM-yyyy HH:mm:ss`, Dutch local time. */
  TimeStamp?: unknown;
  StatusCode?: unknown;
  StatusDescription?: unknown;
  PhaseCode?: unknown;
  PhaseDescription?: unknown;
}

/** A scan: an event code (a letter and two digits) and PostNL's numeric location codes. */
export interface PostnlEvent {
  Code?: unknown;
  Description?: unknown;
  LocationCode?: unknown;
  DestinationLocationCode?: unknown;
  RouteCode?: unknown;
  RouteName?: unknown;
  RouteNumber?: unknown;
  /** `dd-MM-yyyy HH:mm:ss`, Dutch local time. */
  TimeStamp?: unknown;
}

export interface PostnlAddress {
  AddressType?: unknown;
  City?: unknown;
  CountryCode?: unknown;
  Zipcode?: unknown;
}

export interface PostnlWarning {
  Code?: unknown;
  Message?: unknown;
}

/** `GET /shipment/v2/status/signature/{barcode}`. */
export interface PostnlSignatureBody {
  Signature?: { Barcode?: unknown; SignatureDate?: unknown; SignatureImage?: unknown } | unknown;
  Warnings?: unknown;
}

/** A text field: trimmed, or null when absent, empty, or not a string (PostNL writes `{}` for empty fields). */
export function textOf(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return null;
  const text = value.trim();
  return text === '' || text === '{}' ? null : text;
}

/** A list field that PostNL may write as one object, a list, or nothing: always a list of objects. */
export function listOf(value: unknown): Record<string, unknown>[] {
  const items = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return items.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null && !Array.isArray(item));
}

/** An object field, or null. */
export function objectOf(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}
