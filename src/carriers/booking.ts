import type { PudoLocationRecord } from '../core/pudo-location.js';
import { uuidV5 } from '../core/uuid-v5.js';
import type { LabelFormat, LabelInput } from '../documents/label.types.js';
import type { CarrierError, CarrierSettings } from './carrier.js';

/** A field problem in the data a carrier needs, keyed by the merchant's field path. */
export interface CarrierFieldError {
  path: Array<string | number>;
  message: string;
}

/** One parcel of a booking: the shipment's weight and dimensions, or one entry of `carrier_metadata.parcels`. */
export interface BookParcel {
  weight_grams: number | null;
  dimensions_cm: { length: number; width: number; height: number } | null;
}

/** A line item of the shipment as the interface stores it (customs data: hs_code, origin, value, weight). */
export type BookLineItem = Readonly<Record<string, unknown>>;

/** What a carrier needs to book a shipment (one parcel or several), read from the shipment. */
export interface BookRequest {
  shipment_uuid: string;
  shipment_id: string;
  type_of_shipment: 'outbound' | 'return';
  shipping_service: string | null;
  sender: Record<string, unknown> | null;
  recipient: Record<string, unknown> | null;
  /** Which of the shipment's address fields the sender and recipient come from, for error paths. */
  sender_field: string;
  recipient_field: string;
  weight_grams: number | null;
  dimensions_cm: { length: number; width: number; height: number } | null;
  shipment_reference: string | null;
  pudo_location: PudoLocationRecord | null;
  /**
   * Carrier-specific options, already accepted by `checkBooking`. Without `parcels`: that option is the
   * service's own, read into `parcels` below.
   */
  carrier_metadata: Record<string, unknown>;
  /** Today's date for the label, YYYY-MM-DD. */
  date: string;
  /**
   * At least one. Without `carrier_metadata.parcels`, one parcel of the shipment's `weight_grams` and
   * `dimensions_cm`. An adapter refuses more than its `maxParcels` in `checkBooking` (path `carrier_metadata.parcels`).
   */
  parcels: BookParcel[];
  /** The shipment's line items (customs declarations), as stored; `line_items[i]` is the error path. */
  line_items: readonly BookLineItem[];
  /** `shipment_value` of the shipment (`{amount, currency}`), when given. */
  shipment_value: { amount: number; currency: string } | null;
  description_of_goods: string | null;
  /**
   * Our reference for this booking attempt, 20 characters (`WB` + 18 of the booking's uuid, letters and
   * digits): adapters send it in the carrier's reference field where there is one, so that `findBooking` can
   * find a booking whose answer was lost.
   */
  booking_reference: string;
}

/**
 * A label the carrier provides: bytes it rendered, or the content we render for it (the sandbox), and
 * whether it is ready now or only after a delay (the booking answer is then HTTP 299).
 */
export type BookedLabel = (
  | { kind: 'file'; bytes: Uint8Array; format: LabelFormat }
  | { kind: 'render'; input: LabelInput; format: LabelFormat }
) & {
  /** Seconds until the carrier has the label; 0 or absent = ready now. */
  ready_after_seconds?: number;
  /**
   * `label` (default) or `customs_declaration` (CN23 and other export papers). Documents are stored in the
   * order given; labels of a multi-parcel booking come in the order of `parcels`.
   */
  document_type?: 'label' | 'customs_declaration';
  /** Which parcel (index into `request.parcels`) a label belongs to, for multi-parcel bookings. */
  parcel_index?: number;
  /** The parcel's own tracking number, when the carrier gives one per parcel. */
  tracking_number?: string;
};

export type BookResult =
  | {
      status: 'ok';
      tracking_number: string;
      carrier_shipment_identifier: string;
      shipping_service: string;
      labels: BookedLabel[];
      carrier_additional_info: Record<string, unknown>;
      /** Tracking number of each parcel, in the order of `request.parcels`, when the carrier gives one per parcel. */
      parcel_tracking_numbers?: string[];
    }
  | BookingError;

/**
 * A booking the carrier refused or could not make. `outcome_unknown`: the request was sent and no answer came
 * (a timeout, a connection reset after sending): the carrier may have booked, so it must not be sent again
 * before `findBooking` says it was not.
 */
export type BookingError = CarrierError & { field_errors?: CarrierFieldError[]; outcome_unknown?: boolean };

/** The successful part of a `BookResult`. */
export type BookedShipment = Extract<BookResult, { status: 'ok' }>;

/** Where a lost booking stands at the carrier: booked (with its labels), never booked, or not known yet. */
export type FoundBooking = { status: 'found'; result: BookedShipment } | { status: 'not_found' } | CarrierError;

/** A product (service) a carrier books, listed in the carrier catalogue. */
export interface BookingProduct {
  /** What `shipping_service` holds to choose it, e.g. `V01PAK` (DHL Paket) or `11` (UPS Standard). */
  code: string;
  name: string;
  /** Outbound, return or both. */
  types: ReadonlyArray<'outbound' | 'return'>;
  /** Destinations it serves: `domestic`, `eu`, `international`, or ISO country codes. */
  destinations?: readonly string[];
}

