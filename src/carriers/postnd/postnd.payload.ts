/**
 * The fields Waybill reads from PostNord's Track and Trace API v5 (`GET /rest/shipment/v5/trackandtrace/
 * findByIdentifier.json`), as PostNord's published OpenAPI document "Track Shipment V5" (1.0.7) describes them
 * (docs/carriers/postnd.md names the sources). Every field is optional and typed `unknown`: the mapper checks
 * each one before use and never throws.
 */

/** Where an event happened (`LocationDto`). `locationId` and `locationType` are required by the schema. */
export interface PostnordLocation {
  name?: unknown;
  displayName?: unknown;
  locationId?: unknown;
  depotId?: unknown;
  /** `SERVICE_POINT`, `HUB`, `DEPOT`, `DELIVERY_POINT`, … (see `POSTNORD_LOCATION_TYPES`). */
  locationType?: unknown;
  /** Present in the v7 schema only; read when given. */
  servicePointType?: unknown;
  countryCode?: unknown;
  country?: unknown;
  postcode?: unknown;
  city?: unknown;
}

/** `GeoLocationDto`: coordinates of a scan, in the reference system it names. */
export interface PostnordGeoLocation {
  geoNorthing?: unknown;
  geoEasting?: unknown;
  geoReferenceSystem?: unknown;
  geoPostalCode?: unknown;
  geoCity?: unknown;
  geoCountryCode?: unknown;
}

/** `TrackingEventDto`: `eventTime`, `eventCode` and `location` are required by the schema. */
export interface PostnordEvent {
  /** `date-time`; in practice the local time of the place without offset (`2026-11-16T14:05:00`). */
  eventTime?: unknown;
  /** PostNord's event code; the schema lists no values. */
  eventCode?: unknown;
  /** The item status this event set (the `itemStatus` values). */
  status?: unknown;
  /** The event's text in the requested locale. */
  eventDescription?: unknown;
  location?: PostnordLocation | unknown;
  geoLocation?: PostnordGeoLocation | unknown;
}

/** `AddressDto`. */
export interface PostnordAddress {
  street1?: unknown;
  street2?: unknown;
  city?: unknown;
  countryCode?: unknown;
  country?: unknown;
  postCode?: unknown;
}

/** `DeliveryPointDto`: the service point or locker where a parcel is handed out. */
export interface PostnordDeliveryPoint {
  name?: unknown;
  displayName?: unknown;
  locationId?: unknown;
  depotId?: unknown;
  locationDetail?: unknown;
  servicePointType?: unknown;
  address?: PostnordAddress | unknown;
}

/** `ItemDto`: one parcel (kolli) of a shipment. */
export interface PostnordItem {
  itemId?: unknown;
  status?: unknown;
  estimatedTimeOfArrival?: unknown;
  /** "Might be based on statistical ETA" (the schema's words). */
  publicTimeOfArrival?: unknown;
  deliveryDate?: unknown;
  returnDate?: unknown;
  deliveryImageAvailable?: unknown;
  stoppedInCustoms?: unknown;
  events?: PostnordEvent[] | unknown;
}

/** `ShipmentDto`: `shipmentId` is required by the schema. */
export interface PostnordShipment {
  shipmentId?: unknown;
  /** `ShipmentStatus`: the item statuses and `SPLIT` (items in different states). */
  status?: unknown;
  estimatedTimeOfArrival?: unknown;
  publicTimeOfArrival?: unknown;
  deliveryDate?: unknown;
  consignee?: { address?: PostnordAddress | unknown } | unknown;
  deliveryPoint?: PostnordDeliveryPoint | unknown;
  items?: PostnordItem[] | unknown;
}

/** `CompositeFault`: why PostNord could not answer (`faultCode`, `explanationText`). */
export interface PostnordFaults {
  faults?: Array<{ faultCode?: unknown; explanationText?: unknown }> | unknown;
}

/** The whole answer (`ResponseDto`). An identifier PostNord does not know gets an empty `shipments` list. */
export interface PostnordBody {
  TrackingInformationResponse?: { shipments?: PostnordShipment[] | unknown; compositeFault?: PostnordFaults | unknown } | unknown;
}

/** The `locale` values the API takes ("Allowed values are en, sv, no, da and fi"); `en` is its default. */
export const POSTNORD_LOCALES = ['en', 'sv', 'no', 'da', 'fi'] as const;

export type PostnordLocale = (typeof POSTNORD_LOCALES)[number];

/** The `locationType` values of the schema. */
export const POSTNORD_LOCATION_TYPES = [
  'CUSTOMER_LOCATION',
  'DELIVERY_POINT',
  'DEPOT',
  'DISTRIBUTION_PARTNER',
  'DPD_DEPOT',
  'HUB',
  'IPS_LOCATION',
  'LOAD_POINT',
  'POSTAL_SERVICE_TERMINAL',
  'SERVICE_POINT',
  'SLINGA',
  'UNDEF',
] as const;

type Json = Record<string, unknown>;

/** A text field, trimmed and with inner whitespace collapsed; null when absent, empty or not a string. */
export function textOf(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return null;
  const text = value.replace(/\s+/g, ' ').trim();
  return text === '' ? null : text;
}

/** An object field, or null. */
export function objectOf(value: unknown): Json | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : null;
}

/** A list field: its objects (anything else in it left out); an empty list when it is no list. */
export function listOf(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter((item): item is Json => objectOf(item) !== null) : [];
}
