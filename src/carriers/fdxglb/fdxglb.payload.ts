/**
 * The parts of FedEx Track API answers we read (Basic Integrated Visibility, `POST /track/v1/trackingnumbers`
 * and `POST /track/v1/trackingdocuments`), as FedEx's OpenAPI documents them. Every field is optional and
 * typed `unknown`-safe where it matters: answers come from outside and the mapper checks what it reads.
 */

/** `POST /track/v1/trackingnumbers` request body. */
export interface FedexTrackRequest {
  includeDetailedScans: boolean;
  trackingInfo: Array<{ trackingNumberInfo: { trackingNumber: string } }>;
}

/** An address as FedEx gives it for scan locations (`AddressVO1`). */
export interface FedexAddress {
  streetLines?: unknown;
  city?: unknown;
  stateOrProvinceCode?: unknown;
  postalCode?: unknown;
  countryCode?: unknown;
  countryName?: unknown;
  residential?: unknown;
}

/** One scan (`ScanEvent`). `date` is ISO 8601, normally with the local offset (`2018-02-02T12:01:00-07:00`). */
export interface FedexScanEvent {
  date?: unknown;
  eventType?: unknown;
  eventDescription?: unknown;
  exceptionCode?: unknown;
  exceptionDescription?: unknown;
  derivedStatusCode?: unknown;
  derivedStatus?: unknown;
  scanLocation?: FedexAddress | null;
  locationId?: unknown;
  locationType?: unknown;
}

/** `begins`/`ends` of a window (`TimeRange`); either may lack an offset. */
export interface FedexTimeRange {
  begins?: unknown;
  ends?: unknown;
}

/** `estimatedDeliveryTimeWindow`, `standardTransitTimeWindow` (`TimeWindow`). */
export interface FedexTimeWindow {
  type?: unknown;
  description?: unknown;
  window?: FedexTimeRange | null;
}

/** One of `dateAndTimes` (`TrackingDateAndTime`): `type` ESTIMATED_DELIVERY, ACTUAL_DELIVERY, SHIP, … */
export interface FedexDateAndTime {
  type?: unknown;
  dateTime?: unknown;
}

/** A per-number failure inside a 200 (`CXSError`), e.g. `TRACKING.TRACKINGNUMBER.NOTFOUND`. */
export interface FedexError {
  code?: unknown;
  message?: unknown;
}

/** `latestStatusDetail` (`StatusDetail`). */
export interface FedexStatusDetail {
  code?: unknown;
  derivedCode?: unknown;
  description?: unknown;
}

/** `deliveryDetails` (`DeliveryDetails`). */
export interface FedexDeliveryDetails {
  receivedByName?: unknown;
  signedByName?: unknown;
}

/** One piece or one duplicate of a number (`TrackResult`). */
export interface FedexTrackResult {
  trackingNumberInfo?: { trackingNumber?: unknown; trackingNumberUniqueId?: unknown; carrierCode?: unknown } | null;
  error?: FedexError | null;
  latestStatusDetail?: FedexStatusDetail | null;
  scanEvents?: unknown;
  dateAndTimes?: unknown;
  estimatedDeliveryTimeWindow?: FedexTimeWindow | null;
  standardTransitTimeWindow?: FedexTimeWindow | null;
  deliveryDetails?: FedexDeliveryDetails | null;
  availableImages?: unknown;
}

/** One requested number and what FedEx knows of it (`CompleteTrackResult`). */
export interface FedexCompleteTrackResult {
  trackingNumber?: unknown;
  trackResults?: unknown;
}

/** The 200 answer (`TrkcResponseVO_TrackingNumber`). */
export interface FedexTrackResponse {
  transactionId?: unknown;
  customerTransactionId?: unknown;
  output?: { completeTrackResults?: unknown; alerts?: unknown } | null;
}

/** An error answer (`ErrorResponseVO`): 400, 401, 403, 404, 500, 503. */
export interface FedexErrorResponse {
  transactionId?: unknown;
  errors?: unknown;
}

/** `POST /track/v1/trackingdocuments` request body for a signature proof of delivery. */
export interface FedexDocumentRequest {
  trackDocumentDetail: { documentType: 'SIGNATURE_PROOF_OF_DELIVERY'; documentFormat: 'PDF' | 'PNG' };
  trackDocumentSpecification: Array<{
    trackingNumberInfo: { trackingNumber: string; trackingNumberUniqueId?: string; carrierCode?: string };
  }>;
}

/** The documents answer (`TrkcResponseVO_SPOD`): `output.document` holds base64 texts. */
export interface FedexDocumentResponse {
  output?: { documentType?: unknown; documentFormat?: unknown; document?: unknown; alerts?: unknown } | null;
}