/** The booking part of a carrier adapter, present when `capabilities.booking` is true. */
export interface BookingCapable {
  /**
   * Checks the shipment data and `carrier_metadata` before anything is recorded: missing addresses,
   * weight, unknown options. Returns every problem, none when the request can be booked.
   */
  checkBooking(request: BookRequest, settings: CarrierSettings): CarrierFieldError[];
  /**
   * Books the parcels. Failures are data; a non-retryable failure may carry field errors. Never retries a
   * booking call by itself (carrier booking calls are not idempotent): a call sent without an answer is
   * `outcome_unknown`.
   */
  book(request: BookRequest, settings: CarrierSettings, options: { now: Date; signal?: AbortSignal }): Promise<BookResult>;
  /**
   * Voids a booking at the carrier: the merchant's cancellation, or one that could not be completed on our
   * side. A booking the carrier no longer knows as cancellable (already scanned, already voided) is a
   * non-retryable error whose message says why.
   */
  cancel(
    carrierShipmentIdentifier: string,
    settings: CarrierSettings,
    options?: { now?: Date; signal?: AbortSignal },
  ): Promise<{ status: 'ok' } | BookingError>;
  /**
   * Looks up a booking whose answer was lost, by `request.booking_reference`. Absent when the carrier offers
   * no such lookup: such a booking then stays `unknown` until the merchant releases it.
   */
  findBooking?(request: BookRequest, settings: CarrierSettings, options: { now: Date; signal?: AbortSignal }): Promise<FoundBooking>;
  /**
   * Asks the carrier to check a booking without booking it (DHL's `validate` mode). Absent when the carrier
   * has no such mode: `checkBooking` is then all the checking there is before booking.
   */
  validateBooking?(
    request: BookRequest,
    settings: CarrierSettings,
    options: { now: Date; signal?: AbortSignal },
  ): Promise<{ status: 'ok'; warnings?: string[] } | BookingError>;
  /** Most parcels in one booking; 1 when absent. */
  readonly maxParcels?: number;
  /** How `cancel` works with this carrier and until when, for the catalogue (the carrier's own words where it has them). */
  readonly cancellation?: string;
  /** The products the carrier books (the catalogue lists them; `checkBooking` refuses others). */
  readonly products?: readonly BookingProduct[];
}

/** The PUDO part of a carrier adapter whose every location is known in advance (the sandbox's data set). */
export interface PudoCapable {
  /** Every location of the carrier, for the service's own indexed copy (refreshed when it changes). */
  pudoLocations(): PudoLocationRecord[];
}

/** A search for a carrier's pick-up points near a place: a point, or a postal code (and city) in a country. */
export interface CarrierPudoQuery {
  lat?: number;
  lng?: number;
  postal_code?: string;
  city?: string;
  /** ISO 3166-1 alpha-2; always set for a postal-code search. */
  country_code?: string;
  radius_meters: number;
  /** Most locations wanted; the carrier may send more or fewer. */
  limit: number;
  /** Our service names (`drop_off`, `pick_up`, …): adapters pass on what their carrier can filter by. */
  services?: string[];
}

/**
 * A pick-up point as a carrier's search answers it. `distance_meters`: the carrier's distance from the
 * searched place, when it gives one; set it, since a search by postal code has no point of ours to measure
 * from (the service then measures from the middle of the locations found, an approximation).
 */
export type CarrierPudoLocation = PudoLocationRecord & { distance_meters?: number };

/**
 * The PUDO part of an adapter whose carrier answers searches (DHL Location Finder, UPS Locator). Records
 * carry `pudo_location_uuid` = `carrierPudoUuid(carrier_id, pudo_location_id)`, lat/lng, and the opening
 * hours as `operating_hours_calc`; the service computes distances, filters and orders, and caches answers.
 */
export interface PudoSearchCapable {
  searchPudo(
    query: CarrierPudoQuery,
    settings: CarrierSettings,
    options: { now: Date; signal?: AbortSignal },
  ): Promise<{ status: 'ok'; locations: CarrierPudoLocation[] } | CarrierError>;
  /** Whether this configuration can search (e.g. a Location Finder key is set); true when absent. */
  supportsPudo?(settings: CarrierSettings): boolean;
}

export function canBook(adapter: object): adapter is BookingCapable {
  return typeof (adapter as Partial<BookingCapable>).book === 'function';
}

export function hasPudo(adapter: object): adapter is PudoCapable {
  return typeof (adapter as Partial<PudoCapable>).pudoLocations === 'function';
}

export function searchesPudo(adapter: object): adapter is PudoSearchCapable {
  return typeof (adapter as Partial<PudoSearchCapable>).searchPudo === 'function';
}

/** Namespace of the pick-up point UUIDs of carriers searched live. */
const CARRIER_PUDO_NAMESPACE = 'b8f4a6e2-3c1d-5e7f-8a9b-0c2d4e6f8a1b';

/** The stable `pudo_location_uuid` of a carrier's pick-up point (the same id always gives the same uuid). */
export function carrierPudoUuid(carrierId: string, pudoLocationId: string): string {
  return uuidV5(`${carrierId}:${pudoLocationId}`, CARRIER_PUDO_NAMESPACE);
}
