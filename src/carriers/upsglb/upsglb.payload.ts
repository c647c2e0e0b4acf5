/**
 * The fields of UPS's Track API answer (`GET /api/track/v1/details/{inquiryNumber}`) that the mapper
 * reads, after the `TrackApiResponse` and `Response` schemas of UPS's published OpenAPI document
 * (github.com/UPS-API/api-documentation, Tracking.yaml, MIT). Every field is optional and typed as
 * UPS documents it; the mapper checks each value's type before using it, so any JSON is safe.
 */

/** `200`: one shipment per inquiry number. */
export interface UpsTrackApiResponse {
  trackResponse?: { shipment?: UpsShipment[] };
}

/** `400`, `404` and other failures: `{ response: { errors: [{ code, message }] } }`. */
export interface UpsErrorResponse {
  response?: { errors?: UpsMessage[] };
}

export interface UpsMessage {
  code?: string;
  message?: string;
}

export interface UpsShipment {
  inquiryNumber?: string;
  package?: UpsPackage[];
  /** `TW0001` "Tracking Information Not Found" comes here, with no package. */
  warnings?: UpsMessage[];
}

export interface UpsPackage {
  trackingNumber?: string;
  alternateTrackingNumber?: Array<{ number?: string; type?: string }>;
  /** Newest first, as UPS documents. */
  activity?: UpsActivity[];
  currentStatus?: UpsStatus;
  /** `SDD` scheduled, `RDD` rescheduled, `DEL` delivered; `date` is `YYYYMMDD`. */
  deliveryDate?: Array<{ type?: string; date?: string }>;
  /** `EOD`, `CMT`, `EDW`, `CDW`, `IDW`, `DEL`; times are `HHMMSS`, local to the destination. */
  deliveryTime?: { type?: string; startTime?: string; endTime?: string };
  deliveryInformation?: UpsDeliveryInformation;
  packageCount?: number;
}

export interface UpsActivity {
  /** Local date of the scan, `YYYYMMDD`. */
  date?: string;
  /** Local time of the scan, `HHMMSS`. */
  time?: string;
  /** Offset of the local time, e.g. `-05:00`. */
  gmtOffset?: string;
  gmtDate?: string;
  gmtTime?: string;
  location?: UpsLocation;
  status?: UpsStatus;
  logicalScan?: boolean;
}

export interface UpsLocation {
  address?: UpsAddress;
  /** Site Location Indicator Code, a UPS facility number. */
  slic?: string;
}

export interface UpsAddress {
  addressLine1?: string;
  addressLine2?: string;
  addressLine3?: string;
  city?: string;
  stateProvince?: string;
  postalCode?: string;
  country?: string;
  countryCode?: string;
}

export interface UpsStatus {
  /** Status type letter: `D` delivered, `I` in transit, `M` manifest, `P` pickup, `X` exception… */
  type?: string;
  /** The activity's own two-character code (e.g. `FS`). */
  code?: string;
  /** Three-digit status code (e.g. `011`). */
  statusCode?: string;
  description?: string;
  simplifiedTextDescription?: string;
}

export interface UpsDeliveryInformation {
  location?: string;
  receivedBy?: string;
  /** Base64 of the signature image (asked for with `returnSignature=true`). */
  signature?: { image?: string };
  deliveryPhoto?: { photo?: string; photoDispositionCode?: string };
  /** Base64 of an HTML proof-of-delivery letter (`returnPOD=true`). */
  pod?: { content?: string };
}
