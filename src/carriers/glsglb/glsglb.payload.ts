/**
 * The fields of GLS Track And Trace V1 answers that the mapper reads (ParcelsResponseDTO, ParcelDTO, EventDTO,
 * the error DTOs). Everything is optional and `unknown`: the mapper checks each value before using it, so any
 * JSON is safe to hand it. docs/carriers/glsglb.md names the sources.
 */

/** `GET /track-and-trace-v1/tracking/simple/trackids/{ids}`: one entry per parcel (an id may yield several). */
export interface GlsParcelsResponse {
  parcels?: unknown;
}

/** One parcel, or one error for a requested id (`errorCode` set, parcel fields absent). */
export interface GlsParcel {
  /** The id as it was asked for (parcel number or Track ID). */
  requested?: unknown;
  /** The parcel number GLS knows the parcel by. */
  unitno?: unknown;
  /** PLANNEDPICKUP, INPICKUP, NOTPICKEDUP, PREADVICE, INTRANSIT, INWAREHOUSE, INDELIVERY, DELIVEREDPS, DELIVERED, NOTDELIVERED, CANCELED, FINAL. */
  status?: unknown;
  /** ISO 8601 with a `+0200`-style offset. */
  statusDateTime?: unknown;
  /** Newest first in GLS's answers. */
  events?: unknown;
  /** `E_404_01` for an unknown id; `E_500_01` for a technical failure on GLS's side. */
  errorCode?: unknown;
  errorMessage?: unknown;
  /** HAL links (`deliveryInfo`: the parcel shop, which needs the original destination postal code). */
  _links?: unknown;
}

/** One scan. */
export interface GlsEvent {
  /** `FAMILY.REASON`, e.g. `DELIVD.NORMAL` (the list is `GET /tracking/events/codes`). */
  code?: unknown;
  description?: unknown;
  /** ISO 8601 with a `+0200`-style offset. */
  eventDateTime?: unknown;
  /** Often empty. */
  city?: unknown;
  postalCode?: unknown;
  /** ISO 3166-1 alpha-2, sometimes empty. */
  country?: unknown;
}

/** The gateway's (Apigee) error body: authentication, quota and spike-arrest failures. */
export interface GlsGatewayFault {
  fault?: { faultstring?: unknown; detail?: { errorcode?: unknown } };
}

/** The API's own error body (RFC 7807 style) for a whole request refused with 400 or 404. */
export interface GlsProblem {
  type?: unknown;
  title?: unknown;
  status?: unknown;
  detail?: unknown;
}
